/**
 * The answers of the data endpoints turned into the app's form: numeric series as typed arrays
 * (`Float64Array` times in epoch ms, `Float32Array` values, NaN = no reading) and records as a
 * table (times as epoch ms numbers, null = no reading).
 *
 * Robustness (service-facts.md): unknown fields are ignored, field names match regardless of
 * letter case, offset-less times are UTC, `null` is "no reading" (never zero). A record whose
 * time cannot be read, or a field of the wrong kind, fails the whole answer as `badResponse`
 * naming the dataset and the field.
 *
 * Conventions:
 * - A reading belongs to the interval that contains its (start) time: whatever the service
 *   returns outside the requested [start, end) is dropped, so consecutive requests join without
 *   duplicates and a split range gives exactly what one request would.
 * - Gaps in sampled series (time history, measurements, environmental data, monitor stats) are
 *   marked by ONE NaN sample at the time the last reading before the gap ends, so a chart breaks
 *   the line there. The same holds at the edges of the fetched interval: a NaN at its start when
 *   the first reading starts a whole sample later, and a NaN at the end of the last reading when
 *   readings stop before the interval ends. Point records (calibrations, SIC) get no markers.
 */
import type { CellValue, Dataset, RecordTable, SeriesChannel, TimeInterval } from '../../../shared/data';
import { FieldDeskError } from '../../../shared/errors';
import { NOISE_MEASUREMENT_VALUES, THIRD_OCTAVE_BAND_NAMES } from '../../../shared/service/limits';
import { parseServiceTime } from '../../../shared/service/time';
import { kindOf } from './wire-kind';

/** Slack when comparing sample times (ms): times with 7 fractional digits are rounded to ms. */
const TOLERANCE_MS = 1;

// ---------------------------------------------------------------------------------------------
// Band names

/**
 * The centre frequency (Hz) of a band name such as `31.5Hz`, `1KHz`, `1.25KHz3` (the live
 * channel's third-octave suffix) or `_8KHz` (SIC fields); null when the name is not a band.
 */
export function bandCentreFrequency(name: string): number | null {
  const match = /^_?(\d+(?:\.\d+)?)\s*(k?)hz(3)?$/i.exec(name.trim());
  if (!match) return null;
  const value = Number(match[1]) * (match[2] === '' ? 1 : 1000);
  return Number.isFinite(value) && value > 0 ? value : null;
}

const BAND_BY_FREQUENCY = new Map(
  THIRD_OCTAVE_BAND_NAMES.map((name) => [bandCentreFrequency(name) as number, name as string]),
);

/** The data endpoints' spelling of a band (`1.25khz3` → `1.25KHz`); unknown names as sent. */
export function canonicalBandName(name: string): string {
  const frequency = bandCentreFrequency(name);
  return (frequency === null ? undefined : BAND_BY_FREQUENCY.get(frequency)) ?? name;
}

const NOISE_VALUE_BY_LOWER = new Map(NOISE_MEASUREMENT_VALUES.map((name) => [name.toLowerCase(), name]));
const canonicalValueName = (name: string): string => NOISE_VALUE_BY_LOWER.get(name.toLowerCase()) ?? name;

// ---------------------------------------------------------------------------------------------
// Reading fields

/** What the answers are called in messages: "The service sent weather records with …". */
export const DATASET_NOUNS: Readonly<Record<Dataset, string>> = {
  noiseMeasurements: 'noise measurements',
  noiseTimeHistory: 'noise time history',
  frequencyMeasurements: 'frequency band measurements',
  frequencyTimeHistory: 'frequency band time history',
  weather: 'weather records',
  particulates: 'particulate records',
  gases: 'gas records',
  vibrationPPV: 'vibration (PPV) records',
  vibrationVDV: 'vibration (VDV) records',
  events: 'noise events',
  audio: 'audio recordings',
  calibrations: 'calibration records',
  calibrationLog: 'calibration log entries',
  sic: 'SIC records',
  monitorStats: 'system monitor stats',
  monitorEvents: 'system monitor events',
};

type WireObject = Record<string, unknown>;
type Field = (name: string) => unknown;

const isObject = (value: unknown): value is WireObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Field access by name, exact case first, then regardless of case (built only when needed). */
function fieldsOf(object: WireObject): Field {
  let lower: Map<string, unknown> | undefined;
  return (name) => {
    if (Object.hasOwn(object, name)) return object[name];
    lower ??= new Map(Object.entries(object).map(([key, value]) => [key.toLowerCase(), value]));
    return lower.get(name.toLowerCase());
  };
}

