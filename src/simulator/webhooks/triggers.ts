/**
 * When the demo has something to tell a webhook, and the message it sends (service-facts.md,
 * "Webhooks"). CalibrationFinished and SicFinished come from finished actions (health-state.ts);
 * the other kinds are found by comparing the instrument now with what the webhook last saw.
 */
import { formatServiceTime } from '../../shared/service/time';
import type { WireWebhook, WireWebhookMessage } from '../../shared/service/webhooks';
import type { WireCalibrationStatus, WireSicStatus } from '../../shared/service/wire';
import { GRID_MS } from '../data/availability';
import { DEMO_PERIODS, type DataContext } from '../data/context';
import { eventsInRange } from '../data/events';
import type { DemoInstrument } from '../fleet';
import type { FinishedAction } from '../health-state';
import { calibrationStatusOf, sicStatusOf } from '../health-measurements';

const DAY_MS = 86_400_000;
/** How far back the newest measurement or event is looked for (an instrument away for longer has none). */
const LOOKBACK_MS = 7 * DAY_MS;

/** What a webhook has last seen of its instrument; only the part its kind needs is used. */
export interface Watch {
  online: boolean;
  /** End of the newest stored measurement (epoch ms), or null when there is none. */
  measurementEndMs: number | null;
  /** Start of the newest stored event (epoch ms); events starting after it are new. */
  eventStartMs: number;
  /**
   * The 15-minute interval of the last look at measurements and events, or null to look again:
   * what is stored changes only when an interval closes, or when recording stops or resumes.
   */
  checkedGrid: number | null;
}

/** End of the newest measurement the instrument has stored (epoch ms), or null. Noise instruments only. */
export function newestMeasurementEndMs(context: DataContext, instrument: DemoInstrument): number | null {
  if (instrument.wire.type !== 'Noise') return null;
  const periodMs = DEMO_PERIODS.measurementPeriodMs;
  const availability = context.availability(instrument.wire.serialNumber);
  const nowMs = context.now();
  // A measurement is stored once its period has closed, when any part of it was recorded (data/noise.ts).
  for (let endMs = Math.floor(nowMs / periodMs) * periodMs; endMs > nowMs - LOOKBACK_MS; endMs -= periodMs) {
    for (let g = (endMs - periodMs) / GRID_MS; g < endMs / GRID_MS; g++) {
      if (availability.recorded(g)) return endMs;
    }
  }
  return null;
}

/** Start of the newest stored event starting after `afterMs` (epoch ms), or null. */
export function newestEventStartMs(
  context: DataContext,
  instrument: DemoInstrument,
  afterMs: number,
): number | null {
  const nowMs = context.now();
  const events = eventsInRange(context, instrument, Math.max(afterMs + 1, nowMs - LOOKBACK_MS), nowMs + 1);
  const newest = events.at(-1);
  return newest === undefined ? null : newest.startSec * 1000;
}

/** What the webhook sees at its creation: only what happens after it counts. */
export function watchFrom(context: DataContext, instrument: DemoInstrument): Watch {
  const dayAgoMs = context.now() - DAY_MS;
  return {
    online: instrument.condition.online,
    measurementEndMs: newestMeasurementEndMs(context, instrument),
    eventStartMs: newestEventStartMs(context, instrument, dayAgoMs) ?? dayAgoMs,
    checkedGrid: Math.floor(context.now() / GRID_MS),
  };
}

/**
 * The message the webhook is due now (NewMeasurement, NewEvent, InstrumentStatus), updating
 * what it has seen; null when nothing changed or its kind is sent elsewhere.
 */
