/**
 * Environmental data: weather, particulates, gases and vibration, one sample per minute from a
 * seeded model, recalculated to longer periods (means; maxima for PPV; fourth-power sums for
 * VDV). Weather fronts cross the country west to east and are shared by nearby instruments:
 * wind, rain and pressure change together, rain washes dust out of the air.
 */
import type { Context } from 'hono';
import { DATA_ENDPOINT_LIMITS, VIBRATION_TYPES, type DataEndpointLimit } from '../../shared/service/limits';
import { formatServiceTime } from '../../shared/service/time';
import type { DemoInstrument } from '../fleet';
import type { RouteTable } from '../responses';
import { GRID_MS } from './availability';
import { DEMO_PERIODS, type DataContext } from './context';
import { STREAM, hashString, unit, valueNoise } from './hash';
import { failureResponse, invalid, parseDataQuery, parsePeriod } from './params';

const MINUTE_MS = 60_000;
/** Chance that one reading of one field is missing ("no reading"). */
const NULL_CHANCE = 0.004;

type Combine = 'mean' | 'max' | 'direction' | 'fourthPower';

interface Field {
  name: string;
  combine: Combine;
  decimals: number;
  /** For 'max' fields whose partner (e.g. dominant frequency) comes from the same minute. */
  partnerOf?: string;
}

interface Dataset {
  limit: DataEndpointLimit;
  /** Weather records carry `time`; the others `startTime` and `duration`. */
  timeField: 'time' | 'startTime';
  fields: readonly Field[];
  applies(instrument: DemoInstrument): boolean;
  /** True when a missing reading blanks the whole record (one sensor), not one field. */
  nullsTogether?: boolean;
  /** Values of one minute (NaN = no reading). */
  sample(model: EnviroModel, minute: number, out: Float64Array): void;
}

/** Per-instrument parameters of the environmental model. */
export interface EnviroModel {
  key: number;
  /** Shared by every instrument of the fleet: the weather fronts. */
  frontKey: number;
  long: number;
}

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

function timeParts(minute: number) {
  const sec = minute * 60;
  const day = Math.floor(sec / 86_400);
  const hour = (sec - day * 86_400) / 3600;
  const weekday = (((day + 4) % 7) + 7) % 7;
  const dayOfYear =
    day - Math.floor(Date.UTC(new Date(day * 86_400_000).getUTCFullYear(), 0, 1) / 86_400_000);
  return { sec, day, hour, weekday, dayOfYear };
}

/** How deep in a weather front the site is: 0 high pressure, 1 the middle of a front. */
function front(model: EnviroModel, sec: number): number {
  // Fronts arrive from the west: the further east, the later (about 2 h per degree).
  const hours = sec / 3600 - (model.long + 6) * 2;
  const f = 0.5 + 0.5 * valueNoise(model.frontKey, STREAM.weather, hours / 30);
  return f * f * (3 - 2 * f);
}

export function weather(model: EnviroModel, minute: number) {
  const { sec, day, hour, dayOfYear } = timeParts(minute);
  const f = front(model, sec);
  const diurnal = Math.cos((2 * Math.PI * (hour - 15)) / 24);
  const local = (stream: number, scale: number) =>
    valueNoise(model.key, STREAM.weather + stream, sec / scale);
  const rain = f > 0.55 ? Math.max(0, (f - 0.55) * 14 * (0.45 + local(1, 1200))) : 0;
  const seasonal = 10.5 - 6 * Math.cos((2 * Math.PI * (dayOfYear - 20)) / 365);
  return {
    windSpeed: Math.max(0, 1.5 + 9 * f * f + 1.2 * (diurnal + 1) * 0.5 + 1.5 * local(2, 600)),
    windDirection: (((230 + 80 * (f - 0.5) + 30 * local(3, 1800)) % 360) + 360) % 360,
    temperature:
      seasonal +
      (4 - 2.5 * f) * diurnal -
      1.5 * f +
      2 * valueNoise(model.frontKey, STREAM.weather + 4, day / 3),
    pressure: 1.024 - 0.04 * f + 0.002 * local(5, 10_800),
    humidity: clamp(62 + 28 * f - 14 * diurnal * (1 - f) + (rain > 0 ? 8 : 0), 25, 100),
    precipitation: rain,
  };
}

