/** Time history answers (noise, frequency bands, event time history) as one channel per value or band. */
import type { SeriesChannel, TimeInterval } from '../../../../shared/data';
import { readNumber } from '../../../../shared/service/reading';
import { kindOf } from '../wire-kind';
import { canonicalBandName, canonicalValueName } from './names';
import { fieldsOf, LeftOut, Problems, quote } from './problems';
import { TOLERANCE_MS } from './series';

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
  options: {
    noun: string;
    serial: string | null;
    frequency: boolean;
    range: TimeInterval | null;
    /**
     * Given, placeholders are tolerated and said here instead of refusing the answer: text where a
     * reading should be becomes a gap, a block that is not an object is left out. The documented
     * event time history carries such placeholders ("string") among its numbers and blocks.
     */
    notes?: string[];
    /**
     * Counts the records (one value or band set each) left out: those that could not be read, and
     * those of another instrument. Without it, those are left out uncounted.
     */
    leftOut?: LeftOut;
  },
  redact?: (text: string) => string,
): SeriesChannel[] {
  const problems = new Problems(options.noun, redact);
  const leftOut = options.leftOut ?? new LeftOut(options.serial);
  const tolerant = options.notes !== undefined;
  let placeholderReadings = 0;
  let placeholderBlocks = 0;
  const channels = new Map<string, Block[]>();
  const add = (name: string, block: Block) => {
    let blocks = channels.get(name);
    if (blocks === undefined) channels.set(name, (blocks = []));
    blocks.push(block);
  };
  for (const answer of answers) {
    const clip = options.range === null ? null : answer.interval;
    problems.list(answer.data).forEach((item, r) => {
      if (leftOut.skip(item, `record ${r + 1}`)) return;
      const record = fieldsOf(problems.object(item, `record ${r + 1}`));
      if (leftOut.otherInstrument(record)) return;
      const type = problems.text(record('type')) ?? '';
      const blocks = record('blocks') ?? [];
      if (!Array.isArray(blocks))
        problems.fail(`whose blocks are ${kindOf(blocks)} instead of a list (record ${r + 1}).`);
      (blocks as unknown[]).forEach((rawBlock, b) => {
        const where = `record ${r + 1}, block ${b + 1}`;
        if (tolerant && (rawBlock === null || typeof rawBlock !== 'object' || Array.isArray(rawBlock))) {
          placeholderBlocks += 1;
          return;
        }
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
          if (Array.isArray(values)) return values;
          if (tolerant) {
            placeholderBlocks += 1;
            return [];
          }
          return problems.fail(`whose ${field} is ${kindOf(values)} instead of a list (${where}).`);
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
    const value = (block: Block, raw: unknown): number => {
      if (raw === null) return Number.NaN;
      if (tolerant && !readNumber(raw).ok) {
        placeholderReadings += 1;
        return Number.NaN;
      }
      return problems.number(raw, 'blocks.values', block.where) ?? Number.NaN;
    };
    series.push(blockChannel(name, blocks, options.range, value));
  }
  if (placeholderReadings > 0) {
    options.notes?.push(
      `The service sent ${placeholderReadings === 1 ? 'one reading' : `${placeholderReadings} readings`} as text instead of a number; ${placeholderReadings === 1 ? 'it shows' : 'they show'} as a gap.`,
    );
  }
  if (placeholderBlocks > 0) {
    options.notes?.push(
      `The service sent ${placeholderBlocks === 1 ? 'a block' : `${placeholderBlocks} blocks`} of readings that could not be read; ${placeholderBlocks === 1 ? 'it is' : 'they are'} left out.`,
    );
  }
  return series;
}

/**
 * One channel from its blocks (sorted by start), with the gap convention of `buildChannel` (one
 * NaN where readings stop before the next start, and at the edges of the range): the same points
 * as visiting every sample, but block by block. Within a block the times are `start + i·step`
 * with step > 0, so they rise and follow each other without a gap by construction: only a block's
 * first kept sample can need a marker or fall on a time already taken, and the rest is one plain
 * loop (a week of 1 s levels is 604,800 samples; checking each took most of the parse).
 */
function blockChannel(
  name: string,
  blocks: readonly Block[],
  range: TimeInterval | null,
  slowValue: (block: Block, raw: unknown) => number,
): SeriesChannel {
  // Readings, plus at most one marker per block, one at the start and one at the end.
  const capacity = blocks.reduce((sum, block) => sum + block.values.length + 1, 2);
  const times = new Float64Array(capacity);
  const values = new Float32Array(capacity);
  let k = 0;
  let lastTime = -Infinity;
  let lastEnd = Number.NaN;
  for (const block of blocks) {
    const { start, step, clip } = block;
    const raw = block.values;
    // The first sample after what is kept already and inside the block's interval.
    let i = 0;
    while (i < raw.length) {
      const time = start + i * step;
      if (time > lastTime && (clip === null || time >= clip.start)) break;
      i++;
    }
    if (i >= raw.length || (clip !== null && start + i * step >= clip.end)) continue;
    const first = start + i * step;
    if (lastTime > -Infinity) {
      if (first > lastEnd + TOLERANCE_MS) {
        times[k] = lastEnd;
        values[k++] = Number.NaN;
      }
    } else if (range !== null && first >= range.start + (first + step - first)) {
      times[k] = range.start;
      values[k++] = Number.NaN;
    }
    for (; i < raw.length; i++) {
      const time = start + i * step;
      if (clip !== null && time >= clip.end) break;
      if (time <= lastTime) continue; // a step too small to move the time: the first one kept
      const reading = raw[i];
      times[k] = time;
      values[k++] = typeof reading === 'number' ? reading : slowValue(block, reading);
      lastTime = time;
    }
    lastEnd = lastTime + step;
  }
  if (k > 0 && range !== null && lastEnd < range.end - TOLERANCE_MS) {
    times[k] = lastEnd;
    values[k++] = Number.NaN;
  }
  // Views of the first k when the room left is a few markers' worth: copying 12 bytes a sample was a
  // tenth of the parse of a week. Copies when clipping left much of it unused, so no series keeps
  // (or sends to the window) a buffer far larger than itself.
  if (2 * k >= capacity)
    return { name, unit: 'dB', times: times.subarray(0, k), values: values.subarray(0, k) };
  return { name, unit: 'dB', times: times.slice(0, k), values: values.slice(0, k) };
}
