/**
 * The app itself (`app.*`): what runs (version, Electron or the browser harness) and the notice
 * board of things the user must know that no single screen owns (core/notices.ts).
 */
import type { AppInfo } from '../../../shared/ipc/contract';
import type { HandlersOf } from '../core/handler-types';
import type { NoticeBoard } from '../core/notices';

export interface AppHandlerDeps {
  appInfo: AppInfo;
  notices: NoticeBoard;
}

export function appHandlers({ appInfo, notices }: AppHandlerDeps): HandlersOf<'app'> {
  return {
    'app.getInfo': async () => ({ ...appInfo }),
    'app.notices': async () => notices.list(),
    'app.dismissNotice': async ({ id }) => notices.dismiss(id),
  };
}