/** Working hours of the construction sites: weekdays 08–18, Saturdays 08–13. */
function working(weekday: number, hour: number): boolean {
  if (weekday >= 1 && weekday <= 5) return hour >= 8 && hour < 18;
  return weekday === 6 && hour >= 8 && hour < 13;
}

/** Morning and evening rush hours, 0–1.8 (weekends lighter). */
function rush(weekday: number, hour: number): number {
  const r = Math.exp(-(((hour - 8) / 1.5) ** 2)) + 0.8 * Math.exp(-(((hour - 17.5) / 1.7) ** 2));
  return weekday === 0 || weekday === 6 ? 0.4 * r : r;
}

const WEATHER_FIELDS: readonly Field[] = [
  { name: 'windSpeed', combine: 'mean', decimals: 1 },
  { name: 'windDirection', combine: 'direction', decimals: 0 },
  { name: 'temperature', combine: 'mean', decimals: 1 },
  { name: 'pressure', combine: 'mean', decimals: 4 },
  { name: 'humidity', combine: 'mean', decimals: 0 },
  { name: 'precipitation', combine: 'mean', decimals: 1 },
];

const DATASETS = {
  weather: {
    limit: DATA_ENDPOINT_LIMITS.weather,
    timeField: 'time',
    fields: WEATHER_FIELDS,
    applies: (instrument) => instrument.wire.feature.includes('Weather'),
    sample(model, minute, out) {
      const w = weather(model, minute);
      out.set([w.windSpeed, w.windDirection, w.temperature, w.pressure, w.humidity, w.precipitation]);
    },
  },
  particulates: {
    limit: DATA_ENDPOINT_LIMITS.particulates,
    timeField: 'startTime',
    fields: ['pM1', 'pM2p5', 'pM4p25', 'pM10'].map((name) => ({ name, combine: 'mean', decimals: 1 })),
    applies: (instrument) => instrument.wire.type === 'AirQuality',
    // One optical counter gives all four sizes: they are missing together, so means stay ordered.
    nullsTogether: true,
    sample(model, minute, out) {
      const { sec, hour, weekday } = timeParts(minute);
      const rain = weather(model, minute).precipitation;
      const washout = 1 - 0.7 * Math.min(1, rain / 2);
      const fine =
        (6 + 3 * valueNoise(model.key, STREAM.particulates, sec / 86_400) + 3 * rush(weekday, hour)) *
        washout;
      const activity = valueNoise(model.key, STREAM.particulates + 1, sec / 1200);
      const dust = working(weekday, hour) && activity > 0 ? 90 * activity * activity * washout : 0;
      const pm1 = fine * 0.6;
      const pm25 = fine + dust * 0.12;
      const pm425 = pm25 + dust * 0.3 + 1;
      out.set([pm1, pm25, pm425, pm425 + dust * 0.58 + 2]);
    },
  },
  gases: {
    limit: DATA_ENDPOINT_LIMITS.gases,
    timeField: 'startTime',
    fields: [
      { name: 'co', combine: 'mean', decimals: 0 },
      { name: 'h2S', combine: 'mean', decimals: 2 },
      { name: 'no', combine: 'mean', decimals: 1 },
      { name: 'nO2', combine: 'mean', decimals: 1 },
      { name: 'o3', combine: 'mean', decimals: 1 },
      { name: 'sO2', combine: 'mean', decimals: 2 },
      { name: 'cO2', combine: 'mean', decimals: 0 },
      { name: 'voc', combine: 'mean', decimals: 0 },
    ],
    applies: (instrument) => instrument.wire.type === 'AirQuality',
    sample(model, minute, out) {
      const { sec, hour, weekday } = timeParts(minute);
      const r = rush(weekday, hour);
      const wind = weather(model, minute).windSpeed;
      const dilution = 1 / (1 + wind / 6);
      const n = (stream: number, scale: number) => valueNoise(model.key, STREAM.gases + stream, sec / scale);
      const no = Math.max(0.5, (3 + 30 * r + 4 * n(1, 1800)) * dilution);
      const no2 = Math.max(2, (12 + 16 * r + 5 * n(2, 3600)) * dilution);
      const sun = Math.max(0, Math.cos((2 * Math.PI * (hour - 14)) / 24));
      const night = Math.max(0, Math.cos((2 * Math.PI * (hour - 4)) / 24));
      out.set([
        Math.max(100, 190 + 160 * r * dilution + 30 * n(3, 3600)),
        Math.max(0, 0.3 + 0.25 * (n(4, 7200) + 1)),
        no,
        no2,
        Math.max(2, 28 + 14 * sun - 0.4 * no + 5 * n(5, 7200)),
        Math.max(0.2, 1.2 + 0.8 * n(6, 7200)),
        415 + 18 * night * (1 - wind / 15) + 8 * r + 3 * n(7, 3600),
        Math.max(10, 90 + 110 * r * dilution + 30 * n(8, 1800)),
      ]);
    },
  },
} satisfies Record<string, Dataset>;

