/**
 * What the records' notices say, in words: what a records file holds, what a restore replayed or
 * recovered and from when, and what could not be read. Kept apart from the restore itself so its
 * steps read as steps and the wording reads whole.
 */
import type { BackupCopy } from '../core/backups';
import type { SqliteDatabase } from '../core/database';
import type { RecordChange } from './change-journal';
import type { Replay } from './record-rows';
import { RECORD_TABLES, type RecordTable, type SalvageReport } from './records-salvage';

const when = (epochMs: number): string =>
  `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function count(n: number, [one, many]: readonly [string, string]): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "4 sites, 120 action results and 3 recordings": what a records file holds. */
export function contents(db: SqliteDatabase): string {
  const shown: RecordTable[] = [
    'assessment_sites',
    'site_visits',
    'action_history',
    'audio_library',
    'calibrators',
  ];
  const held = shown.flatMap((table) => {
    const { n } = db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number };
    return n === 0 ? [] : [count(n, RECORD_TABLES[table].noun)];
  });
  return held.length === 0 ? 'no sites, visits, action results, recordings or calibrators' : listText(held);
}

/** The order record kinds are named in: what the user made first. */
const NAMED_ORDER: readonly RecordTable[] = [
  'assessment_sites',
  'site_visits',
  'action_history',
  'audio_library',
  'calibrators',
  'audio_downloads',
  'audio_settings',
  'visit_settings',
];

/** "2 sites saved and 1 site visit deleted": what a replay did, each record once, by its last change. */
function replayed(changes: readonly RecordChange[]): string {
  const last = new Map<string, RecordChange>();
  for (const change of changes) last.set(`${change.table}\u0000${JSON.stringify(change.key)}`, change);
  const counts = new Map<string, { table: RecordTable; op: RecordChange['op']; n: number }>();
  for (const change of last.values()) {
    const id = `${change.table}/${change.op}`;
    const entry = counts.get(id) ?? { table: change.table, op: change.op, n: 0 };
    entry.n++;
    counts.set(id, entry);
  }
  return listText(
    [...counts.values()]
      .sort(
        (a, b) =>
          NAMED_ORDER.indexOf(a.table) - NAMED_ORDER.indexOf(b.table) ||
          (a.op === b.op ? 0 : a.op === 'put' ? -1 : 1),
      )
      .map(
        ({ table, op, n }) => `${count(n, RECORD_TABLES[table].noun)} ${op === 'put' ? 'saved' : 'deleted'}`,
      ),
  );
}

/** What the merge brought back and took away, in words; null when nothing. */
function recovered(report: SalvageReport): string | null {
  const tables = [...report.tables].sort(
    (a, b) => NAMED_ORDER.indexOf(a.table) - NAMED_ORDER.indexOf(b.table),
  );
  const parts = [
    ...tables.filter((t) => t.merged > 0).map((t) => count(t.merged, RECORD_TABLES[t.table].noun)),
    ...tables
      .filter((t) => t.removed > 0)
      .map((t) => `${count(t.removed, RECORD_TABLES[t.table].noun)} you had deleted taken out`),
  ];
  return parts.length === 0 ? null : listText(parts);
}

/** The tables the merge could only partly read, as nouns. */
export function partlyRead(report: SalvageReport): string[] {
  return report.tables.filter((t) => !t.complete).map((t) => RECORD_TABLES[t.table].noun[1]);
}

/** What a restore found and did, for its notice. */
export interface RestoreFacts {
  /** What was wrong with the file: "was found damaged (…)". */
  problem: string;
  dataDir: string;
  fileName: string;
  /** The name the damaged file was set aside as. */
  asideName: string;
  /** The copy the change journal reaches back to, when there is one. */
  reached: BackupCopy | undefined;
  /** The copy restored from: the reached one, else the newest sound one; null when there was none. */
  copy: BackupCopy | null;
  /** What the merge from the damaged file did; null when the journal reached a copy. */
  report: SalvageReport | null;
  replay: Replay<RecordChange>;
  /** Changes after the copy the journal could not give back. */
  lost: number;
  /** What the records hold now (`contents`). */
  holds: string;
}

/** The notice after records from a journal-reached copy: what was replayed and what may be missing. */
function reachedNotice(head: string, facts: RestoreFacts, reached: BackupCopy, changesText: string): string {
  const { replay, lost, holds } = facts;
  let body =
    `${head} and restored them from the backup of ${when(reached.takenAt)}` +
    (changesText === ''
      ? ', which holds every change you made'
      : `, then replayed from the change journal the ${changesText} you made after it`) +
    `. Your records now hold ${holds}.`;
  if (lost + replay.refused > 0)
    body += ` ${count(lost + replay.refused, ['change', 'changes'])} made after that backup could not be read from the change journal and may be missing.`;
  return body;
}

/** The notice after records rebuilt from the newest copy (or none) and what the damaged file held. */
function salvagedNotice(head: string, facts: RestoreFacts, changesText: string): string {
  const { copy, report, holds } = facts;
  const back = report === null ? null : recovered(report);
  const partial = report === null ? [] : partlyRead(report);
  const replayText = changesText === '' ? '' : `, and replayed ${changesText} from the change journal`;
  if (copy !== null) {
    let body =
      `${head} and restored them from the backup of ${when(copy.takenAt)}` +
      (back === null ? '' : `, bringing them up to date with what the damaged file still held (${back})`) +
      replayText +
      `. Your records now hold ${holds}.`;
    if (report?.problem != null && changesText === '') {
      body += ` Nothing could be read from the damaged file, so a change made after ${when(copy.takenAt)} could not be recovered.`;
    } else if (partial.length > 0) {
      body += ` Some ${listText(partial)} could not be read from the damaged file, so changes to them after ${when(copy.takenAt)} may be missing.`;
    }
    return body;
  }
  const found = [
    back === null ? null : `${back} were recovered from the damaged file`,
    changesText === '' ? null : `${changesText} came back from the change journal`,
  ].filter((part): part is string => part !== null);
  return (
    `${head}. There was no backup to restore from` +
    (found.length === 0
      ? ', and nothing could be read from the damaged file, so FieldDesk started with empty records.'
      : `; ${found.join(' and ')}. Your records now hold ${holds}.`) +
    (partial.length > 0 ? ` Some ${listText(partial)} could not be read.` : '')
  );
}

/** What to tell the user after a restore: what was set aside, what it was restored from, what came back. */
export function restoreNotice(facts: RestoreFacts): string {
  const { replay } = facts;
  const changesText =
    replay.applied.length === 0
      ? ''
      : `${count(replay.applied.length, ['change', 'changes'])} (${replayed(replay.applied)})`;
  const head =
    `The file of your records (sites, exclusions, limits, site visits, action history, audio library, calibrators), ${facts.fileName}, ${facts.problem}. ` +
    `FieldDesk set the file aside as ${facts.asideName} in ${facts.dataDir}`;
  return facts.reached !== undefined
    ? reachedNotice(head, facts, facts.reached, changesText)
    : salvagedNotice(head, facts, changesText);
}
