/**
 * The answers of the data endpoints turned into the app's form: numeric series as typed arrays
 * (`Float64Array` times in epoch ms, `Float32Array` values, NaN = no reading) and records as a
 * table (times as epoch ms numbers, null = no reading).
 *
 * Robustness (service-facts.md): unknown fields are ignored, field names match regardless of
 * letter case, offset-less times are UTC, `null` is "no reading" (never zero). A record whose
 * time cannot be read, or a field of the wrong kind, fails the whole answer as `badResponse`
 * naming the dataset and the field. A record JSON.parse read but that cannot be what the service
 * sent (a field twice, a text longer than any field: answers.ts) is left out and counted, and the
 * answer is then not whole (`ParsedData.unreadable`, see `LeftOut`).
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
import type { CellValue, Dataset, RecordTable, SeriesChannel, TimeInterval } from '../../../../shared/data';
import { kindOf } from '../wire-kind';
import { canonicalBandName, canonicalValueName } from './names';
import { DATASET_NOUNS, fieldsOf, LeftOut, Problems, type Field, type UnreadableRecords } from './problems';
import {
  DURATION,
  MEASUREMENT_TIME_KEY,
  num,
  RECORD_SPECS,
  text,
  time,
  type ColumnSpec,
  type RecordSpec,
} from './record-specs';
import { leaveOutImplausible } from './plausibility';
import { buildChannel, type SampleWalk } from './series';
import { parseTimeHistory, type Answer } from './time-history';

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

/** The record's time: its `timeKey` field, or the fallback field when the spec has one and it is absent. */
function readRecordTime(problems: Problems, spec: RecordSpec, field: Field, where: string): number {
  const fallback = spec.timeFallbackKey;
  const key = fallback !== undefined && (field(spec.timeKey) ?? null) === null ? fallback : spec.timeKey;
  return problems.time(field(key), key, where, true) as number;
}

/** The table of parsed rows, carrying which column is the time and what each column holds. */
function tableOf(timeKey: string, columns: readonly ColumnSpec[], rows: Row[]): RecordTable {
  return {
    timeKey,
    columns: columns.map(({ key, label, unit, type }) => ({ key, label, unit, type })),
    rows,
  };
}

/** Keeps rows whose time lies in their answer's interval, joined in time order. */
function clipAndSort(pieces: Array<{ rows: Row[]; interval: TimeInterval | null }>, timeKey: string): Row[] {
  const rows: Row[] = [];
  for (const piece of pieces) {
    for (const row of piece.rows) {
      const t = row[timeKey] as number;
      if (piece.interval === null || (t >= piece.interval.start && t < piece.interval.end)) rows.push(row);
    }
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
  /**
   * What was left out and why, one plain sentence each: implausible levels, another instrument's
   * records. The answer is whole all the same.
   */
  notes: string[];
  /** Records that could not be read (garbled on the way): the answer is NOT whole. */
  unreadable: UnreadableRecords | null;
}

type Parsed = Pick<ParsedData, 'series' | 'records'>;

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
  leftOut: LeftOut,
): Parsed {
  const spec = RECORD_SPECS[dataset];
  const problems = new Problems(DATASET_NOUNS[dataset], options.redact);
  const known = new Set(['instrument', ...spec.columns.map((c) => c.key.toLowerCase())]);
  const extra: ColumnSpec[] = [];
  const extraKeys = new Set<string>();
  const pieces = answers.map((answer) => {
    const rows: Row[] = [];
    problems.list(answer.data).forEach((item, r) => {
      const where = `record ${r + 1}`;
      if (leftOut.skip(item, where)) return;
      const object = problems.object(item, where);
      const field = fieldsOf(object);
      if (leftOut.otherInstrument(field)) return;
      const row: Row = {};
      for (const column of spec.columns) {
        row[column.key] =
          column.key === spec.timeKey
            ? readRecordTime(problems, spec, field, where)
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
      rows.push(row);
    });
    return { rows, interval: answer.interval };
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
    records: tableOf(spec.timeKey, columns, rows),
  };
}

/** Noise and frequency measurement records: one column and one series per value or band. */
function parseMeasurementAnswers(
  dataset: 'noiseMeasurements' | 'frequencyMeasurements',
  answers: readonly Answer[],
  options: ParseOptions,
  leftOut: LeftOut,
): Parsed {
  const problems = new Problems(DATASET_NOUNS[dataset], options.redact);
  const canonical = dataset === 'frequencyMeasurements' ? canonicalBandName : canonicalValueName;
  const valueColumns: string[] = [];
  const seen = new Set<string>();
  const typeColumns = new Set<string>();
  const pieces = answers.map((answer) => {
    const rows: Row[] = [];
    problems.list(answer.data).forEach((item, r) => {
      const where = `record ${r + 1}`;
      if (leftOut.skip(item, where)) return;
      const field = fieldsOf(problems.object(item, where));
      if (leftOut.otherInstrument(field)) return;
      const startTime = problems.time(
        field(MEASUREMENT_TIME_KEY),
        MEASUREMENT_TIME_KEY,
        where,
        true,
      ) as number;
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
    });
    return { rows, interval: answer.interval };
  });
  const rows = clipAndSort(pieces, MEASUREMENT_TIME_KEY);
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
    series: rowSeries(rows, columns, MEASUREMENT_TIME_KEY, slotEnd, rangeOf(answers)),
    records: tableOf(MEASUREMENT_TIME_KEY, columns, rows),
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
  const leftOut = new LeftOut(options.serial);
  const parsed = parseAnswers(dataset, answers, options, leftOut);
  const checked = leaveOutImplausible(dataset, parsed.series, parsed.records);
  const noun = DATASET_NOUNS[dataset];
  return {
    ...checked,
    notes: [...leftOut.notes(noun, options.redact), ...checked.notes],
    unreadable: leftOut.unreadable(noun, options.redact),
  };
}

function parseAnswers(
  dataset: Dataset,
  answers: readonly Answer[],
  options: ParseOptions,
  leftOut: LeftOut,
): Parsed {
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
            leftOut,
          },
          options.redact,
        ),
        records: null,
      };
    case 'noiseMeasurements':
    case 'frequencyMeasurements':
      return parseMeasurementAnswers(dataset, answers, options, leftOut);
    default:
      return parseRecordAnswers(dataset, answers, options, leftOut);
  }
}