const PPV_FIELDS: readonly Field[] = [
  { name: 'vMaxX', combine: 'max', decimals: 3 },
  { name: 'vMaxY', combine: 'max', decimals: 3 },
  { name: 'vMaxZ', combine: 'max', decimals: 3 },
  { name: 'fDomX', combine: 'max', decimals: 1, partnerOf: 'vMaxX' },
  { name: 'fDomY', combine: 'max', decimals: 1, partnerOf: 'vMaxY' },
  { name: 'fDomZ', combine: 'max', decimals: 1, partnerOf: 'vMaxZ' },
];

/** Peak particle velocity (mm/s) and dominant frequency (Hz) per axis of one minute. */
function vibrationMinute(model: EnviroModel, minute: number) {
  const { sec, hour, weekday } = timeParts(minute);
  const activity = valueNoise(model.key, STREAM.vibration, sec / 1800);
  const works = working(weekday, hour) && activity > -0.2;
  const axes = [0.7, 0.5, 1].map((gain, axis) => {
    const u = unit(model.key, STREAM.vibration + 1 + axis, minute);
    const ppv = works ? gain * (0.15 + 5 * (activity + 0.2) ** 2 * (0.4 + u)) : 0.02 + 0.06 * u;
    const frequency = works ? 8 + 17 * unit(model.key, STREAM.vibration + 4 + axis, minute) : 20 + 60 * u;
    // VDV over a minute of this motion (m/s¹·⁷⁵): grows with amplitude.
    const vdv = gain * 0.002 + 0.018 * ppv * (0.6 + 0.4 * u);
    return { ppv, frequency, vdv };
  });
  return axes;
}

const VIBRATION_DATASETS: Record<string, Dataset> = {
  PPV: {
    limit: DATA_ENDPOINT_LIMITS.vibration,
    timeField: 'startTime',
    fields: PPV_FIELDS,
    applies: (instrument) => instrument.wire.type === 'Vibration',
    sample(model, minute, out) {
      const axes = vibrationMinute(model, minute);
      out.set([...axes.map((a) => a.ppv), ...axes.map((a) => a.frequency)]);
    },
  },
  VDV: {
    limit: DATA_ENDPOINT_LIMITS.vibration,
    timeField: 'startTime',
    fields: ['vdvX', 'vdvY', 'vdvZ'].map((name) => ({ name, combine: 'fourthPower', decimals: 4 })),
    applies: (instrument) => instrument.wire.type === 'Vibration',
    sample(model, minute, out) {
      out.set(vibrationMinute(model, minute).map((a) => a.vdv));
    },
  },
};

const roundTo = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

