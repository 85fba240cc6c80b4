/**
 * System monitor data of the Quantum noise monitors: a stats sample every 10 minutes while the
 * instrument is online, the events those samples imply (restarts after outages, the weekly
 * restart, low supply voltage, nightly storage clean-up), and the current state. One monitor of
 * the fleet has a failing battery (`DataContext.failingBattery`), so fleet attention has one to show.
 */
import type { Context } from 'hono';
import { DATA_ENDPOINT_LIMITS, SERVICE_ERROR_CODES } from '../../shared/service/limits';
import { formatServiceTime } from '../../shared/service/time';
import { isQuantumModel, type DemoInstrument } from '../fleet';
import type { RouteTable } from '../responses';
import { GRID_MS } from './availability';
import type { DataContext } from './context';
import { weather } from './enviro';
import { STREAM, hashString, unit, valueNoise } from './hash';
import { failureResponse, parseDataQuery, parseInstruments, type Failure, type Parsed } from './params';

const SAMPLE_SEC = 600;
const SAMPLE_MS = SAMPLE_SEC * 1000;
const MEMORY_MB = 1024;
const DISK_MB = 16_384;
const SIM_QUOTA_MB = 10_240;
/** Every instrument restarts on Sundays at 03:00 UTC. */
const WEEKLY_RESTART_HOUR = 3;

export interface WireMonitorStats {
  time: string;
  instrument: string;
  samplePeriod: number;
  cpu: number;
  mem: number;
  cache: number;
  temp: number;
  voltage: number;
  disk: number;
  netRx: number;
  netTx: number;
  mTot: number;
  dTot: number;
  lteRsrp: number | null;
  lteRsrq: number | null;
  lteSinr: number | null;
  lteSignal: number | null;
  ping: number;
}

export interface WireMonitorEvent {
  time: string;
  instrument: string;
  type: string;
  message: string;
}

interface Sample {
  stats: WireMonitorStats;
  /** Network rate over the sample (kbit/s). */
  network: number;
  bootMs: number;
}

const r1 = (value: number): number => Math.round(value * 10) / 10;

/** Refuses instruments outside the Quantum family, naming them. */
function onlyQuantum(instruments: DemoInstrument[]): Parsed<DemoInstrument[]> {
  const other = instruments.filter((instrument) => !isQuantumModel(instrument.wire.model));
  if (other.length === 0) return { ok: true, value: instruments };
  const failure: Failure = {
    ok: false,
    status: 400,
    error: SERVICE_ERROR_CODES.invalidParam,
    description: `System monitor data is supported only by Quantum noise monitors; unsupported: ${other
      .map((i) => `${i.wire.serialNumber} (${i.wire.model})`)
      .join(', ')}.`,
  };
  return failure;
}

/**
 * Walks the samples from far enough back (a weekly restart and the month start lie behind the
 * range start) so that running totals are right, calling back for those in [fromMs, toMs).
 */
