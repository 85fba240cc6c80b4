/**
 * Calibration and SIC history: GET /data/calibrations, /data/calibrations/log and /data/sic.
 * Generated history (before the fleet's creation) plus the results of actions run in this
 * process, for the requested instruments and `start <= time <= end`, in time order.
 */
import type { Context } from 'hono';
import { DATA_ENDPOINT_LIMITS, type DataEndpointLimit } from '../shared/service/limits';
import { formatServiceTime } from '../shared/service/time';
import { failureResponse, parseDataQuery, type DataQuery } from './data/params';
import { calibrationHistory, sicHistory, type LogEntry } from './health-history';
import type { HealthProfile } from './health-profiles';
import { settleActions } from './health-state';
import type { RouteTable } from './responses';
import type { DemoState } from './state';

/** A record of `/data/calibrations`. */
export interface WireCalibrationRecord {
  time: string;
  status: string;
  instrument: string;
  level: number;
  offset: number;
}

/** A record of `/data/sic`. */
export interface WireSicRecord {
  time: string;
  instrument: string;
  status: string;
  _500Hz: number;
  _1KHz: number;
  _8KHz: number;
}

/**
 * A record of `/data/calibrations/log`: as documented, without an `instrument` field (a client
 * asking for several instruments cannot tell the lines apart; it should ask per instrument).
 */
export interface WireCalibrationLogRecord {
  time: string;
  user: string;
  message: string;
}

type Timed<T> = { timeMs: number; order: number; record: T };

/** Time order; same time: the order the instruments were requested in. */
const sorted = <T>(items: Timed<T>[]): T[] =>
  items.sort((a, b) => a.timeMs - b.timeMs || a.order - b.order).map((item) => item.record);

/** Parses the common query and settles running actions, then builds the answer per instrument. */
function historyRoute<T>(
  state: DemoState,
  limit: DataEndpointLimit,
  collect: (profile: HealthProfile, query: DataQuery) => Array<{ timeMs: number; record: T }>,
) {
  return (c: Context): Response => {
    const parsed = parseDataQuery(c, state, limit);
    if (!parsed.ok) return failureResponse(c, parsed);
    settleActions(state);
    const query = parsed.value;
    const items: Timed<T>[] = [];
    query.instruments.forEach((instrument, order) => {
      const profile = state.health.profiles.get(instrument.wire.serialNumber);
      if (profile === undefined) return;
      for (const item of collect(profile, query)) items.push({ ...item, order });
    });
    return c.json(sorted(items));
  };
}

const within = (query: DataQuery) => (item: { timeMs: number }) =>
  item.timeMs >= query.startMs && item.timeMs <= query.endMs;

export function healthDataRoutes(state: DemoState): RouteTable {
  const finished = (serial: string) => state.health.finished.filter((f) => f.instrument === serial);

  return {
    'GET /data/calibrations': historyRoute<WireCalibrationRecord>(
      state,
      DATA_ENDPOINT_LIMITS.calibrations,
      (profile, query) => {
        const generated = calibrationHistory(profile, query.startMs, query.endMs).calibrations;
        const fromActions = finished(profile.serial).flatMap((f) => (f.calibration ? [f.calibration] : []));
        return [...generated, ...fromActions.filter(within(query))].map((entry) => ({
          timeMs: entry.timeMs,
          record: {
            time: formatServiceTime(entry.timeMs),
            status: entry.status,
            instrument: entry.instrument,
            level: entry.level,
            offset: entry.offset,
          },
        }));
      },
    ),

    'GET /data/calibrations/log': historyRoute<WireCalibrationLogRecord>(
      state,
      DATA_ENDPOINT_LIMITS.calibrationLog,
      (profile, query) => {
        const lines: LogEntry[] = [
          ...calibrationHistory(profile, query.startMs, query.endMs).log,
          ...sicHistory(profile, query.startMs, query.endMs).log,
          ...state.health.log.filter((line) => line.instrument === profile.serial).filter(within(query)),
        ];
        return lines.map((line) => ({
          timeMs: line.timeMs,
          record: { time: formatServiceTime(line.timeMs), user: line.user, message: line.message },
        }));
      },
    ),

    'GET /data/sic': historyRoute<WireSicRecord>(state, DATA_ENDPOINT_LIMITS.sic, (profile, query) => {
      const generated = sicHistory(profile, query.startMs, query.endMs).sics;
      const fromActions = finished(profile.serial).flatMap((f) => (f.sic ? [f.sic] : []));
      return [...generated, ...fromActions.filter(within(query))].map((entry) => ({
        timeMs: entry.timeMs,
        record: {
          time: formatServiceTime(entry.timeMs),
          instrument: entry.instrument,
          status: entry.status,
          _500Hz: entry._500Hz,
          _1KHz: entry._1KHz,
          _8KHz: entry._8KHz,
        },
      }));
    }),
  };
}
