/**
 * An instrument's service history (`history.*`: calibrations, the calibration log, SICs), read
 * through the cache like historic data and turned into typed records (history-records.ts).
 */
import type { DatasetQuery, DataReadResult } from '../../../shared/data';
import type { AccountState } from '../accounts/account-state';
import type { HandlersOf } from '../core/handler-types';
import type { ReadThroughCache } from '../data/read-through-cache';
import {
  calibrationLogEntriesOf,
  calibrationRecordsOf,
  nothingAnswered,
  sicRecordsOf,
} from './history-records';

export interface HistoryHandlerDeps {
  accounts: AccountState;
  read: ReadThroughCache;
  now: () => number;
}

export function historyHandlers({ accounts, read, now }: HistoryHandlerDeps): HandlersOf<'history'> {
  /**
   * When nothing at all could be answered (no copy, and the service unreachable or refusing), that
   * failure is thrown: the history shows it as an error (or, for a missing scope, its "no records
   * with this key" notice) rather than an empty table.
   */
  async function readHistory(query: DatasetQuery): Promise<DataReadResult> {
    const result = await read(accounts.requireActive(), query);
    const failure = nothingAnswered(result, now());
    if (failure !== null) throw failure;
    return result;
  }

  return {
    'history.calibrations': async ({ serial, start, end }) => {
      const result = await readHistory({ serial, dataset: 'calibrations', start, end });
      return { records: calibrationRecordsOf(serial, result.records), provenance: result.provenance };
    },
    'history.calibrationLog': async ({ serial, start, end }) => {
      const result = await readHistory({ serial, dataset: 'calibrationLog', start, end });
      return { records: calibrationLogEntriesOf(serial, result.records), provenance: result.provenance };
    },
    'history.sic': async ({ serial, start, end }) => {
      const result = await readHistory({ serial, dataset: 'sic', start, end });
      return { records: sicRecordsOf(serial, result.records), provenance: result.provenance };
    },
  };
}