function walk(
  context: DataContext,
  instrument: DemoInstrument,
  fromMs: number,
  toMs: number,
  onSample: (sample: Sample) => void,
  onEvent: (event: WireMonitorEvent) => void,
): void {
  const serial = instrument.wire.serialNumber;
  const key = context.key(serial);
  const frontKey = hashString('weather fronts', context.seed);
  const enviro = { key, frontKey, long: instrument.wire.position.long };
  const from = new Date(fromMs);
  const monthStart = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1);
  const startMs = Math.floor(Math.min(monthStart, fromMs - 8 * 86_400_000) / SAMPLE_MS) * SAMPLE_MS;
  let bootMs = startMs;
  let offlineSinceMs: number | null = null;
  let netRx = 0;
  let netTx = 0;
  let dayMb = 0;
  let monthMb = 0;
  let lowVoltage = false;
  const failingBattery = context.failingBattery(serial);
  const emit = (timeMs: number, type: string, message: string) => {
    if (timeMs >= fromMs && timeMs < toMs)
      onEvent({ time: formatServiceTime(timeMs), instrument: serial, type, message });
  };
  for (let t = startMs; t < toMs; t += SAMPLE_MS) {
    const k = t / SAMPLE_MS;
    const date = new Date(t);
    if (date.getUTCHours() === 0 && date.getUTCMinutes() === 0) dayMb = 0;
    if (date.getUTCDate() === 1 && date.getUTCHours() === 0 && date.getUTCMinutes() === 0) monthMb = 0;
    if (!context.online(instrument, Math.floor(t / GRID_MS))) {
      offlineSinceMs ??= t;
      continue;
    }
    if (offlineSinceMs !== null) {
      const minutes = Math.round((t - offlineSinceMs) / 60_000);
      bootMs = t;
      netRx = 0;
      netTx = 0;
      emit(
        t,
        'Reboot',
        `Restarted after being offline for ${Math.floor(minutes / 60)} h ${minutes % 60} min.`,
      );
      offlineSinceMs = null;
    }
    if (date.getUTCDay() === 0 && date.getUTCHours() === WEEKLY_RESTART_HOUR && date.getUTCMinutes() === 0) {
      bootMs = t;
      netRx = 0;
      netTx = 0;
      emit(t, 'Reboot', 'Scheduled weekly restart.');
    }
    const hour = date.getUTCHours() + date.getUTCMinutes() / 60;
    const u = (stream: number) => unit(key, STREAM.monitor + stream, k);
    const upload = date.getUTCMinutes() === 0;
    const rxKbit = (2 + 3 * u(1)) * SAMPLE_SEC;
    const txKbit = (upload ? 40 + 30 * u(2) : 6 + 6 * u(2)) * SAMPLE_SEC;
    netRx += rxKbit;
    netTx += txKbit;
    const mb = (rxKbit + txKbit) / 8 / 1000;
    dayMb += mb;
    monthMb += mb;
    const cpu = 9 + 6 * u(3) + (upload ? 25 : 0);
    const uptimeHours = (t - bootMs) / 3_600_000;
    const daylight = Math.max(0, Math.cos((2 * Math.PI * (hour - 13)) / 24));
    const voltage = failingBattery
      ? // It no longer holds a charge: a little lift in the sun, never back to a healthy 12 V.
        11.3 + 0.25 * daylight + 0.1 * u(4)
      : daylight > 0.3
        ? 13.4 + 0.7 * daylight
        : 12.9 - (0.5 * ((hour + 6) % 24)) / 12 + 0.1 * u(4);
    // Hysteresis: one event per dip, not one per sample hovering around the threshold.
    if (voltage < 12.5 && !lowVoltage) {
      emit(t, 'LowVoltage', `Supply voltage low: ${r1(voltage)} V.`);
      lowVoltage = true;
    } else if (voltage > 12.9) {
      lowVoltage = false;
    }
    const sinceCleanup = ((((hour - 2) % 24) + 24) % 24) * 6;
    if (sinceCleanup === 0) emit(t, 'StorageCleanup', 'Uploaded data removed from local storage.');
    const noLte = unit(key, STREAM.monitor + 9, Math.floor(k / 6)) < 0.03;
    const signal = valueNoise(key, STREAM.monitor + 10, k / 12);
    const stats: WireMonitorStats = {
      time: formatServiceTime(t),
      instrument: serial,
      samplePeriod: SAMPLE_SEC,
      cpu: r1(cpu),
      mem: Math.round(360 + 40 * u(5) + Math.min(150, uptimeHours * 0.8)),
      cache: Math.round(110 + 50 * u(6)),
      temp: r1(weather(enviro, Math.floor(t / 60_000)).temperature + 24 + cpu * 0.15),
      voltage: Math.round(voltage * 100) / 100,
      disk: Math.round(1800 + 3 * sinceCleanup + 20 * u(7)),
      netRx: Math.round(netRx),
      netTx: Math.round(netTx),
      mTot: r1(monthMb),
      dTot: r1(dayMb),
      lteRsrp: noLte ? null : Math.round(-92 + 12 * signal),
      lteRsrq: noLte ? null : Math.round(-10 + 4 * signal),
      lteSinr: noLte ? null : Math.round(12 + 10 * signal),
      lteSignal: noLte ? null : Math.round(60 + 35 * signal),
      ping: Math.round(45 + 80 * u(8) + (noLte ? 150 : 0)),
    };
    if (t >= fromMs) onSample({ stats, network: r1((rxKbit + txKbit) / SAMPLE_SEC), bootMs });
  }
}

function monitorQuery(context: DataContext, c: Context, limit = DATA_ENDPOINT_LIMITS.monitorStats) {
  const query = parseDataQuery(c, context.state, limit);
  if (!query.ok) return query;
  const quantum = onlyQuantum(query.value.instruments);
  if (!quantum.ok) return quantum;
  return query;
}

export function monitorRoutes(context: DataContext): RouteTable {
  return {
    'GET /data/monitor/stats': (c) => {
      const query = monitorQuery(context, c);
      if (!query.ok) return failureResponse(c, query);
      const { startMs, endMs } = query.value;
      const out: WireMonitorStats[] = [];
      for (const instrument of query.value.instruments) {
        walk(
          context,
          instrument,
          startMs,
          endMs,
          (sample) => out.push(sample.stats),
          () => undefined,
        );
      }
      return c.json(out);
    },

    'GET /data/monitor/events': (c) => {
      const query = monitorQuery(context, c, DATA_ENDPOINT_LIMITS.monitorEvents);
      if (!query.ok) return failureResponse(c, query);
      const { startMs, endMs } = query.value;
      const out: WireMonitorEvent[] = [];
      for (const instrument of query.value.instruments) {
        walk(
          context,
          instrument,
          startMs,
          endMs,
          () => undefined,
          (event) => out.push(event),
        );
      }
      return c.json(out);
    },

    // Current state: only `instruments`; an offline instrument has no current state and is left out.
    'GET /data/monitor/current': (c) => {
      const instruments = parseInstruments(c, context.state);
      if (!instruments.ok) return failureResponse(c, instruments);
      const quantum = onlyQuantum(instruments.value);
      if (!quantum.ok) return failureResponse(c, quantum);
      const nowMs = context.now();
      const out = quantum.value.flatMap((instrument) => {
        let latest: Sample | null = null;
        // The last recorded sample: the grid interval under way is not recorded yet, so look back
        // over two whole intervals (one always holds a sample).
        walk(
          context,
          instrument,
          nowMs - 2 * GRID_MS,
          nowMs,
          (sample) => (latest = sample),
          () => undefined,
        );
        const sample = latest as Sample | null;
        if (sample === null || !instrument.condition.online) return [];
        const { stats } = sample;
        return [
          {
            instrument: stats.instrument,
            cpu: stats.cpu,
            mem: r1((stats.mem / MEMORY_MB) * 100),
            temp: stats.temp,
            voltage: stats.voltage,
            disk: r1((stats.disk / DISK_MB) * 100),
            network: sample.network,
            simQuota: SIM_QUOTA_MB,
            simUsage: stats.mTot,
            uptime: Math.round((nowMs - sample.bootMs) / 1000),
          },
        ];
      });
      return c.json(out);
    },
  };
}
