/**
 * The record model of every dataset that answers records: which field is a record's time, what
 * type each column has, and which numeric columns also become series. Decided here once; the
 * parsed table carries it (RecordTable.timeKey, column types) to the cache, history and renderer.
 */
import type { ColumnType, Dataset } from '../../../../shared/data';
import {
  noiseValueQuantity,
  SOUND_LEVEL_RANGE,
  undeclaredQuantity,
  type Precision,
  type Quantity,
} from '../../../../shared/quantities';
import { bandLabel } from '../../../../shared/service/bands';
import { PLAUSIBLE } from '../../../../shared/service/reading';

export interface ColumnSpec {
  key: string;
  label: string;
  unit: string | null;
  type: ColumnType;
  /** Numeric columns that also become a series. */
  series?: boolean;
  /**
   * What the column measures, when its unit alone does not say (a calibration offset and a level
   * are both dB): series of different quantities are never drawn on one axis.
   */
  quantity?: string;
  /** The chart the series is drawn in, named for people ("Compute"), where its unit alone would scatter them. */
  group?: string;
  /** A lesser series of its group: drawn only when the user asks for it. */
  onRequest?: boolean;
  /**
   * Of a number: what kind of quantity, its precision and plausible range (shared/quantities.ts);
   * the precision is the shown unit's.
   */
  measures?: Quantity;
  /**
   * The unit people read it in, where the service sends another: its values are multiplied by
   * `factor` wherever they are shown or exported (data/labels.ts), never in the cache.
   */
  shownIn?: { unit: string; factor: number };
}

/** A plain quantity (mean, highest, lowest) written to `decimals`; `plausible` where a bound is known. */
const plain = (decimals: number, plausible?: Quantity['plausible']): Quantity => ({
  kind: 'plain',
  precision: { decimals },
  ...(plausible === undefined ? {} : { plausible }),
});

/** A running total (data sent, data this month) written to `decimals`: it only grows, or restarts. */
const counter = (decimals: number): Quantity => ({ kind: 'counter', precision: { decimals } });

/** A column with what it measures. */
const measuring = (column: ColumnSpec, measures: Quantity): ColumnSpec => ({ ...column, measures });

/** A sound level (SIC bands, a calibration's level) as the health pages write them: to 0.01 dB. */
const HEALTH_LEVEL: Quantity = {
  kind: 'level',
  precision: { decimals: 2 },
  plausible: SOUND_LEVEL_RANGE,
};

/**
 * LTE signal quality as modems report it (3GPP TS 36.133 ranges, with room either side): RSRP
 * about −156…−31 dBm, RSRQ about −34…+3 dB (negative by nature), SINR about −20…+40 dB.
 */
const signal = (precision: Precision, plausible: Quantity['plausible']): Quantity => ({
  kind: 'signal',
  precision,
  ...(plausible === undefined ? {} : { plausible }),
});

/** A series of a named chart group, shown at once or only on request. */
const inGroup = (column: ColumnSpec, group: string, onRequest = false): ColumnSpec => ({
  ...column,
  group,
  ...(onRequest ? { onRequest } : {}),
});

/** How a series of the records is sampled: the slot each record covers, or isolated points. */
export type Sampling =
  | { kind: 'period' }
  | { kind: 'endTime'; field: string }
  | { kind: 'seconds'; field: string }
  | { kind: 'points' };

export interface RecordSpec {
  /** The record's time (required): rows are in its order and belong to the interval containing it. */
  timeKey: string;
  /** Where the time is taken from when the record lacks `timeKey` (the row's `timeKey` is set to it). */
  timeFallbackKey?: string;
  columns: ColumnSpec[];
  sampling: Sampling;
  /** Fields beyond `columns` are shown too (monitor events: their fields are not documented). */
  extraFields?: boolean;
}

export const time = (key: string, label: string): ColumnSpec => ({ key, label, unit: null, type: 'time' });
export const num = (key: string, label: string, unit: string | null, series = true): ColumnSpec => ({
  key,
  label,
  unit,
  type: 'number',
  series,
});
export const text = (key: string, label: string): ColumnSpec => ({ key, label, unit: null, type: 'text' });
export const DURATION: ColumnSpec = { ...num('duration', 'Duration', 's', false), measures: plain(0) };

/** The X, Y and Z columns of a vibration quantity (`vMaxX`, `vMaxY`, `vMaxZ`). */
const axes = (key: string, label: string, unit: string, measures: Quantity): ColumnSpec[] =>
  (['X', 'Y', 'Z'] as const).map((axis) =>
    measuring(num(`${key}${axis}`, `${label} ${axis}`, unit), measures),
  );

const enviro = (fields: ColumnSpec[]): RecordSpec => ({
  timeKey: 'startTime',
  columns: [time('startTime', 'Start'), DURATION, ...fields],
  sampling: { kind: 'period' },
});

