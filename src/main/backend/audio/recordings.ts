/**
 * An instrument's recordings as engineers read them, from two cached datasets: the audio recording
 * list (`audio`) and the noise events that carry audio (`events`, `audioId`). Each recording once:
 * an event whose audio is already in the list (same id, or a recording triggered at the event's
 * start) is not listed again. Read tolerantly: a row without an id or a time is left out and
 * counted, never a reason to lose the others.
 */
import type { Recording } from '../../../shared/audio';
import type { CellValue, Provenance, RecordTable, TimeInterval } from '../../../shared/data';
import { normalize } from '../core/intervals';

/** An event and a listed recording whose trigger starts within this of each other are one recording. */
const SAME_TRIGGER_MS = 1_000;

type Row = Record<string, CellValue>;

const numberOf = (row: Row, key: string): number | null => {
  const value = row[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};

const textOf = (row: Row, key: string): string | null => {
  const value = row[key];
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
};

function fromAudioRow(serial: string, row: Row): Recording | null {
  const id = textOf(row, 'id');
  const triggerStart = numberOf(row, 'triggerStartTime');
  const triggerEnd = numberOf(row, 'triggerEndTime');
  const start = numberOf(row, 'startTime') ?? triggerStart;
  if (id === null || start === null) return null;
  const end = Math.max(start, numberOf(row, 'endTime') ?? triggerEnd ?? start);
  return {
    id,
    source: 'recording',
    serial,
    start,
    end,
    triggerStart,
    triggerEnd,
    triggerName: textOf(row, 'triggerName') ?? 'Recording',
  };
}

/**
 * A noise event's audio: it starts at `audioTime` (the pre-trigger included) or, without one, at the
 * event. The service does not say where an event's audio ends: the event's end is used.
 */
function fromEventRow(serial: string, row: Row): Recording | null {
  const id = textOf(row, 'audioId');
  if (id === null) return null;
  const eventStart = numberOf(row, 'startTime');
  const start = numberOf(row, 'audioTime') ?? eventStart;
  if (start === null) return null;
  const eventEnd = numberOf(row, 'endTime');
  return {
    id,
    source: 'event',
    serial,
    start,
    end: Math.max(start, eventEnd ?? eventStart ?? start),
    triggerStart: eventStart,
    triggerEnd: eventEnd,
    triggerName: textOf(row, 'name') ?? textOf(row, 'type') ?? 'Event',
  };
}

export interface RecordingsRead {
  recordings: Recording[];
  /** Rows that carried audio but could not be read (no id, no time). */
  unreadable: number;
}

/** The recordings of one instrument from its cached audio list and events, each once, by start. */
export function recordingsFrom(
  serial: string,
  audio: RecordTable | null,
  events: RecordTable | null,
): RecordingsRead {
  let unreadable = 0;
  const byId = new Map<string, Recording>();
  for (const row of audio?.rows ?? []) {
    const recording = fromAudioRow(serial, row);
    if (recording === null) unreadable++;
    else if (!byId.has(recording.id)) byId.set(recording.id, recording);
  }
  const listed = [...byId.values()];
  for (const row of events?.rows ?? []) {
    const hasAudio = row['audioId'] !== null && row['audioId'] !== undefined && row['audioId'] !== '';
    if (!hasAudio) continue;
    const recording = fromEventRow(serial, row);
    if (recording === null) {
      unreadable++;
      continue;
    }
    if (byId.has(recording.id)) continue;
    const trigger = recording.triggerStart;
    const sameTrigger =
      trigger !== null &&
      listed.some((r) => r.triggerStart !== null && Math.abs(r.triggerStart - trigger) < SAME_TRIGGER_MS);
    if (sameTrigger) continue;
    byId.set(recording.id, recording);
  }
  const recordings = [...byId.values()].sort(
    (a, b) => a.start - b.start || a.end - b.end || a.id.localeCompare(b.id),
  );
  return { recordings, unreadable };
}

/**
 * One provenance for an answer made of several reads: partial when any read was (its missing time
 * and reason), cached when any part came from the cache (the oldest), fresh otherwise.
 */
export function combineProvenance(parts: readonly Provenance[]): Provenance {
  const partial = parts.filter((p) => p.source === 'partial');
  const cachedTimes = parts.flatMap((p) =>
    p.source === 'cached' ? [p.cachedAt] : p.source === 'partial' && p.cachedAt !== null ? [p.cachedAt] : [],
  );
  const oldestCached = cachedTimes.length === 0 ? null : Math.min(...cachedTimes);
  if (partial.length > 0) {
    const missing: TimeInterval[] = normalize(partial.flatMap((p) => p.missing));
    return { source: 'partial', cachedAt: oldestCached, missing, reason: partial[0]!.reason };
  }
  const open = parts.flatMap((p) =>
    p.source !== 'partial' && p.openFetchedAt !== undefined ? [p.openFetchedAt] : [],
  );
  const openPart = open.length === 0 ? {} : { openFetchedAt: Math.min(...open) };
  const cached = parts.filter((p) => p.source === 'cached');
  if (cached.length > 0 && oldestCached !== null) {
    const upTo = cached.flatMap((p) => (p.upTo === undefined ? [] : [p.upTo]));
    return {
      source: 'cached',
      cachedAt: oldestCached,
      ...(upTo.length === 0 ? {} : { upTo: Math.min(...upTo) }),
      ...openPart,
    };
  }
  const fresh = parts.filter((p) => p.source === 'fresh');
  const fetchedAt = fresh.length === 0 ? Date.now() : Math.min(...fresh.map((p) => p.fetchedAt));
  return { source: 'fresh', fetchedAt, ...openPart };
}
