/**
 * What an assessment reads, per instrument of the site, through the same read-through cache as the
 * data views: online the service fills what the cache lacks; offline the cache answers what a site
 * sync or an earlier view kept, and what it lacks is said in a note rather than guessed. The noise
 * values and time history are asked with a site sync's own options ("Noise survey"), so a synced
 * site assesses offline from exactly what was kept.
 */
import type { DataReadResult, Dataset, DatasetOptions, TimeInterval } from '../../../shared/data';
import { DATASET_LABELS, hasFeature } from '../../../shared/data';
import { FieldDeskError } from '../../../shared/errors';
import type { InstrumentEntry } from '../../../shared/ipc/contract';
import {
  DEFAULT_SYNC_CHOICES,
  SYNC_TIME_HISTORY_OPTIONS,
  syncTypeOf,
  type SyncType,
} from '../../../shared/sync-choices';
import type { AssessedInstrument, DataOrigin, Site } from '../../../shared/assessment';
import { subtract, union } from '../core/intervals';
import { instrumentPassed } from '../../../shared/check-verdicts';
import { nominalStepMs } from './exclusions';

/** Calibrations and SICs are looked for this long before and after the period (evidence either side). */
export const CHECK_MARGIN_MS = 62 * 86_400_000;

/** The noise values an assessment uses, as a noise survey syncs them (so offline reads hit the cache). */
export const ASSESSMENT_NOISE_OPTIONS: DatasetOptions = { values: [...DEFAULT_SYNC_CHOICES.noise.values] };
export const ASSESSMENT_TIME_HISTORY_OPTIONS: DatasetOptions = {
  ...SYNC_TIME_HISTORY_OPTIONS,
  values: [...(SYNC_TIME_HISTORY_OPTIONS.values ?? ['LAeq'])],
};

/** How an instrument is assessed: by its type as site sync names them, or not at all. */
export type InstrumentKindName = SyncType | 'other';

export interface InstrumentInputs {
  instrument: AssessedInstrument;
  kind: InstrumentKindName;
  /** Each dataset read, or null when the instrument does not have it or it could not be read. */
  reads: Partial<Record<Dataset, DataReadResult | null>>;
}

export interface AssessmentInputs {
  range: TimeInterval;
  instruments: InstrumentInputs[];
  notes: string[];
  fromCache: boolean;
  /** When the oldest data read was fetched (null when nothing was read). */
  dataFetchedAt: number | null;
  /** What was read for this assessment and what came from the local copy. */
  dataOrigin?: DataOrigin;
}

/** Where a read's readings came from: the service now, or the copy over the intervals it answered. */
function noteOrigin(origin: DataOrigin, result: DataReadResult, range: TimeInterval): void {
  const later = (a: number | null, b: number) => (a === null ? b : Math.max(a, b));
  const earlier = (a: number | null, b: number) => (a === null ? b : Math.min(a, b));
  const provenance = result.provenance;
  let fromCopy: TimeInterval[] = [];
  if (provenance.source === 'fresh') origin.readAt = later(origin.readAt, provenance.fetchedAt);
  else if (provenance.source === 'cached') {
    const refreshed = provenance.refreshed;
    if (refreshed) origin.readAt = later(origin.readAt, refreshed.fetchedAt);
    // Offline, the copy ends at its last read (`upTo`): after it nothing came from anywhere.
    const copy = { start: range.start, end: Math.min(range.end, provenance.upTo ?? range.end) };
    fromCopy = subtract([copy], refreshed?.intervals ?? []);
    origin.copyReadAt = earlier(origin.copyReadAt, provenance.cachedAt);
  } else if (provenance.cachedAt !== null) {
    // Partial: what could be shown was the copy's; the rest could not be read.
    fromCopy = subtract([range], provenance.missing);
    origin.copyReadAt = earlier(origin.copyReadAt, provenance.cachedAt);
  }
  origin.fromCopy = union(origin.fromCopy, fromCopy);
}

/** Reads one dataset of one instrument; never throws for a dataset that could not be read. */
export type ReadOne = (
  serial: string,
  dataset: Dataset,
  range: TimeInterval,
  options?: DatasetOptions,
) => Promise<DataReadResult>;

const hasFeatureOf = (entry: InstrumentEntry | undefined, feature: string) =>
  entry !== undefined && hasFeature(entry.instrument, feature);

