/**
 * Reading the fields of a data answer tolerantly (names in any letter case, numbers sent as text)
 * and naming exactly what was wrong when a field cannot be read.
 */
import type { Dataset } from '../../../../shared/data';
import { FieldDeskError } from '../../../../shared/errors';
import { cutForDisplay, readBoolean, readNumber } from '../../../../shared/service/reading';
import { parseServiceTime } from '../../../../shared/service/time';
import { UnreadableItem } from '../answers';
import { kindOf } from '../wire-kind';

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

export type WireObject = Record<string, unknown>;
export type Field = (name: string) => unknown;

const isObject = (value: unknown): value is WireObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Field access by name, exact case first, then regardless of case (built only when needed). */
export function fieldsOf(object: WireObject): Field {
  let lower: Map<string, unknown> | undefined;
  return (name) => {
    if (Object.hasOwn(object, name)) return object[name];
    lower ??= new Map(Object.entries(object).map(([key, value]) => [key.toLowerCase(), value]));
    return lower.get(name.toLowerCase());
  };
}

export const quote = (value: unknown): string =>
  typeof value === 'string' ? ` ("${value.slice(0, 40)}")` : typeof value === 'number' ? ` (${value})` : '';

/** Throws `badResponse` for what the service sent in `noun`; `where` says which record. */
export class Problems {
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

  /** A number, or one sent as text (the one rule of reading.ts); null for "no reading". */
  number(value: unknown, field: string, where: string): number | null {
    const read = readNumber(value);
    if (read.ok) return read.value;
    return this.fail(`whose ${field} is ${kindOf(value)}${quote(value)} instead of a number (${where}).`);
  }

  boolean(value: unknown, field: string, where: string): boolean | null {
    const read = readBoolean(value);
    if (read.ok) return read.value;
    return this.fail(
      `whose ${field} is ${kindOf(value)}${quote(value)} instead of true or false (${where}).`,
    );
  }

  /** Text as sent (ids must stay whole); a number or flag as text; anything else as short JSON. */
  text(value: unknown): string | null {
    if (value === null || value === undefined) return null;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    try {
      return cutForDisplay(JSON.stringify(value));
    } catch {
      // Nested deeper than JSON.stringify's stack: say so rather than fail the whole answer.
      return '(nested too deeply to show)';
    }
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
export function otherInstrument(field: Field, serial: string | null): boolean {
  if (serial === null) return false;
  const instrument = field('instrument');
  return typeof instrument === 'string' && instrument.toLowerCase() !== serial.toLowerCase();
}

/** What an answer's records that could not be read come to: the chunk is not whole. */
export interface UnreadableRecords {
  /** Records left out because they could not be read. */
  records: number;
  /** One plain sentence: how many of how many, the first problems, and that they are asked again. */
  message: string;
}

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

/**
 * The records of a data answer that are left out, and why, counted as the parsers go:
 *
 * - records that could not be read (`UnreadableItem`: a field twice, a text longer than any field)
 *   may have been garbled on the way, and what they held is unknown: the answer is not whole, is
 *   never stored as covered, and is asked for again (`unreadable()`);
 * - records naming another instrument were read; they are not the one asked for, so they are not
 *   shown, and a note says so (asking again would bring them back the same);
 * - readable values that cannot be right (a level outside what an instrument measures) are another
 *   matter again, left to plausibility.ts: the service did send them, so the answer is whole and a
 *   note says what is not shown.
 */
export class LeftOut {
  private seen = 0;
  private garbled = 0;
  private readonly problems: string[] = [];
  private others = 0;
  private readonly otherSerials = new Set<string>();

  constructor(private readonly serial: string | null) {}

  /**
   * Counts a top-level record; true when it is to be left out: it could not be read, or (once its
   * fields can be read, `field` given) it names another instrument.
   */
  skip(item: unknown, where: string): boolean {
    this.seen++;
    if (!(item instanceof UnreadableItem)) return false;
    this.garbled++;
    if (this.problems.length < 2) this.problems.push(`${where}: ${item.problem}`);
    return true;
  }

  /** True (and counted) when a readable record names another instrument. */
  otherInstrument(field: Field): boolean {
    if (!otherInstrument(field, this.serial)) return false;
    this.others++;
    if (this.otherSerials.size < 3) this.otherSerials.add(String(field('instrument')).slice(0, 40));
    return true;
  }

  /** The records that could not be read, or null when every record was read. */
  unreadable(noun: string, redact: (text: string) => string = (text) => text): UnreadableRecords | null {
    if (this.garbled === 0) return null;
    const more = this.garbled - this.problems.length;
    const examples = `${this.problems.join('; ')}${more > 0 ? `; ${count(more, 'more')}` : ''}`;
    return {
      records: this.garbled,
      message: redact(
        `${count(this.garbled, 'record')} of the ${this.seen.toLocaleString('en-GB')} the service sent (${noun}) could not be read and ${this.garbled === 1 ? 'is' : 'are'} left out (${examples}). FieldDesk asks for ${this.garbled === 1 ? 'it' : 'them'} again.`,
      ),
    };
  }

  /** Notes on readable records that are not shown (another instrument's). */
  notes(noun: string, redact: (text: string) => string = (text) => text): string[] {
    if (this.others === 0) return [];
    return [
      redact(
        `The service sent ${count(this.others, 'record')} of another instrument (${[...this.otherSerials].join(', ')}) with the ${noun}; ${this.others === 1 ? 'it is' : 'they are'} not shown.`,
      ),
    ];
  }
}