export function dueMessage(
  context: DataContext,
  webhook: WireWebhook,
  instrument: DemoInstrument,
  watch: Watch,
): WireWebhookMessage | null {
  const base = { instrument: webhook.instrument, time: formatServiceTime(context.now()) };
  if (webhook.type === 'NewMeasurement' || webhook.type === 'NewEvent') {
    const grid = Math.floor(context.now() / GRID_MS);
    if (grid === watch.checkedGrid) return null;
    watch.checkedGrid = grid;
  }
  switch (webhook.type) {
    case 'InstrumentStatus': {
      const { online } = instrument.condition;
      if (online === watch.online) return null;
      watch.online = online;
      return { type: 'InstrumentStatus', ...base, online };
    }
    case 'NewMeasurement': {
      const endMs = newestMeasurementEndMs(context, instrument);
      if (endMs === null || (watch.measurementEndMs !== null && endMs <= watch.measurementEndMs)) return null;
      watch.measurementEndMs = endMs;
      return { type: 'NewMeasurement', ...base, endTime: formatServiceTime(endMs) };
    }
    case 'NewEvent': {
      const startMs = newestEventStartMs(context, instrument, watch.eventStartMs);
      if (startMs === null) return null;
      watch.eventStartMs = startMs;
      return { type: 'NewEvent', ...base, eventTime: formatServiceTime(startMs) };
    }
    default:
      return null;
  }
}

/** CalibrationFinished or SicFinished for a finished action; `data` as the status endpoint gives it. */
export function finishedMessage(finished: FinishedAction, nowMs: number): WireWebhookMessage | null {
  const base = {
    instrument: finished.instrument,
    time: formatServiceTime(nowMs),
    status: finished.status === 'Success' ? ('Success' as const) : ('Failed' as const),
    ...(finished.status === 'Success' ? {} : { error: finished.error ?? `The ${finished.action} failed.` }),
  };
  if (finished.calibration !== null) {
    return { type: 'CalibrationFinished', ...base, data: calibrationStatusOf(finished.calibration) };
  }
  if (finished.sic !== null) return { type: 'SicFinished', ...base, data: sicStatusOf(finished.sic) };
  return null;
}

/** Stand-ins for an instrument that has never calibrated or run a SIC. */
const SAMPLE_CALIBRATION = { status: 'Success', level: 94.02, offset: 0.02 } as const;
const SAMPLE_SIC = { status: 'Success', _500Hz: 82.1, _1KHz: 84.3, _8KHz: 77.6 } as const;

/**
 * A realistic message of the webhook's kind for "Send a test": the instrument's latest result,
 * newest measurement or event, or current online state.
 */
export function sampleMessage(
  context: DataContext,
  webhook: WireWebhook,
  instrument: DemoInstrument,
  finished: readonly FinishedAction[],
): WireWebhookMessage {
  const nowMs = context.now();
  const base = { instrument: webhook.instrument, time: formatServiceTime(nowMs) };
  const lastTime = formatServiceTime(Math.floor((nowMs - 3_600_000) / 1000) * 1000);
  const outcome = (status: string, action: FinishedAction['action']) => {
    if (status === 'Success') return { status: 'Success' as const };
    const last = finished.findLast((f) => f.instrument === webhook.instrument && f.action === action);
    return { status: 'Failed' as const, error: last?.error ?? `The ${action} did not succeed.` };
  };
  switch (webhook.type) {
    case 'InstrumentStatus':
      return { type: 'InstrumentStatus', ...base, online: instrument.condition.online };
    case 'NewMeasurement': {
      const endMs = newestMeasurementEndMs(context, instrument) ?? Math.floor(nowMs / GRID_MS) * GRID_MS;
      return { type: 'NewMeasurement', ...base, endTime: formatServiceTime(endMs) };
    }
    case 'NewEvent': {
      const startMs = newestEventStartMs(context, instrument, nowMs - DAY_MS) ?? nowMs - 600_000;
      return { type: 'NewEvent', ...base, eventTime: formatServiceTime(startMs) };
    }
    case 'CalibrationFinished': {
      const data: WireCalibrationStatus = instrument.condition.lastCalibration ?? {
        time: lastTime,
        ...SAMPLE_CALIBRATION,
      };
      return {
        type: 'CalibrationFinished',
        ...base,
        ...outcome(data.status, 'Calibration'),
        data: { ...data },
      };
    }
    case 'SicFinished': {
      const data: WireSicStatus = instrument.condition.lastSic ?? { time: lastTime, ...SAMPLE_SIC };
      return { type: 'SicFinished', ...base, ...outcome(data.status, 'SIC'), data: { ...data } };
    }
  }
}