/** Records that stand alone in time: their series are points, not a sampled line. */
const points = (
  timeKey: string,
  columns: ColumnSpec[],
  more: Pick<RecordSpec, 'timeFallbackKey' | 'extraFields'> = {},
): RecordSpec => ({ timeKey, columns, sampling: { kind: 'points' }, ...more });

/** Measurement records (noise and frequency band levels) are timed by their start. */
export const MEASUREMENT_TIME_KEY = 'startTime';

export type RecordDataset = Exclude<Dataset, `${string}TimeHistory` | `${string}Measurements`>;

export const RECORD_SPECS: Readonly<Record<RecordDataset, RecordSpec>> = {
  weather: {
    timeKey: 'time',
    columns: [
      time('time', 'Time'),
      // The quantities tell the data view which channels make the wind arrows and the wind rose.
      { ...num('windSpeed', 'Wind speed', 'm/s'), quantity: 'wind speed', measures: plain(1) },
      {
        ...num('windDirection', 'Wind direction', '°'),
        quantity: 'wind direction',
        measures: { kind: 'direction', precision: { decimals: 0 } },
      },
      measuring(num('temperature', 'Temperature', '°C'), plain(1)),
      // Sent in bar; read in hPa (1 bar = 1000 hPa), as weather stations state it, to 0.1 hPa.
      { ...measuring(num('pressure', 'Pressure', 'bar'), plain(1)), shownIn: { unit: 'hPa', factor: 1000 } },
      measuring(num('humidity', 'Humidity', '%'), plain(0)),
      measuring(num('precipitation', 'Precipitation', 'mm/h'), plain(1)),
    ],
    sampling: { kind: 'period' },
  },
  particulates: enviro([
    // To 0.1 µg/m³, as the assessment states particulates.
    measuring(num('pM1', 'PM1', 'µg/m³'), plain(1)),
    measuring(num('pM2p5', 'PM2.5', 'µg/m³'), plain(1)),
    measuring(num('pM4p25', 'PM4.25', 'µg/m³'), plain(1)),
    measuring(num('pM10', 'PM10', 'µg/m³'), plain(1)),
  ]),
  gases: enviro([
    // Per gas, to the resolution its sensors report: CO (hundreds of ppb) whole, the trace gases
    // H₂S and SO₂ (a few ppb) to 0.01, the others to 0.1; CO₂ whole ppm.
    measuring(num('co', 'CO', 'ppb'), plain(0)),
    measuring(num('h2S', 'H₂S', 'ppb'), plain(2)),
    measuring(num('no', 'NO', 'ppb'), plain(1)),
    measuring(num('nO2', 'NO₂', 'ppb'), plain(1)),
    measuring(num('o3', 'O₃', 'ppb'), plain(1)),
    measuring(num('sO2', 'SO₂', 'ppb'), plain(2)),
    measuring(num('cO2', 'CO₂', 'ppm'), plain(0)),
    // The unit of VOC is not documented: shown without one.
    measuring(num('voc', 'VOC', null), plain(0)),
  ]),
  // PPV to 0.001 mm/s and VDV to three significant digits, as the assessment states them.
  vibrationPPV: enviro([
    ...axes('vMax', 'PPV', 'mm/s', { kind: 'peak', precision: { decimals: 3 } }),
    ...axes('fDom', 'Dominant frequency', 'Hz', plain(1)),
  ]),
  vibrationVDV: enviro(axes('vdv', 'VDV', 'm/s¹·⁷⁵', { kind: 'dose', precision: { significant: 3 } })),
  events: points('startTime', [
    time('startTime', 'Start'),
    time('endTime', 'End'),
    text('type', 'Type'),
    text('name', 'Trigger'),
    measuring(num('level', 'Trigger level', 'dB', false), noiseValueQuantity('LAeq')),
    time('audioTime', 'Audio from'),
    // "Array of numbers; meaning not documented" (service-facts.md): said in the name, no unit guessed.
    { key: 'overall', label: 'Overall values (undocumented)', unit: null, type: 'list' },
    { key: 'octave', label: 'Octave bands', unit: 'dB', type: 'list' },
    { key: 'thirdOctave', label: 'Third-octave bands', unit: 'dB', type: 'list' },
    text('timeHistoryId', 'Time history id'),
    text('audioId', 'Audio id'),
  ]),
  audio: points(
    'triggerStartTime',
    [
      text('id', 'Recording id'),
      time('startTime', 'Start'),
      time('endTime', 'End'),
      time('triggerStartTime', 'Trigger start'),
      time('triggerEndTime', 'Trigger end'),
      text('triggerName', 'Trigger'),
    ],
    // The service selects recordings by their trigger, which starts after the recording does; a
    // recording without trigger times is placed at its own start.
    { timeFallbackKey: 'startTime' },
  ),
  calibrations: points('time', [
    time('time', 'Time'),
    text('status', 'Status'),
    measuring(num('level', 'Level', 'dB'), HEALTH_LEVEL),
    // A difference of levels: its mean is arithmetic.
    {
      ...num('offset', 'Offset', 'dB'),
      quantity: 'level difference',
      measures: plain(2, PLAUSIBLE.calibrationOffsetDb),
    },
  ]),
  calibrationLog: points('time', [time('time', 'Time'), text('user', 'User'), text('message', 'Message')]),
  sic: points('time', [
    time('time', 'Time'),
    text('status', 'Status'),
    measuring(num('_500Hz', '500 Hz', 'dB'), HEALTH_LEVEL),
    measuring(num('_1KHz', '1 kHz', 'dB'), HEALTH_LEVEL),
    measuring(num('_8KHz', '8 kHz', 'dB'), HEALTH_LEVEL),
  ]),
  monitorStats: {
    timeKey: 'time',
    columns: [
      time('time', 'Time'),
      num('samplePeriod', 'Sample period', 's', false),
      // Grouped as an engineer checks a monitor: is it overloaded or full (compute), is its supply
      // sound (power), can it reach the service (network), how hot is its case (environment).
      // Running totals and the finer LTE figures are there on request.
      inGroup(measuring(num('cpu', 'CPU', '%'), plain(1)), 'Compute'),
      inGroup(measuring(num('mem', 'Memory', 'MB'), plain(0)), 'Compute'),
      inGroup(measuring(num('cache', 'Cache', 'MB'), plain(0)), 'Compute', true),
      inGroup(measuring(num('temp', 'Temperature', '°C'), plain(1)), 'Environment'),
      inGroup(measuring(num('voltage', 'Supply voltage', 'V'), plain(2)), 'Power'),
      inGroup(measuring(num('disk', 'Disk', 'MB'), plain(0)), 'Compute'),
      // Running totals: their figure is the increase over the range and the last value.
      inGroup(measuring(num('netRx', 'Received (total)', 'kbit'), counter(0)), 'Network', true),
      inGroup(measuring(num('netTx', 'Sent (total)', 'kbit'), counter(0)), 'Network', true),
      inGroup(measuring(num('mTot', 'Data this month', 'MB'), counter(1)), 'Network', true),
      inGroup(measuring(num('dTot', 'Data today', 'MB'), counter(1)), 'Network', true),
      inGroup(
        measuring(num('lteRsrp', 'LTE RSRP', 'dBm'), signal({ decimals: 0 }, PLAUSIBLE.lteRsrpDbm)),
        'Network',
      ),
      inGroup(
        measuring(num('lteRsrq', 'LTE RSRQ', 'dB'), signal({ decimals: 1 }, PLAUSIBLE.lteRsrqDb)),
        'Network',
        true,
      ),
      inGroup(
        measuring(num('lteSinr', 'LTE SINR', 'dB'), signal({ decimals: 1 }, PLAUSIBLE.lteSinrDb)),
        'Network',
        true,
      ),
      // Its scale is not documented: no bound.
      inGroup(
        measuring(num('lteSignal', 'LTE signal', null), signal({ decimals: 0 }, undefined)),
        'Network',
        true,
      ),
      inGroup(measuring(num('ping', 'Ping', 'ms'), plain(0)), 'Network'),
    ],
    sampling: { kind: 'seconds', field: 'samplePeriod' },
  },
  monitorEvents: points('time', [time('time', 'Time'), text('type', 'Type'), text('message', 'Message')], {
    extraFields: true,
  }),
};

