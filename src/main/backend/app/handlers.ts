/**
 * The app itself (`app.*`): what runs (version, Electron or the browser harness), the notice
 * board of things the user must know that no single screen owns (core/notices.ts), how much the
 * log says, and the renderer's errors kept in the same log as the backend's.
 */
import type { AppInfo } from '../../../shared/ipc/contract';
import type { HandlersOf } from '../core/handler-types';
import type { Logger, RootLogger } from '../core/log';
import type { NoticeBoard } from '../core/notices';

export interface AppHandlerDeps {
  appInfo: AppInfo;
  notices: NoticeBoard;
  log: RootLogger;
}

export function appHandlers({ appInfo, notices, log }: AppHandlerDeps): HandlersOf<'app'> {
  const renderer: Logger = log.child('renderer');
  return {
    'app.getInfo': async () => ({ ...appInfo }),
    'app.notices': async () => notices.list(),
    'app.dismissNotice': async ({ id }) => notices.dismiss(id),
    'app.logLevel': async () => ({ level: log.level() }),
    'app.setLogLevel': async ({ level }) => {
      // Said at the level being left as well as the new one, so the log shows where detail starts and ends.
      log.warn('log level changed', { from: log.level(), to: level });
      log.setLevel(level);
      return { level };
    },
    'app.reportError': async ({ source, message, stack, where, dropped }) => {
      renderer.error(message, { source, stack, where, ...(dropped ? { dropped } : {}) });
      return { logged: true };
    },
  };
}
