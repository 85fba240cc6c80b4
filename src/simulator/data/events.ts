/**
 * Noise events and their time history. Events come from the same model as the noise data, so
 * each one shows in the time history at its time; instruments with the Audio add-on record audio
 * around every event (5 s before and after the trigger: the recordings are in ../audio).
 */
import { DATA_ENDPOINT_LIMITS, SERVICE_ERROR_CODES } from '../../shared/service/limits';
import { formatServiceTime } from '../../shared/service/time';
import type { DemoInstrument } from '../fleet';
import { isQuantumModel } from '../fleet';
import { errorResponse, type RouteTable } from '../responses';
import { toEnergy, toLevel } from '../../shared/acoustics';
import { GRID_MS } from './availability';
import type { DataContext } from './context';
import { hash32 } from './hash';
import { SECONDS_PER_GRID, bandEnergies, weightedLevels } from './interval-seconds';
import type { NoiseEvent, NoiseModel } from './noise-model';
import { OFFSET } from './subsecond-patterns';
import { bandGroups, type WireTimeHistory } from './noise';
import { intervalSampleLevels, valueSpec } from './noise-values';
import { failureResponse, parseDataQuery } from './params';
import { blockTimes, sampleBlocks, type Channel } from './timehistory';

/** Audio recorded before the trigger starts and after it ends (s). */
export const AUDIO_PRE_SEC = 5;
export const AUDIO_POST_SEC = 5;
/** Event time history: 100 ms samples from 5 s before to 5 s after the event. */
const EVENT_TH_PERIOD_MS = 100;
const EVENT_TH_MARGIN_SEC = 5;

const round1 = (value: number): number => Math.round(value * 10) / 10;

export const hasAudio = (instrument: DemoInstrument): boolean =>
  instrument.wire.type === 'Noise' && (instrument.wire.subscription.addons ?? []).includes('Audio');

/** The readable part of an event id: base64url of `serial:startSec`. */
export const encodeIdPart = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const encode = encodeIdPart;
const decode = (id: string): string => Buffer.from(id, 'base64url').toString('utf8');

export const timeHistoryId = (event: NoiseEvent): string =>
  `th_${encode(`${event.serial}:${event.startSec}`)}`;

/** A long opaque id, as the real service's; it still decodes to the instrument and time. */
export function audioId(event: NoiseEvent, key: number): string {
  const tag = [1, 2, 3, 4]
    .map((n) =>
      hash32(key, 90 + n, event.startSec)
        .toString(16)
        .padStart(8, '0'),
    )
    .join('');
  return `au_${encode(`${event.serial}:${event.startSec}`)}_${tag}`;
}

/** Parses an event id back into its instrument and start time, or null. */
export function parseEventId(id: string, prefix: 'th' | 'au'): { serial: string; startSec: number } | null {
  const match = new RegExp(`^${prefix}_([A-Za-z0-9_-]+?)(?:_[0-9a-f]{32})?$`).exec(id);
  if (!match) return null;
  const [serial, start] = decode(match[1] as string).split(':');
  const startSec = Number(start);
  return serial && Number.isSafeInteger(startSec) ? { serial, startSec } : null;
}

export interface WireEvent {
  type: string;
  name: string;
  level: number;
  startTime: string;
  endTime: string;
  audioTime: string | null;
  instrument: string;
  overall: number[];
  octave: number[] | null;
  thirdOctave: number[] | null;
  timeHistoryId: string;
  audioId: string | null;
}

/** The event's LAeq, LAFMax and LCPeak and its band levels (Z), from the seconds it covers. */
function eventLevels(model: NoiseModel, event: NoiseEvent) {
  let energyA = 0;
  let maxF = -Infinity;
  let maxPeak = -Infinity;
  const octave = new Float64Array(10);
  const third = new Float64Array(36);
  const octaveGroups = bandGroups('Octave');
  const thirdGroups = bandGroups('Third');
  const firstGrid = Math.floor((event.startSec * 1000) / GRID_MS);
  const lastGrid = Math.floor(((event.endSec - 1) * 1000) / GRID_MS);
  for (let g = firstGrid; g <= lastGrid; g++) {
    const iv = model.interval(g);
    if (iv === null) continue;
    const from = Math.max(event.startSec, iv.startSec) - iv.startSec;
    const to = Math.min(event.endSec, iv.startSec + SECONDS_PER_GRID) - iv.startSec;
    const c = weightedLevels(iv, 1, new Float64Array(SECONDS_PER_GRID));
    const fast = model.patterns.maxima[OFFSET.fast] as Float64Array;
    const peak = model.patterns.maxima[OFFSET.peakCZ] as Float64Array;
    const octaves = bandEnergies(iv, 2, octaveGroups);
    const thirds = bandEnergies(iv, 2, thirdGroups);
    for (let i = from; i < to; i++) {
      const p = iv.pattern[i] as number;
      energyA += toEnergy(iv.la[i] as number);
      maxF = Math.max(maxF, (iv.la[i] as number) + (fast[p] as number));
      maxPeak = Math.max(maxPeak, (c[i] as number) + (peak[p] as number));
      octaves.forEach((e, b) => (octave[b] = (octave[b] as number) + (e[i] as number)));
      thirds.forEach((e, b) => (third[b] = (third[b] as number) + (e[i] as number)));
    }
  }
  const n = event.endSec - event.startSec;
  return {
    overall: [round1(toLevel(energyA / n)), round1(maxF), round1(maxPeak)],
    octave: Array.from(octave, (e) => round1(toLevel(e / n))),
    thirdOctave: Array.from(third, (e) => round1(toLevel(e / n))),
  };
}

