/**
 * Finding a secret's needles (secret-spellings.ts) in a text fast: one short expression per group of
 * needles finds the first or last `core` units of any of them, and only where one is found is the
 * match extended, unit by unit, to the whole secret or as much of its start or end as is there. A
 * long enough prefix or suffix (an echo cut short: "key fD7+q/Z9=k~L… is rate limited") is replaced
 * as well; overlapping matches become one.
 */
import type { Redact } from './secrets';
import { needlesOf, type Needle } from './secret-spellings';

/** A needle's units from `start` to `end` as one expression. */
function unitsPattern({ units, between }: Needle, start: number, end: number): string {
  const joint = between === null ? '' : `${between}*`;
  return units
    .slice(start, end)
    .map((spellings) => `(?:${spellings.join('|')})`)
    .join(joint);
}

/** A spelling (or a `between`) tried where a match may go on: after it (sticky), or before it (a lookbehind). */
interface Matchers {
  after: RegExp;
  before: RegExp;
}

/** Shared by every redactor: the spellings are those of the characters secrets are made of. */
const matcherCache = new Map<string, Matchers>();

function matchersOf(source: string): Matchers {
  let matchers = matcherCache.get(source);
  if (matchers === undefined) {
    matchers = { after: new RegExp(source, 'y'), before: new RegExp(`(?<=(${source}))`, 'y') };
    matcherCache.set(source, matchers);
  }
  return matchers;
}

/** Where `source` matches from `position` onwards (`forward`), or up to it: the other end, or `null`. */
function step(source: string, text: string, position: number, forward: boolean): number | null {
  const { after, before } = matchersOf(source);
  const matcher = forward ? after : before;
  matcher.lastIndex = position;
  const found = matcher.exec(text);
  if (found === null) return null;
  return forward ? position + found[0].length : position - found[1]!.length;
}

/**
 * How far a match of a needle's first (`forward`) or last `core` units reaches once every unit
 * that follows (or comes before) it is taken. Every spelling of each unit is tried from every place
 * the units so far may have ended (a unit's spellings may begin alike: `%` and `%25`, `&` and
 * `&amp;`), so no greedy choice stops it short; the farthest place reached is the answer.
 */
function extend(item: Needle, text: string, from: number, forward: boolean): number {
  const { units, between, core } = item;
  const order = forward ? units.slice(core) : units.slice(0, units.length - core).reverse();
  let places = new Set([from]);
  let farthest = from;
  for (const spellings of order) {
    if (between !== null) {
      for (const place of [...places]) {
        const past = step(`${between}+`, text, place, forward);
        if (past !== null) places.add(past);
      }
    }
    const next = new Set<number>();
    for (const place of places) {
      for (const spelling of spellings) {
        const past = step(spelling, text, place, forward);
        if (past !== null) next.add(past);
      }
    }
    if (next.size === 0) break;
    places = next;
    for (const place of next) farthest = forward ? Math.max(farthest, place) : Math.min(farthest, place);
  }
  return farthest;
}

interface Target {
  needle: Needle;
  side: 'prefix' | 'suffix';
}

/** One expression for the cores of some needles, and which needle each of its groups is. */
interface Scanner {
  pattern: RegExp;
  targets: readonly Target[];
}

function scannerOf(needles: readonly Needle[]): Scanner | null {
  const targets: Target[] = [];
  const alternatives: string[] = [];
  for (const item of needles) {
    const { units, core } = item;
    alternatives.push(`(${unitsPattern(item, 0, core)})`);
    targets.push({ needle: item, side: 'prefix' });
    if (core < units.length) {
      alternatives.push(`(${unitsPattern(item, units.length - core, units.length)})`);
      targets.push({ needle: item, side: 'suffix' });
    }
  }
  return targets.length === 0 ? null : { pattern: new RegExp(alternatives.join('|'), 'g'), targets };
}

/** Where `scanner` finds a secret in `text`, each match extended as far as the secret goes. */
function rangesIn(text: string, { pattern, targets }: Scanner, ranges: Array<[number, number]>): void {
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
    const target = targets[found.findIndex((group, i) => i > 0 && group !== undefined) - 1]!;
    let start = found.index;
    let end = start + found[0].length;
    if (target.side === 'prefix') end = extend(target.needle, text, end, true);
    else start = extend(target.needle, text, start, false);
    ranges.push([start, end]);
    // On from a core's length before the end, not the end: a needle that stopped here may share
    // its start with another that goes on (two keys made alike), whose suffix is then found.
    pattern.lastIndex = Math.max(found.index + 1, end - found[0].length);
  }
}

/**
 * A redactor of secrets that share a label. Expressions find the first or last `core` units of any
 * needle (short, so every text is scanned fast); only where one is found is the match extended to
 * the whole secret, or as much of its start or end as is there. Overlapping matches become one.
 */
export function needleRedactor(secrets: readonly string[], label: string): Redact {
  const needles = secrets.flatMap(needlesOf);
  const scanners = [
    scannerOf(needles.filter((item) => !item.hex)),
    scannerOf(needles.filter((item) => item.hex)),
  ].filter((scanner) => scanner !== null);
  return (text) => {
    const ranges: Array<[start: number, end: number]> = [];
    for (const scanner of scanners) rangesIn(text, scanner, ranges);
    if (ranges.length === 0) return text;
    ranges.sort((a, b) => a[0] - b[0]);
    let result = '';
    let done = 0;
    let [open, close] = ranges[0]!;
    for (const [start, end] of ranges) {
      if (start < close) {
        close = Math.max(close, end);
        continue;
      }
      result += text.slice(done, open) + label;
      done = close;
      [open, close] = [start, end];
    }
    return result + text.slice(done, open) + label + text.slice(close);
  };
}