/** The datasets (with options, over which range) an instrument of `kind` is assessed from. */
function wanted(
  kind: InstrumentKindName,
  entry: InstrumentEntry | undefined,
  site: Site,
  range: TimeInterval,
  now: number,
): Array<{ dataset: Dataset; options?: DatasetOptions; range: TimeInterval }> {
  // Evidence either side of the period, up to now (what a sync kept ends there too).
  const checks: TimeInterval = {
    start: range.start - CHECK_MARGIN_MS,
    end: Math.max(range.end, Math.min(range.end + CHECK_MARGIN_MS, now)),
  };
  // Weather only serves the wind and rain rules: not asked for when neither is on.
  const weatherRules = site.rules.wind || site.rules.precipitation;
  const weather =
    weatherRules && hasFeatureOf(entry, 'Weather') ? [{ dataset: 'weather' as const, range }] : [];
  switch (kind) {
    case 'noise':
      return [
        { dataset: 'noiseMeasurements', options: ASSESSMENT_NOISE_OPTIONS, range },
        ...(site.settings.statistics === 'timeHistory'
          ? [{ dataset: 'noiseTimeHistory' as const, options: ASSESSMENT_TIME_HISTORY_OPTIONS, range }]
          : []),
        { dataset: 'events', range },
        { dataset: 'calibrations', range: checks },
        ...(hasFeatureOf(entry, 'SIC') ? [{ dataset: 'sic' as const, range: checks }] : []),
        ...weather,
      ];
    case 'vibration':
      return [{ dataset: 'vibrationPPV', range }, { dataset: 'vibrationVDV', range }, ...weather];
    case 'airquality':
      return [{ dataset: 'particulates', range }, ...weather];
    default:
      return weather;
  }
}

/**
 * A period longer than this is read in pieces of it, oldest first, so the progress can say how
 * many days are read and a Cancel falls between pieces. The service's own longest request for
 * interval values (31 days), so reading in pieces asks it no more often than one read would.
 */
export const READ_PIECE_MS = 31 * 86_400_000;

/** How far the reading is: each instrument in turn, the days of the period read so far. */
export interface ReadProgress {
  serial: string;
  /** 0-based place of the instrument being read, of `instruments`. */
  instrument: number;
  instruments: number;
  /** Whole days of the period read for this instrument (every dataset it needs). */
  daysRead: number;
  days: number;
  /** Reads done of all reads planned (pieces included), for the fraction. */
  done: number;
  total: number;
}

const DAY_MS = 86_400_000;

/** The pieces a dataset over the period is read in; one piece for the evidence's wider range. */
function piecesOf(range: TimeInterval, period: TimeInterval): TimeInterval[] {
  if (range.start !== period.start || range.end !== period.end || range.end - range.start <= READ_PIECE_MS)
    return [range];
  const pieces: TimeInterval[] = [];
  for (let from = range.start; from < range.end; from += READ_PIECE_MS)
    pieces.push({ start: from, end: Math.min(from + READ_PIECE_MS, range.end) });
  return pieces;
}

const missingText = (result: DataReadResult): string | null => {
  if (result.provenance.source !== 'partial') return null;
  return result.provenance.reason.message;
};

/**
 * Reads what every instrument of the site needs over `range`. `fleet` is the account's instrument
 * list (live, or as last known offline); an instrument missing from it is assessed as far as its
 * data allows and said so. A period longer than `READ_PIECE_MS` is first read piece by piece
 * (each piece kept by the cache), then whole from the cache, so progress says the days read.
 * Stops with `cancelled` once `signal` is aborted.
 */