function wireEvent(context: DataContext, instrument: DemoInstrument, event: NoiseEvent): WireEvent {
  const model = context.noiseModel(instrument);
  const levels = eventLevels(model, event);
  const audio = hasAudio(instrument);
  return {
    type: 'Noise',
    name: event.trigger.name,
    // A manual trigger has no level of its own: the service gives what the instrument measured.
    level: event.trigger.manual ? (levels.overall[0] as number) : event.trigger.level,
    startTime: formatServiceTime(event.startSec * 1000),
    endTime: formatServiceTime(event.endSec * 1000),
    audioTime: audio ? formatServiceTime((event.startSec - AUDIO_PRE_SEC) * 1000) : null,
    instrument: instrument.wire.serialNumber,
    overall: levels.overall,
    octave: levels.octave,
    // Only the Quantum family stores third-octave spectra with its events.
    thirdOctave: isQuantumModel(instrument.wire.model) ? levels.thirdOctave : null,
    timeHistoryId: timeHistoryId(event),
    audioId: audio ? audioId(event, model.key) : null,
  };
}

/** Recorded events of a noise instrument that start within [startMs, endMs). */
export function eventsInRange(
  context: DataContext,
  instrument: DemoInstrument,
  startMs: number,
  endMs: number,
): NoiseEvent[] {
  if (instrument.wire.type !== 'Noise') return [];
  const model = context.noiseModel(instrument);
  return model
    .eventsBetween(Math.floor(startMs / 1000), Math.ceil(endMs / 1000))
    .filter((event) => event.startSec * 1000 >= startMs && event.startSec * 1000 < endMs);
}

export function eventRoutes(context: DataContext): RouteTable {
  const state = context.state;
  return {
    'GET /data/events': (c) => {
      const query = parseDataQuery(c, state, DATA_ENDPOINT_LIMITS.events);
      if (!query.ok) return failureResponse(c, query);
      const { startMs, endMs } = query.value;
      return c.json(
        query.value.instruments.flatMap((instrument) =>
          eventsInRange(context, instrument, startMs, endMs).map((event) =>
            wireEvent(context, instrument, event),
          ),
        ),
      );
    },

    'GET /data/events/timehistory/:id': (c) => {
      const id = c.req.param('id') ?? '';
      const parsed = parseEventId(id, 'th');
      const instrument = parsed ? state.instruments.get(parsed.serial) : undefined;
      const event =
        parsed && instrument
          ? eventsInRange(context, instrument, parsed.startSec * 1000, parsed.startSec * 1000 + 1)[0]
          : undefined;
      if (!instrument || !event) {
        return errorResponse(c, 404, SERVICE_ERROR_CODES.notFound, `No event time history with id ${id}.`);
      }
      const model = context.noiseModel(instrument);
      const specs = ['LAeq', 'LAFMax'] as const;
      const channels: Channel[] = specs.map((name) => {
        const spec = valueSpec(name);
        return {
          levels: (iv, subsecond) => intervalSampleLevels(iv, spec, model.patterns, subsecond),
          combine: spec.kind === 'max' ? 'max' : 'energy',
          add: 0,
        };
      });
      const blocks = sampleBlocks(
        model,
        (event.startSec - EVENT_TH_MARGIN_SEC) * 1000,
        (event.endSec + EVENT_TH_MARGIN_SEC) * 1000,
        EVENT_TH_PERIOD_MS,
        channels,
      );
      const records: WireTimeHistory[] = specs.map((name, i) => ({
        instrument: instrument.wire.serialNumber,
        type: name,
        blocks: blocks.map((block) => ({
          ...blockTimes(block, EVENT_TH_PERIOD_MS),
          values: block.values[i] as number[],
        })),
      }));
      return c.json(records);
    },
  };
}