/** Columns of the record datasets by key, and a column's spec by dataset and key. */
export function columnSpecOf(dataset: Dataset, key: string): ColumnSpec | undefined {
  return (RECORD_SPECS as Partial<Record<Dataset, RecordSpec>>)[dataset]?.columns.find((c) => c.key === key);
}

/**
 * The name a person reads for a channel: a record dataset's channels by their column's label
 * (`pM2p5` → "PM2.5"), frequency bands by their centre frequency (`_500Hz`, `1KHz` → "500 Hz",
 * "1 kHz"), noise values as they are (LAeq).
 */
export function channelLabelOf(dataset: Dataset, key: string): string {
  const column = columnSpecOf(dataset, key);
  if (column !== undefined) return column.label;
  return dataset.startsWith('frequency') ? bandLabel(key) : key;
}

/**
 * What a dataset's channel or numeric column measures: as its record spec declares it, a noise
 * value by its name, a frequency band as a band level; a column nothing declares by its unit
 * (`undeclaredQuantity`). The one answer the plausibility check, the figures and the formatting use.
 */
export function channelQuantity(dataset: Dataset, key: string, unit: string | null): Quantity {
  if (dataset === 'noiseMeasurements' || dataset === 'noiseTimeHistory') {
    return key === DURATION.key ? plain(0) : noiseValueQuantity(key);
  }
  if (dataset === 'frequencyMeasurements' || dataset === 'frequencyTimeHistory') {
    return key === DURATION.key
      ? plain(0)
      : { kind: 'level', precision: { decimals: 1 }, plausible: PLAUSIBLE.bandLevelDb };
  }
  const declared = columnSpecOf(dataset, key)?.measures;
  if (declared !== undefined) return declared;
  return undeclaredQuantity(unit);
}