export async function readAssessmentInputs(
  site: Site,
  range: TimeInterval,
  fleet: readonly InstrumentEntry[],
  read: ReadOne,
  now: number,
  onProgress: (progress: ReadProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<AssessmentInputs> {
  const notes: string[] = [];
  let fromCache = false;
  let dataFetchedAt: number | null = null;
  const dataOrigin: DataOrigin = { readAt: null, fromCopy: [], copyReadAt: null };
  const fetchedAt = (result: DataReadResult): number | null =>
    result.provenance.source === 'fresh' ? result.provenance.fetchedAt : result.provenance.cachedAt;
  const plans = site.serials.map((serial) => {
    const entry = fleet.find((e) => e.instrument.serialNumber === serial);
    if (entry === undefined)
      notes.push(`${serial} is not in the account's instrument list, so only its data is assessed.`);
    const kind: InstrumentKindName =
      entry === undefined ? 'noise' : (syncTypeOf(entry.instrument) ?? 'other');
    const instrument: AssessedInstrument = {
      serial,
      name: entry?.instrument.name ?? serial,
      type: entry?.instrument.type ?? 'unknown',
      model: entry?.instrument.model ?? '',
      position: entry?.instrument.position ?? null,
    };
    const items = wanted(kind, entry, site, range, now).map((item) => {
      const pieces = piecesOf(item.range, range);
      // The whole read after the pieces answers from the cache.
      return { ...item, pieces: pieces.length > 1 ? pieces : [] };
    });
    return { instrument, kind, items };
  });
  const total = plans.reduce(
    (sum, plan) => sum + plan.items.reduce((n, item) => n + item.pieces.length + 1, 0),
    0,
  );
  const days = Math.max(1, Math.round((range.end - range.start) / DAY_MS));
  let done = 0;
  const throwIfCancelled = () => {
    if (signal?.aborted === true) throw new FieldDeskError('cancelled', 'The assessment was cancelled.');
  };
  const instruments: InstrumentInputs[] = [];
  for (const [index, plan] of plans.entries()) {
    throwIfCancelled();
    const reads: InstrumentInputs['reads'] = {};
    // How far each dataset of the period is read, for the days this instrument has read.
    const readTo = plan.items.map(() => range.start);
    const say = () =>
      onProgress({
        serial: plan.instrument.serial,
        instrument: index,
        instruments: plans.length,
        daysRead: Math.min(days, Math.floor((Math.min(...readTo, range.end) - range.start) / DAY_MS)),
        days,
        done,
        total,
      });
    say();
    // One instrument's datasets at once; instruments one after another, so a large site does not
    // flood the service (the client's own limiter keeps within its rate too).
    await Promise.all(
      plan.items.map(async (item, itemIndex) => {
        let piecesRead = 0;
        try {
          for (const piece of item.pieces) {
            throwIfCancelled();
            // A piece says where its readings came from; the whole read after them answers from
            // the copy the pieces just made, so it does not.
            noteOrigin(
              dataOrigin,
              await read(plan.instrument.serial, item.dataset, piece, item.options),
              piece,
            );
            readTo[itemIndex] = piece.end;
            piecesRead += 1;
            done += 1;
            say();
          }
          throwIfCancelled();
          const result = await read(plan.instrument.serial, item.dataset, item.range, item.options);
          reads[item.dataset] = result;
          if (item.pieces.length === 0) noteOrigin(dataOrigin, result, item.range);
          if (result.provenance.source !== 'fresh') fromCache = true;
          const at = fetchedAt(result);
          if (at !== null) dataFetchedAt = dataFetchedAt === null ? at : Math.min(dataFetchedAt, at);
          const missing = missingText(result);
          if (missing !== null)
            notes.push(
              `${DATASET_LABELS[item.dataset]} of ${plan.instrument.serial} is incomplete: ${missing}`,
            );
        } catch (error) {
          // Cancelled: the assessment ends, it is not a dataset that could not be read.
          if (signal?.aborted === true || (error instanceof FieldDeskError && error.code === 'cancelled'))
            throw error;
          reads[item.dataset] = null;
          const reason = error instanceof FieldDeskError ? error.message : 'it could not be read';
          notes.push(
            `${DATASET_LABELS[item.dataset]} of ${plan.instrument.serial} could not be read: ${reason}`,
          );
        }
        // Done with this dataset, its pieces not read after a failure included.
        readTo[itemIndex] = range.end;
        done += 1 + item.pieces.length - piecesRead;
        say();
      }),
    );
    throwIfCancelled();
    const earlier = await earlierCalibrations(plan.instrument.serial, reads.calibrations, range, read);
    if (earlier.note !== null) notes.push(earlier.note);
    if (earlier.read !== undefined) reads.calibrations = earlier.read;
    instruments.push({ instrument: plan.instrument, kind: plan.kind, reads });
  }
  return { range, instruments, notes, fromCache, dataFetchedAt, dataOrigin };
}

/**
 * How far back the last passing calibration before a period is looked for, when none is within
 * `CHECK_MARGIN_MS`: two years, longer than any calibration interval a survey would accept.
 */
export const EVIDENCE_LOOK_BACK_MS = 730 * DAY_MS;

/**
 * The calibrations read, with the earlier ones when no passing calibration lies within the
 * margin before the period (one more read, further back), so evidence 70 days old is found rather
 * than reported as "no calibration before". A read that fails is said in a note, and the margin's
 * calibrations stand.
 */
async function earlierCalibrations(
  serial: string,
  current: DataReadResult | null | undefined,
  range: TimeInterval,
  read: ReadOne,
): Promise<{ read?: DataReadResult; note: string | null }> {
  const records = current?.records;
  if (current === null || current === undefined || records === null || records === undefined)
    return { note: null };
  const passedBefore = records.rows.some(
    (row) =>
      typeof row.time === 'number' &&
      row.time < range.start &&
      typeof row.status === 'string' &&
      instrumentPassed(row.status) === true,
  );
  if (passedBefore) return { note: null };
  const from = range.start - EVIDENCE_LOOK_BACK_MS;
  const to = current.query.start;
  if (to <= from) return { note: null };
  try {
    const older = await read(serial, 'calibrations', { start: from, end: to });
    const rows = older.records?.rows ?? [];
    if (rows.length === 0) return { note: null };
    return {
      read: {
        ...current,
        query: { ...current.query, start: from },
        records: { ...records, rows: [...rows, ...records.rows] },
      },
      note: null,
    };
  } catch (error) {
    const reason = error instanceof FieldDeskError ? error.message : 'they could not be read';
    return {
      note: `Calibrations of ${serial} more than ${Math.round(CHECK_MARGIN_MS / DAY_MS)} days before the period could not be read, so an older calibration may be missing from the evidence: ${reason}`,
    };
  }
}

/** The length of a noise monitor's interval values (its LAeq's usual step); null without them. */
export function intervalMsOf(inputs: AssessmentInputs, serial: string): number | null {
  const instrument = inputs.instruments.find((i) => i.instrument.serial === serial);
  const laeq = instrument?.reads.noiseMeasurements?.series.find((channel) => channel.name === 'LAeq');
  return laeq === undefined || laeq.times.length === 0 ? null : nominalStepMs(laeq.times);
}