/** Records of one dataset for one instrument. */
export function enviroRecords(
  context: DataContext,
  dataset: Dataset,
  instrument: DemoInstrument,
  startMs: number,
  endMs: number,
  periodMs: number,
): Record<string, string | number | null>[] {
  if (!dataset.applies(instrument)) return [];
  const serial = instrument.wire.serialNumber;
  const availability = context.availability(serial);
  const model: EnviroModel = {
    key: context.key(serial),
    frontKey: hashString('weather fronts', context.seed),
    long: instrument.wire.position.long,
  };
  const fields = dataset.fields;
  const minuteValues = new Float64Array(fields.length);
  const partnerIndex = fields.map((field) =>
    field.partnerOf ? fields.findIndex((f) => f.name === field.partnerOf) : -1,
  );
  const records: Record<string, string | number | null>[] = [];
  const perPeriod = periodMs / MINUTE_MS;
  for (let t = Math.floor(startMs / periodMs) * periodMs; t < endMs; t += periodMs) {
    const sums = new Float64Array(fields.length);
    const counts = new Float64Array(fields.length);
    const maxima = new Float64Array(fields.length).fill(-Infinity);
    const xs = new Float64Array(fields.length);
    const ys = new Float64Array(fields.length);
    let minutes = 0;
    for (let m = t / MINUTE_MS; m < t / MINUTE_MS + perPeriod; m++) {
      if (!availability.recorded(Math.floor((m * MINUTE_MS) / GRID_MS))) continue;
      minutes++;
      dataset.sample(model, m, minuteValues);
      fields.forEach((field, i) => {
        let value = minuteValues[i] as number;
        if (unit(model.key, STREAM.nulls + (dataset.nullsTogether ? 0 : i), m) < NULL_CHANCE)
          value = Number.NaN;
        const partner = partnerIndex[i] as number;
        if (Number.isNaN(value)) return;
        if (partner >= 0) {
          // The dominant frequency of the minute that holds the period's maximum.
          const partnerValue = minuteValues[partner] as number;
          if (partnerValue >= (ys[i] as number) || counts[i] === 0) {
            ys[i] = partnerValue;
            sums[i] = value;
          }
          counts[i] = (counts[i] as number) + 1;
          return;
        }
        counts[i] = (counts[i] as number) + 1;
        switch (field.combine) {
          case 'mean':
            sums[i] = (sums[i] as number) + value;
            break;
          case 'max':
            maxima[i] = Math.max(maxima[i] as number, value);
            break;
          case 'fourthPower':
            sums[i] = (sums[i] as number) + value ** 4;
            break;
          case 'direction':
            xs[i] = (xs[i] as number) + Math.cos((value * Math.PI) / 180);
            ys[i] = (ys[i] as number) + Math.sin((value * Math.PI) / 180);
            break;
        }
      });
    }
    if (minutes === 0) continue;
    const record: Record<string, string | number | null> =
      dataset.timeField === 'time'
        ? { time: formatServiceTime(t), instrument: serial }
        : { startTime: formatServiceTime(t), duration: minutes * 60, instrument: serial };
    fields.forEach((field, i) => {
      if (counts[i] === 0) {
        record[field.name] = null;
        return;
      }
      const n = counts[i] as number;
      let value: number;
      if (partnerIndex[i] !== -1) value = sums[i] as number;
      else if (field.combine === 'mean') value = (sums[i] as number) / n;
      else if (field.combine === 'max') value = maxima[i] as number;
      else if (field.combine === 'fourthPower') value = (sums[i] as number) ** 0.25;
      else value = ((((Math.atan2(ys[i] as number, xs[i] as number) * 180) / Math.PI) % 360) + 360) % 360;
      record[field.name] = roundTo(value, field.decimals);
    });
    records.push(record);
  }
  return records;
}

function enviroRoute(context: DataContext, pick: (c: Context) => Dataset | string) {
  return (c: Context) => {
    const dataset = pick(c);
    if (typeof dataset === 'string') return failureResponse(c, invalid(dataset));
    const query = parseDataQuery(c, context.state, dataset.limit);
    if (!query.ok) return failureResponse(c, query);
    const period = parsePeriod(c, dataset.limit, DEMO_PERIODS);
    if (!period.ok) return failureResponse(c, period);
    const { startMs, endMs } = query.value;
    return c.json(
      query.value.instruments.flatMap((instrument) =>
        enviroRecords(context, dataset, instrument, startMs, endMs, period.value.periodMs),
      ),
    );
  };
}

export function enviroRoutes(context: DataContext): RouteTable {
  return {
    'GET /data/weather': enviroRoute(context, () => DATASETS.weather),
    'GET /data/particulates': enviroRoute(context, () => DATASETS.particulates),
    'GET /data/gases': enviroRoute(context, () => DATASETS.gases),
    'GET /data/vibration/:type': enviroRoute(context, (c) => {
      const type = c.req.param('type') ?? '';
      const match = VIBRATION_TYPES.find((t) => t.toLowerCase() === type.toLowerCase());
      return match
        ? (VIBRATION_DATASETS[match] as Dataset)
        : `The vibration type "${type.slice(0, 40)}" is not available: use ${VIBRATION_TYPES.join(' or ')}.`;
    }),
  };
}
