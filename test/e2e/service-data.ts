/**
 * What the demo service itself answers, asked over HTTP as any client would: the expected values of
 * the end-to-end chart tests come from here, never from the app under test or from pasted numbers.
 */
import type { RunningDemoService } from '../../src/simulator';

export type WireRecord = Record<string, unknown>;

/** Epoch ms → reading, for one channel. */
export type Samples = Map<number, number>;

export class ServiceData {
  constructor(
    private readonly service: RunningDemoService,
    private readonly key: string,
  ) {}

  /** GET `path` (e.g. `/data/gases`) for one instrument over [start, end), with further parameters. */
  async get<T = WireRecord[]>(
    path: string,
    serial: string,
    range: { start: number; end: number },
    more: Record<string, string> = {},
  ): Promise<T> {
    const query = new URLSearchParams({
      instruments: serial,
      start: new Date(range.start).toISOString(),
      end: new Date(range.end).toISOString(),
      ...more,
    });
    const response = await fetch(`${this.service.baseUrl}${path}?${query}`, {
      headers: { 'X-Api-Key': this.key },
    });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** GET without an instrument or a range (e.g. an event's own time history). */
  async getPath<T>(path: string): Promise<T> {
    const response = await fetch(`${this.service.baseUrl}${path}`, { headers: { 'X-Api-Key': this.key } });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }
}

const epochOf = (text: unknown): number => Date.parse(String(text));

/** One field of records timed by `timeKey` (`pM2p5` by `startTime`); records without a number skipped. */
export function recordSamples(records: readonly WireRecord[], timeKey: string, field: string): Samples {
  const samples: Samples = new Map();
  for (const record of records) {
    const value = record[field];
    if (typeof value === 'number') samples.set(epochOf(record[timeKey]), value);
  }
  return samples;
}

/** One value of noise or frequency measurement records (`values: [{ name, value }]`), by start time. */
export function measurementSamples(records: readonly WireRecord[], name: string): Samples {
  const samples: Samples = new Map();
  for (const record of records) {
    const values = record['values'] as Array<{ name: string; value: unknown }>;
    const found = values.find((v) => v.name === name);
    if (typeof found?.value === 'number') samples.set(epochOf(record['startTime']), found.value);
  }
  return samples;
}

export interface WireBlock {
  start: string;
  sampleDuration: number;
  values?: unknown[];
  bands?: Array<{ name: string; values: unknown[] }>;
}

/** The samples of time-history blocks (`{ start, sampleDuration, values }`), numbers only. */
export function blockSamples(blocks: readonly WireBlock[], band?: string): Samples {
  const samples: Samples = new Map();
  for (const block of blocks) {
    const values = band === undefined ? block.values : block.bands?.find((b) => b.name === band)?.values;
    (values ?? []).forEach((value, i) => {
      if (typeof value === 'number') samples.set(epochOf(block.start) + i * block.sampleDuration, value);
    });
  }
  return samples;
}

/** Samples inside [start, end). */
export function within(samples: Samples, range: { start: number; end: number }): Samples {
  return new Map([...samples].filter(([t]) => t >= range.start && t < range.end));
}

/** The energetic mean of levels in dB: 10·log10 of the mean of 10^(L/10). */
export function energeticMean(levels: readonly number[]): number {
  return 10 * Math.log10(levels.reduce((sum, level) => sum + 10 ** (level / 10), 0) / levels.length);
}

/** Digits after the decimal point of a number as written ("0.0021" → 4, "64" → 0). */
export function decimalsOf(text: string): number {
  return /\.(\d+)/.exec(text)?.[1]?.length ?? 0;
}