const quote = (value: unknown): string =>
  typeof value === 'string' ? ` ("${value.slice(0, 40)}")` : typeof value === 'number' ? ` (${value})` : '';

/** Throws `badResponse` for what the service sent in `noun`; `where` says which record. */
class Problems {
  constructor(
    readonly noun: string,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  fail(message: string): never {
    throw new FieldDeskError('badResponse', this.redact(`The service sent ${this.noun} ${message}`));
  }

  list(data: unknown): unknown[] {
    if (Array.isArray(data)) return data;
    throw new FieldDeskError(
      'badResponse',
      `The service sent ${kindOf(data)} where FieldDesk expected a list of ${this.noun}.`,
    );
  }

  object(value: unknown, where: string): WireObject {
    if (isObject(value)) return value;
    return this.fail(`with ${kindOf(value)} instead of a record (${where}).`);
  }

  time(value: unknown, field: string, where: string, required: boolean): number | null {
    if (value === undefined || value === null) {
      if (!required) return null;
      return this.fail(`without a ${field} (${where}).`);
    }
    const epoch = typeof value === 'string' ? parseServiceTime(value) : null;
    if (epoch === null) {
      return this.fail(
        `with an unreadable ${field}${quote(value)} (${where}): FieldDesk expected an ISO 8601 date-time such as 2025-06-01T00:00:00Z.`,
      );
    }
    return epoch;
  }

  number(value: unknown, field: string, where: string): number | null {
    if (typeof value === 'number') return Number.isFinite(value) ? value : null;
    if (value === null || value === undefined) return null;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
      return Number(value);
    return this.fail(`whose ${field} is ${kindOf(value)}${quote(value)} instead of a number (${where}).`);
  }

  boolean(value: unknown, field: string, where: string): boolean | null {
    if (typeof value === 'boolean') return value;
    if (value === null || value === undefined) return null;
    if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
      return value.trim().toLowerCase() === 'true';
    return this.fail(
      `whose ${field} is ${kindOf(value)}${quote(value)} instead of true or false (${where}).`,
    );
  }

  text(value: unknown): string | null {
    if (value === null || value === undefined) return null;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return JSON.stringify(value);
  }

  /** A list of numbers shown as text ("71.2, 80.1, 95.3"). */
  numberList(value: unknown, field: string, where: string): string | null {
    if (value === null || value === undefined) return null;
    if (!Array.isArray(value))
      return this.fail(`whose ${field} is ${kindOf(value)} instead of a list (${where}).`);
    return value.map((item) => (item === null ? '–' : String(item))).join(', ');
  }
}

/** True when the record names another instrument (answers for one serial should not, but may). */
function otherInstrument(field: Field, serial: string | null): boolean {
  if (serial === null) return false;
  const instrument = field('instrument');
  return typeof instrument === 'string' && instrument.toLowerCase() !== serial.toLowerCase();
}

// ---------------------------------------------------------------------------------------------
// Series building

type Visit = (time: number, end: number, value: number) => void;
/** Visits samples in time order (duplicates and overlaps allowed: the builder drops them). */
type SampleWalk = (visit: Visit) => void;

function runSamples(
  walk: SampleWalk,
  range: TimeInterval | null,
  markers: boolean,
  out: (time: number, value: number) => void,
): void {
  let lastTime = -Infinity;
  let lastEnd = Number.NaN;
  let any = false;
  walk((time, end, value) => {
    if (time <= lastTime) return;
    if (markers) {
      if (any) {
        if (time > lastEnd + TOLERANCE_MS) out(lastEnd, Number.NaN);
      } else if (range !== null && time >= range.start + (end - time)) {
        out(range.start, Number.NaN);
      }
    }
    out(time, value);
    lastTime = time;
    lastEnd = end;
    any = true;
  });
  if (markers && any && range !== null && lastEnd < range.end - TOLERANCE_MS) out(lastEnd, Number.NaN);
}

/**
 * One pass into arrays of `capacity` (an upper bound of samples plus markers, known from the
 * block lengths or the row count), trimmed to the exact length when markers or duplicates left
 * room. No per-sample objects.
 */
function buildChannel(
  name: string,
  unit: string | null,
  walk: SampleWalk,
  range: TimeInterval | null,
  markers: boolean,
  capacity: number,
): SeriesChannel {
  let times = new Float64Array(capacity);
  let values = new Float32Array(capacity);
  let k = 0;
  runSamples(walk, range, markers, (time, value) => {
    times[k] = time;
    values[k] = value;
    k++;
  });
  if (k < capacity) {
    times = times.slice(0, k);
    values = values.slice(0, k);
  }
  return { name, unit, times, values };
}

// ---------------------------------------------------------------------------------------------
// Time history

/** One answer of a request and the interval it was asked for. */
export interface Answer {
  interval: TimeInterval;
  data: unknown;
}

interface Block {
  start: number;
  step: number;
  values: unknown[];
  clip: TimeInterval | null;
  where: string;
}

/**
 * Time history answers (noise, frequency, event) as one channel per value or band, blocks
 * concatenated in time order; `sampleDuration` is in milliseconds.
 */
export function parseTimeHistory(
  answers: readonly Answer[],
  options: { noun: string; serial: string | null; frequency: boolean; range: TimeInterval | null },
  redact?: (text: string) => string,
): SeriesChannel[] {
  const problems = new Problems(options.noun, redact);
  const channels = new Map<string, Block[]>();
  const add = (name: string, block: Block) => {
    let blocks = channels.get(name);
    if (blocks === undefined) channels.set(name, (blocks = []));
    blocks.push(block);
  };
  for (const answer of answers) {
    const clip = options.range === null ? null : answer.interval;
    problems.list(answer.data).forEach((item, r) => {
      const record = fieldsOf(problems.object(item, `record ${r + 1}`));
      if (otherInstrument(record, options.serial)) return;
      const type = problems.text(record('type')) ?? '';
      const blocks = record('blocks') ?? [];
      if (!Array.isArray(blocks))
        problems.fail(`whose blocks are ${kindOf(blocks)} instead of a list (record ${r + 1}).`);
      (blocks as unknown[]).forEach((rawBlock, b) => {
        const where = `record ${r + 1}, block ${b + 1}`;
        const block = fieldsOf(problems.object(rawBlock, where));
        const start = problems.time(block('start'), 'blocks.start', where, true) as number;
        const step = problems.number(block('sampleDuration'), 'blocks.sampleDuration', where);
        if (step === null || !(step > 0)) {
          problems.fail(
            `with a blocks.sampleDuration${quote(block('sampleDuration'))} that is not a positive number of milliseconds (${where}).`,
          );
        }
        const samples = (values: unknown, field: string): unknown[] => {
          if (values === null || values === undefined) return [];
          if (!Array.isArray(values))
            return problems.fail(`whose ${field} is ${kindOf(values)} instead of a list (${where}).`);
          return values;
        };
        if (!options.frequency) {
          add(canonicalValueName(type), {
            start,
            step: step as number,
            values: samples(block('values'), 'blocks.values'),
            clip,
            where,
          });
          return;
        }
        const bands = block('bands') ?? [];
        if (!Array.isArray(bands))
          problems.fail(`whose blocks.bands is ${kindOf(bands)} instead of a list (${where}).`);
        (bands as unknown[]).forEach((rawBand, i) => {
          const band = fieldsOf(problems.object(rawBand, `${where}, band ${i + 1}`));
          const name = problems.text(band('name'));
          if (name === null || name === '') problems.fail(`with a band without a name (${where}).`);
          add(canonicalBandName(name as string), {
            start,
            step: step as number,
            values: samples(band('values'), 'blocks.bands.values'),
            clip,
            where,
          });
        });
      });
    });
  }
  const series: SeriesChannel[] = [];
  for (const [name, blocks] of channels) {
    // Stable: blocks starting together keep the answers' order.
    blocks.sort((a, b) => a.start - b.start);
    const walk: SampleWalk = (visit) => {
      for (const block of blocks) {
        const { start, step, values, clip } = block;
        for (let i = 0; i < values.length; i++) {
          const time = start + i * step;
          if (clip !== null && (time < clip.start || time >= clip.end)) continue;
          const raw = values[i];
          const value =
            typeof raw === 'number'
              ? raw
              : raw === null
                ? Number.NaN
                : (problems.number(raw, 'blocks.values', block.where) ?? Number.NaN);
          visit(time, time + step, value);
        }
      }
    };
    // Readings, plus at most one marker per block and one at the start.
    const capacity = blocks.reduce((sum, block) => sum + block.values.length + 1, 1);
    series.push(buildChannel(name, 'dB', walk, options.range, true, capacity));
  }
  return series;
}

// ---------------------------------------------------------------------------------------------
// Records

type ColumnType = 'time' | 'number' | 'text' | 'boolean' | 'list';

interface ColumnSpec {
  key: string;
  label: string;
  unit: string | null;
  type: ColumnType;
  /** Numeric columns that also become a series. */
  series?: boolean;
}

/** How a series of the records is sampled: the slot each record covers, or isolated points. */
type Sampling =
  | { kind: 'period' }
  | { kind: 'endTime'; field: string }
  | { kind: 'seconds'; field: string }
  | { kind: 'points' };

interface RecordSpec {
  /** The row's time (required); rows are in its order. */
  timeKey: string;
  /** Which time decides the interval a record belongs to; default `timeKey`. */
  clipKey?: string;
  columns: ColumnSpec[];
  sampling: Sampling;
  /** Fields beyond `columns` are shown too (monitor events: their fields are not documented). */
  extraFields?: boolean;
}

const time = (key: string, label: string): ColumnSpec => ({ key, label, unit: null, type: 'time' });
const num = (key: string, label: string, unit: string | null, series = true): ColumnSpec => ({
  key,
  label,
  unit,
  type: 'number',
  series,
});
const text = (key: string, label: string): ColumnSpec => ({ key, label, unit: null, type: 'text' });
const DURATION = num('duration', 'Duration', 's', false);

/** The X, Y and Z columns of a vibration quantity (`vMaxX`, `vMaxY`, `vMaxZ`). */
const axes = (key: string, label: string, unit: string): ColumnSpec[] =>
  (['X', 'Y', 'Z'] as const).map((axis) => num(`${key}${axis}`, `${label} ${axis}`, unit));

const enviro = (fields: ColumnSpec[]): RecordSpec => ({
  timeKey: 'startTime',
  columns: [time('startTime', 'Start'), DURATION, ...fields],
  sampling: { kind: 'period' },
});

/** Records that stand alone in time: their series are points, not a sampled line. */
const points = (
  timeKey: string,
  columns: ColumnSpec[],
  more: Pick<RecordSpec, 'clipKey' | 'extraFields'> = {},
): RecordSpec => ({ timeKey, columns, sampling: { kind: 'points' }, ...more });

export const RECORD_SPECS: Readonly<
  Record<Exclude<Dataset, `${string}TimeHistory` | `${string}Measurements`>, RecordSpec>
> = {
  weather: {
    timeKey: 'time',
    columns: [
      time('time', 'Time'),
      num('windSpeed', 'Wind speed', 'm/s'),
      num('windDirection', 'Wind direction', '°'),
      num('temperature', 'Temperature', '°C'),
      num('pressure', 'Pressure', 'bar'),
      num('humidity', 'Humidity', '%'),
      num('precipitation', 'Precipitation', 'mm/h'),
    ],
    sampling: { kind: 'period' },
  },
  particulates: enviro([
    num('pM1', 'PM1', 'µg/m³'),
    num('pM2p5', 'PM2.5', 'µg/m³'),
    num('pM4p25', 'PM4.25', 'µg/m³'),
    num('pM10', 'PM10', 'µg/m³'),
  ]),
  gases: enviro([
    num('co', 'CO', 'ppb'),
    num('h2S', 'H₂S', 'ppb'),
    num('no', 'NO', 'ppb'),
    num('nO2', 'NO₂', 'ppb'),
    num('o3', 'O₃', 'ppb'),
    num('sO2', 'SO₂', 'ppb'),
    num('cO2', 'CO₂', 'ppm'),
    // The unit of VOC is not documented: shown without one.
    num('voc', 'VOC', null),
  ]),
  vibrationPPV: enviro([...axes('vMax', 'PPV', 'mm/s'), ...axes('fDom', 'Dominant frequency', 'Hz')]),
  vibrationVDV: enviro(axes('vdv', 'VDV', 'm/s^1.75')),
  events: points('startTime', [
    time('startTime', 'Start'),
    time('endTime', 'End'),
    text('type', 'Type'),
    text('name', 'Trigger'),
    num('level', 'Trigger level', 'dB', false),
    time('audioTime', 'Audio from'),
    { key: 'overall', label: 'Overall', unit: 'dB', type: 'list' },
    { key: 'octave', label: 'Octave bands', unit: 'dB', type: 'list' },
    { key: 'thirdOctave', label: 'Third-octave bands', unit: 'dB', type: 'list' },
    text('timeHistoryId', 'Time history id'),
    text('audioId', 'Audio id'),
  ]),
  audio: points(
    'startTime',
    [
      text('id', 'Recording id'),
      time('startTime', 'Start'),
      time('endTime', 'End'),
      time('triggerStartTime', 'Trigger start'),
      time('triggerEndTime', 'Trigger end'),
      text('triggerName', 'Trigger'),
    ],
    // The service selects recordings by their trigger, which starts after the recording does.
    { clipKey: 'triggerStartTime' },
  ),
  calibrations: points('time', [
    time('time', 'Time'),
    text('status', 'Status'),
    num('level', 'Level', 'dB'),
    num('offset', 'Offset', 'dB'),
  ]),
  calibrationLog: points('time', [time('time', 'Time'), text('user', 'User'), text('message', 'Message')]),
  sic: points('time', [
    time('time', 'Time'),
    text('status', 'Status'),
    num('_500Hz', '500 Hz', 'dB'),
    num('_1KHz', '1 kHz', 'dB'),
    num('_8KHz', '8 kHz', 'dB'),
  ]),
  monitorStats: {
    timeKey: 'time',
    columns: [
      time('time', 'Time'),
      num('samplePeriod', 'Sample period', 's', false),
      num('cpu', 'CPU', '%'),
      num('mem', 'Memory', 'MB'),
      num('cache', 'Cache', 'MB'),
      num('temp', 'Temperature', '°C'),
      num('voltage', 'Supply voltage', 'V'),
      num('disk', 'Disk', 'MB'),
      num('netRx', 'Received (total)', 'kbit'),
      num('netTx', 'Sent (total)', 'kbit'),
      num('mTot', 'Data this month', 'MB'),
      num('dTot', 'Data today', 'MB'),
      num('lteRsrp', 'LTE RSRP', 'dBm'),
      num('lteRsrq', 'LTE RSRQ', 'dB'),
      num('lteSinr', 'LTE SINR', 'dB'),
      num('lteSignal', 'LTE signal', null),
      num('ping', 'Ping', 'ms'),
    ],
    sampling: { kind: 'seconds', field: 'samplePeriod' },
  },
  monitorEvents: points('time', [time('time', 'Time'), text('type', 'Type'), text('message', 'Message')], {
    extraFields: true,
  }),
};

type Row = Record<string, CellValue>;

function readCell(problems: Problems, spec: ColumnSpec, value: unknown, where: string): CellValue {
  switch (spec.type) {
    case 'time':
      return problems.time(value, spec.key, where, false);
    case 'number':
      return problems.number(value, spec.key, where);
    case 'boolean':
      return problems.boolean(value, spec.key, where);
    case 'list':
      return problems.numberList(value, spec.key, where);
    case 'text':
      return problems.text(value);
  }
}

/** Keeps rows whose clip time lies in their answer's interval, joined in time order. */
function clipAndSort(
  pieces: Array<{ rows: Row[]; clipTimes: number[]; interval: TimeInterval | null }>,
  timeKey: string,
): Row[] {
  const rows: Row[] = [];
  for (const piece of pieces) {
    piece.rows.forEach((row, i) => {
      const t = piece.clipTimes[i] as number;
      if (piece.interval === null || (t >= piece.interval.start && t < piece.interval.end)) rows.push(row);
    });
  }
  // Stable: rows with the same time keep the service's order.
  return rows.sort((a, b) => (a[timeKey] as number) - (b[timeKey] as number));
}

/** Series of the numeric columns of rows, with the slot each row covers. */
function rowSeries(
  rows: readonly Row[],
  columns: readonly ColumnSpec[],
  timeKey: string,
  slotEnd: ((row: Row, time: number) => number) | null,
  range: TimeInterval | null,
): SeriesChannel[] {
  const times = new Float64Array(rows.length);
  const ends = new Float64Array(rows.length);
  rows.forEach((row, i) => {
    const t = row[timeKey] as number;
    times[i] = t;
    ends[i] = slotEnd === null ? t : slotEnd(row, t);
  });
  return columns
    .filter((column) => column.type === 'number' && column.series === true)
    .map((column) => {
      const walk: SampleWalk = (visit) => {
        for (let i = 0; i < rows.length; i++) {
          const value = rows[i]![column.key];
          visit(times[i] as number, ends[i] as number, typeof value === 'number' ? value : Number.NaN);
        }
      };
      return buildChannel(column.key, column.unit, walk, range, slotEnd !== null, 2 * rows.length + 1);
    });
}

export interface ParsedData {
  series: SeriesChannel[];
  records: RecordTable | null;
}

export interface ParseOptions {
  serial: string | null;
  /** The sample period of the answer (ms), for records that do not state their end. */
  periodMs: number | null;
  redact?: (text: string) => string;
}

const rangeOf = (answers: readonly Answer[]): TimeInterval | null =>
  answers.length === 0
    ? null
    : { start: answers[0]!.interval.start, end: answers[answers.length - 1]!.interval.end };

function parseRecordAnswers(
  dataset: keyof typeof RECORD_SPECS,
  answers: readonly Answer[],
  options: ParseOptions,
): ParsedData {
  const spec = RECORD_SPECS[dataset];
  const problems = new Problems(DATASET_NOUNS[dataset], options.redact);
  const known = new Set(['instrument', ...spec.columns.map((c) => c.key.toLowerCase())]);
  const extra: ColumnSpec[] = [];
  const extraKeys = new Set<string>();
  const pieces = answers.map((answer) => {
    const rows: Row[] = [];
    const clipTimes: number[] = [];
    problems.list(answer.data).forEach((item, r) => {
      const where = `record ${r + 1}`;
      const object = problems.object(item, where);
      const field = fieldsOf(object);
      if (otherInstrument(field, options.serial)) return;
      const row: Row = {};
      for (const column of spec.columns) {
        row[column.key] =
          column.key === spec.timeKey
            ? problems.time(field(column.key), column.key, where, true)
            : readCell(problems, column, field(column.key), where);
      }
      if (spec.extraFields === true) {
        for (const [key, value] of Object.entries(object)) {
          if (known.has(key.toLowerCase())) continue;
          if (!extraKeys.has(key)) {
            extraKeys.add(key);
            extra.push({ key, label: key, unit: null, type: 'text' });
          }
          row[key] = typeof value === 'number' || typeof value === 'boolean' ? value : problems.text(value);
        }
      }
      const clipKey = spec.clipKey ?? spec.timeKey;
      const clipTime =
        clipKey === spec.timeKey ? (row[spec.timeKey] as number) : (row[clipKey] as number | null);
      rows.push(row);
      clipTimes.push(clipTime ?? (row[spec.timeKey] as number));
    });
    return { rows, clipTimes, interval: answer.interval };
  });
  const rows = clipAndSort(pieces, spec.timeKey);
  const columns = [...spec.columns, ...extra];
  for (const row of rows) for (const column of extra) row[column.key] ??= null;

  const range = rangeOf(answers);
  const sampling = spec.sampling;
  const periodMs = options.periodMs;
  const slotEnd: ((row: Row, time: number) => number) | null =
    sampling.kind === 'period' && periodMs !== null
      ? (_row, t) => t + periodMs
      : sampling.kind === 'seconds'
        ? (row, t) => {
            const seconds = row[sampling.field];
            return typeof seconds === 'number' && seconds > 0 ? t + seconds * 1000 : t + 1;
          }
        : null;
  return {
    series: rowSeries(rows, spec.columns, spec.timeKey, slotEnd, range),
    records: { columns: columns.map(({ key, label, unit }) => ({ key, label, unit })), rows },
  };
}

/** Noise and frequency measurement records: one column and one series per value or band. */
function parseMeasurementAnswers(
  dataset: 'noiseMeasurements' | 'frequencyMeasurements',
  answers: readonly Answer[],
  options: ParseOptions,
): ParsedData {
  const problems = new Problems(DATASET_NOUNS[dataset], options.redact);
  const canonical = dataset === 'frequencyMeasurements' ? canonicalBandName : canonicalValueName;
  const valueColumns: string[] = [];
  const seen = new Set<string>();
  const typeColumns = new Set<string>();
  const pieces = answers.map((answer) => {
    const rows: Row[] = [];
    const clipTimes: number[] = [];
    problems.list(answer.data).forEach((item, r) => {
      const where = `record ${r + 1}`;
      const field = fieldsOf(problems.object(item, where));
      if (otherInstrument(field, options.serial)) return;
      const startTime = problems.time(field('startTime'), 'startTime', where, true) as number;
      const row: Row = {
        startTime,
        endTime: problems.time(field('endTime'), 'endTime', where, false),
        duration: problems.number(field('duration'), 'duration', where),
        overload: problems.boolean(field('overload'), 'overload', where),
      };
      const values = field('values') ?? [];
      if (!Array.isArray(values))
        problems.fail(`whose values are ${kindOf(values)} instead of a list (${where}).`);
      (values as unknown[]).forEach((rawValue, v) => {
        const entry = fieldsOf(problems.object(rawValue, `${where}, value ${v + 1}`));
        const name = problems.text(entry('name'));
        if (name === null || name === '') problems.fail(`with a value without a name (${where}).`);
        const key = canonical(name as string);
        if (!seen.has(key)) {
          seen.add(key);
          valueColumns.push(key);
        }
        row[key] = problems.number(entry('value'), `values.${key}`, where);
      });
      for (const typeKey of ['LeqT1Type', 'LeqT2Type']) {
        const value = problems.text(field(typeKey));
        if (value !== null) {
          typeColumns.add(typeKey);
          row[typeKey] = value;
        }
      }
      rows.push(row);
      clipTimes.push(startTime);
    });
    return { rows, clipTimes, interval: answer.interval };
  });
  const rows = clipAndSort(pieces, 'startTime');
  const columns: ColumnSpec[] = [
    time('startTime', 'Start'),
    time('endTime', 'End'),
    { ...DURATION },
    { key: 'overload', label: 'Overload', unit: null, type: 'boolean' },
    ...valueColumns.map((key) => num(key, key, 'dB')),
    ...[...typeColumns].map((key) => text(key, key === 'LeqT1Type' ? 'LeqT1 type' : 'LeqT2 type')),
  ];
  for (const row of rows) {
    for (const column of columns) row[column.key] ??= null;
  }
  const periodMs = options.periodMs;
  const slotEnd = (row: Row, t: number): number => {
    const end = row.endTime;
    if (typeof end === 'number' && end > t) return end;
    return periodMs !== null ? t + periodMs : t + 1;
  };
  return {
    series: rowSeries(rows, columns, 'startTime', slotEnd, rangeOf(answers)),
    records: { columns: columns.map(({ key, label, unit }) => ({ key, label, unit })), rows },
  };
}

/**
 * The answers of consecutive requests for one dataset of one instrument as series and records.
 * `answers` are in time order and their intervals consecutive.
 */
export function parseDataset(
  dataset: Dataset,
  answers: readonly Answer[],
  options: ParseOptions,
): ParsedData {
  switch (dataset) {
    case 'noiseTimeHistory':
    case 'frequencyTimeHistory':
      return {
        series: parseTimeHistory(
          answers,
          {
            noun: DATASET_NOUNS[dataset],
            serial: options.serial,
            frequency: dataset === 'frequencyTimeHistory',
            range: rangeOf(answers),
          },
          options.redact,
        ),
        records: null,
      };
    case 'noiseMeasurements':
    case 'frequencyMeasurements':
      return parseMeasurementAnswers(dataset, answers, options);
    default:
      return parseRecordAnswers(dataset, answers, options);
  }
}

/** The row field that holds each dataset's time (epoch ms); null for time history (no rows). */
export const ROW_TIME_KEY: Readonly<Record<Dataset, string | null>> = {
  noiseMeasurements: 'startTime',
  noiseTimeHistory: null,
  frequencyMeasurements: 'startTime',
  frequencyTimeHistory: null,
  weather: 'time',
  particulates: 'startTime',
  gases: 'startTime',
  vibrationPPV: 'startTime',
  vibrationVDV: 'startTime',
  events: 'startTime',
  audio: 'startTime',
  calibrations: 'time',
  calibrationLog: 'time',
  sic: 'time',
  monitorStats: 'time',
  monitorEvents: 'time',
};

// ---------------------------------------------------------------------------------------------
// Joining and slicing fetched chunks (for the cache)

/** A fetched piece of one dataset of one instrument (the shape of `DatasetChunk`). */
export interface ChunkLike {
  interval: TimeInterval;
  series: SeriesChannel[];
  records: RecordTable | null;
  bytes: number;
}

/**
 * Joins pieces fetched separately into one, keeping the gap convention: samples in time order
 * (a repeated time kept once), and a NaN where a channel has nothing in a piece, or where the
 * pieces leave a hole between them, so a chart does not draw a line across missing data.
 * Pieces must not overlap, and each should be at least one sample period long (a shorter one
 * can lie wholly under the reading before it, and would be marked as a gap); they are taken in
 * order of their start.
 */
export function joinChunks<C extends ChunkLike>(chunks: readonly C[]): ChunkLike {
  if (chunks.length === 0) throw new RangeError('joinChunks needs at least one chunk');
  const ordered = [...chunks].sort((a, b) => a.interval.start - b.interval.start);
  const names: string[] = [];
  const units = new Map<string, string | null>();
  for (const chunk of ordered) {
    for (const channel of chunk.series) {
      if (!units.has(channel.name)) {
        names.push(channel.name);
        units.set(channel.name, channel.unit);
      }
    }
  }
  const series = names.map((name) => {
    const run = (out: (time: number, value: number) => void) => {
      let lastTime = -Infinity;
      let lastWasReading = false;
      let previous: TimeInterval | null = null;
      for (const chunk of ordered) {
        const channel = chunk.series.find((c) => c.name === name);
        const count = channel?.times.length ?? 0;
        const hole = previous !== null && chunk.interval.start > previous.end + TOLERANCE_MS;
        if (lastWasReading && (hole || count === 0)) {
          const at = hole ? (previous as TimeInterval).end : chunk.interval.start;
          if (at > lastTime) {
            out(at, Number.NaN);
            lastTime = at;
            lastWasReading = false;
          }
        }
        for (let i = 0; i < count; i++) {
          const time = channel!.times[i] as number;
          if (time <= lastTime) continue;
          const value = channel!.values[i] as number;
          out(time, value);
          lastTime = time;
          lastWasReading = !Number.isNaN(value);
        }
        previous = chunk.interval;
      }
    };
    let n = 0;
    run(() => n++);
    const times = new Float64Array(n);
    const values = new Float32Array(n);
    let k = 0;
    run((time, value) => {
      times[k] = time;
      values[k] = value;
      k++;
    });
    return { name, unit: units.get(name) ?? null, times, values };
  });

  let records: RecordTable | null = null;
  if (ordered.some((chunk) => chunk.records !== null)) {
    const columns: RecordTable['columns'] = [];
    const keys = new Set<string>();
    const rows: RecordTable['rows'] = [];
    for (const chunk of ordered) {
      for (const column of chunk.records?.columns ?? []) {
        if (!keys.has(column.key)) {
          keys.add(column.key);
          columns.push(column);
        }
      }
      rows.push(...(chunk.records?.rows ?? []));
    }
    records = {
      columns,
      rows: rows.map((row) => {
        const full: Record<string, CellValue> = {};
        for (const key of keys) full[key] = row[key] ?? null;
        return full;
      }),
    };
  }
  return {
    interval: {
      start: ordered[0]!.interval.start,
      end: Math.max(...ordered.map((chunk) => chunk.interval.end)),
    },
    series,
    records,
    bytes: ordered.reduce((sum, chunk) => sum + chunk.bytes, 0),
  };
}

/** First index whose time is at least `time` (times ascending). */
function lowerBound(times: Float64Array, time: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The part of a piece within `interval`: samples and rows whose time lies in [start, end). */
export function sliceChunk(dataset: Dataset, chunk: ChunkLike, interval: TimeInterval): ChunkLike {
  const start = Math.max(interval.start, chunk.interval.start);
  const end = Math.max(start, Math.min(interval.end, chunk.interval.end));
  const timeKey = ROW_TIME_KEY[dataset];
  return {
    interval: { start, end },
    series: chunk.series.map((channel) => {
      const from = lowerBound(channel.times, start);
      const to = lowerBound(channel.times, end);
      return { ...channel, times: channel.times.slice(from, to), values: channel.values.slice(from, to) };
    }),
    records:
      chunk.records === null
        ? null
        : {
            columns: chunk.records.columns,
            rows:
              timeKey === null
                ? chunk.records.rows
                : chunk.records.rows.filter((row) => {
                    const t = row[timeKey];
                    return typeof t === 'number' && t >= start && t < end;
                  }),
          },
    bytes: chunk.bytes,
  };
}
