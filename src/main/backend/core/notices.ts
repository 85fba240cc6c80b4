/**
 * The notice board: what the user must be told that no single screen owns (a damaged file set
 * aside, results kept while the database was unavailable). Pushed as `app.noticesChanged`.
 */
import type { AppNotice } from '../../../shared/ipc/contract';
import type { EventHub } from './events';

export interface NoticeBoard {
  /** Raises a notice; one with the same id is replaced. */
  raise(notice: Omit<AppNotice, 'since'>): void;
  list(): AppNotice[];
  dismiss(id: string): AppNotice[];
}

export function createNoticeBoard(events: EventHub, now: () => number): NoticeBoard {
  const notices = new Map<string, AppNotice>();
  const list = (): AppNotice[] => [...notices.values()].map((notice) => ({ ...notice }));
  const changed = (): void => events.emit('app.noticesChanged', list());
  return {
    raise(notice) {
      notices.delete(notice.id);
      notices.set(notice.id, { ...notice, since: now() });
      changed();
    },
    list,
    dismiss(id) {
      if (notices.delete(id)) changed();
      return list();
    },
  };
}
