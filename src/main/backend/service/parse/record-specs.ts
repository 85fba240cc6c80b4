/**
 * The record model of every dataset that answers records: which field is a record's time, what
 * type each column has, and which numeric columns also become series. Decided here once; the
 * parsed table carries it (RecordTable.timeKey, column types) to the cache, history and renderer.
 */
import type { ColumnType, Dataset } from '../../../../shared/data';

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
}

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
export const DURATION = num('duration', 'Duration', 's', false);

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
      { ...num('windSpeed', 'Wind speed', 'm/s'), quantity: 'wind speed' },
      { ...num('windDirection', 'Wind direction', '°'), quantity: 'wind direction' },
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
  vibrationVDV: enviro(axes('vdv', 'VDV', 'm/s¹·⁷⁵')),
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
    num('level', 'Level', 'dB'),
    { ...num('offset', 'Offset', 'dB'), quantity: 'level difference' },
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
      // Grouped as an engineer checks a monitor: is it overloaded or full (compute), is its supply
      // sound (power), can it reach the service (network), how hot is its case (environment).
      // Running totals and the finer LTE figures are there on request.
      inGroup(num('cpu', 'CPU', '%'), 'Compute'),
      inGroup(num('mem', 'Memory', 'MB'), 'Compute'),
      inGroup(num('cache', 'Cache', 'MB'), 'Compute', true),
      inGroup(num('temp', 'Temperature', '°C'), 'Environment'),
      inGroup(num('voltage', 'Supply voltage', 'V'), 'Power'),
      inGroup(num('disk', 'Disk', 'MB'), 'Compute'),
      inGroup(num('netRx', 'Received (total)', 'kbit'), 'Network', true),
      inGroup(num('netTx', 'Sent (total)', 'kbit'), 'Network', true),
      inGroup(num('mTot', 'Data this month', 'MB'), 'Network', true),
      inGroup(num('dTot', 'Data today', 'MB'), 'Network', true),
      inGroup(num('lteRsrp', 'LTE RSRP', 'dBm'), 'Network'),
      inGroup(num('lteRsrq', 'LTE RSRQ', 'dB'), 'Network', true),
      inGroup(num('lteSinr', 'LTE SINR', 'dB'), 'Network', true),
      inGroup(num('lteSignal', 'LTE signal', null), 'Network', true),
      inGroup(num('ping', 'Ping', 'ms'), 'Network'),
    ],
    sampling: { kind: 'seconds', field: 'samplePeriod' },
  },
  monitorEvents: points('time', [time('time', 'Time'), text('type', 'Type'), text('message', 'Message')], {
    extraFields: true,
  }),
};
