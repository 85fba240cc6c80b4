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
import type { AssessedInstrument, Site } from '../../../shared/assessment';
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

const missingText = (result: DataReadResult): string | null => {
  if (result.provenance.source !== 'partial') return null;
  return result.provenance.reason.message;
};

/**
 * Reads what every instrument of the site needs over `range`. `fleet` is the account's instrument
 * list (live, or as last known offline); an instrument missing from it is assessed as far as its
 * data allows and said so.
 */
export async function readAssessmentInputs(
  site: Site,
  range: TimeInterval,
  fleet: readonly InstrumentEntry[],
  read: ReadOne,
  now: number,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<AssessmentInputs> {
  const notes: string[] = [];
  let fromCache = false;
  let dataFetchedAt: number | null = null;
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
    return { instrument, kind, items: wanted(kind, entry, site, range, now) };
  });
  const total = plans.reduce((sum, plan) => sum + plan.items.length, 0);
  let done = 0;
  const instruments: InstrumentInputs[] = [];
  for (const plan of plans) {
    const reads: InstrumentInputs['reads'] = {};
    // One instrument's datasets at once; instruments one after another, so a large site does not
    // flood the service (the client's own limiter keeps within its rate too).
    await Promise.all(
      plan.items.map(async (item) => {
        try {
          const result = await read(plan.instrument.serial, item.dataset, item.range, item.options);
          reads[item.dataset] = result;
          if (result.provenance.source !== 'fresh') fromCache = true;
          const at = fetchedAt(result);
          if (at !== null) dataFetchedAt = dataFetchedAt === null ? at : Math.min(dataFetchedAt, at);
          const missing = missingText(result);
          if (missing !== null)
            notes.push(
              `${DATASET_LABELS[item.dataset]} of ${plan.instrument.serial} is incomplete: ${missing}`,
            );
        } catch (error) {
          reads[item.dataset] = null;
          const reason = error instanceof FieldDeskError ? error.message : 'it could not be read';
          notes.push(
            `${DATASET_LABELS[item.dataset]} of ${plan.instrument.serial} could not be read: ${reason}`,
          );
        } finally {
          onProgress(++done, total);
        }
      }),
    );
    instruments.push({ instrument: plan.instrument, kind: plan.kind, reads });
  }
  return { range, instruments, notes, fromCache, dataFetchedAt };
}

/** The length of a noise monitor's interval values (its LAeq's usual step); null without them. */
export function intervalMsOf(inputs: AssessmentInputs, serial: string): number | null {
  const instrument = inputs.instruments.find((i) => i.instrument.serial === serial);
  const laeq = instrument?.reads.noiseMeasurements?.series.find((channel) => channel.name === 'LAeq');
  return laeq === undefined || laeq.times.length === 0 ? null : nominalStepMs(laeq.times);
}
