/**
 * Secrets (API keys, webhook secrets) kept out of every text FieldDesk keeps or shows: the service's
 * answers and messages, pushed events, the log and the diagnostics. A service or a URL may carry a
 * secret in many spellings, so a redactor matches each of them:
 *
 * - literal;
 * - URL-encoded: `encodeURIComponent`, form encoding (`+` for a space), any character as a `%XX`
 *   escape of its UTF-8 bytes, in upper or lower case, and percent-encoded twice (`%252B`);
 * - JSON-escaped: any character as `\uXXXX` (either case) or its short escape (`\"`, `\\`, `\/`);
 * - HTML character references: decimal (`&#43;`), hex (`&#x2B;`, either case, leading zeros or
 *   not) and named where HTML has a name (`&amp;`, `&lt;`, `&plus;`…);
 * - hex of its UTF-8 bytes, in either case;
 * - base64 and base64url of its UTF-8 bytes at each of the three byte alignments, i.e. as it appears
 *   inside a longer base64 string (only the characters the secret's bits alone decide), also when
 *   wrapped with line breaks (MIME's 76 columns, a folded `Authorization: Basic` header).
 *
 * Each character may take any of its spellings independently, so a mix (an echo that escapes some
 * characters and not others, a base64 fragment percent-encoded in a query) is caught too. A long
 * enough prefix or suffix of any of these (an echo cut short: "key fD7+q/Z9=k~L… is rate limited")
 * is replaced as well.
 */

/** Text in, the same text with every secret replaced by a label such as `[API key]`. */
export type Redact = (text: string) => string;

/** What a secret is, as its replacement says it: `[API key]`, `[webhook secret]`. */
export type SecretKind = 'API key' | 'webhook secret' | 'team password';

/**
 * Secrets shorter than this are not redacted: no service issues one, and replacing every occurrence
 * of one to three characters would garble every text (and every answer) FieldDesk reads.
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * A prefix or suffix of a secret at least this many characters long is redacted on its own. Eight
 * characters of a random key (about 52 bits) never turn up in text by chance, so nothing else is
 * garbled; shorter pieces would start to match ordinary words and numbers, and the service's echo
 * that was measured (a 429 naming the key's first 12 characters) is longer. What FieldDesk itself
 * shows of a key in a message is stricter still (`KeyRedactor.inMessage`).
 */
export const MIN_FRAGMENT_LENGTH = 8;

/** Base64 fragments shorter than this would match ordinary words and data; longer secrets give longer ones. */
const MIN_BASE64_FRAGMENT = 6;

/**
 * The base64 characters any `MIN_FRAGMENT_LENGTH` bytes decide alone, at the worst alignment:
 * 64 bits hold 10 whole 6-bit characters at every offset.
 */
const BASE64_FRAGMENT_CORE = Math.floor((8 * MIN_FRAGMENT_LENGTH - 4) / 6);

/**
 * What may stand between two base64 characters, any number of times: line breaks and the spaces of
 * a folded header (`Authorization: Basic` wrapped at 76 columns), raw, JSON-escaped (an answer is
 * redacted before it is parsed) or percent-encoded.
 */
const BASE64_GAP = String.raw`(?:[\r\n\t ]|\\[rnt]|%0[9AaDd]|%20)`;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A hex digit in either case: `b` → `[Bb]`. */
const hexDigitPattern = (digit: string): string =>
  /[a-f]/i.test(digit) ? `[${digit.toUpperCase()}${digit.toLowerCase()}]` : digit;

/** A hex byte or code unit, each letter digit in either case: `4B` → `4[Bb]`. */
function hexPattern(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0').split('').map(hexDigitPattern).join('');
}

const JSON_SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * HTML's named character references for the characters a key or secret may hold (HTML's entity
 * list: every name of a printable ASCII character, tab and line feed). Names are case-sensitive.
 */
const HTML_NAMES: Readonly<Record<string, readonly string[]>> = {
  '\t': ['Tab'],
  '\n': ['NewLine'],
  '!': ['excl'],
  '"': ['quot', 'QUOT'],
  '#': ['num'],
  $: ['dollar'],
  '%': ['percnt'],
  '&': ['amp', 'AMP'],
  "'": ['apos'],
  '(': ['lpar'],
  ')': ['rpar'],
  '*': ['ast', 'midast'],
  '+': ['plus'],
  ',': ['comma'],
  '.': ['period'],
  '/': ['sol'],
  ':': ['colon'],
  ';': ['semi'],
  '<': ['lt', 'LT'],
  '=': ['equals'],
  '>': ['gt', 'GT'],
  '?': ['quest'],
  '@': ['commat'],
  '[': ['lsqb', 'lbrack'],
  '\\': ['bsol'],
  ']': ['rsqb', 'rbrack'],
  '^': ['Hat'],
  _: ['lowbar', 'UnderBar'],
  '`': ['grave', 'DiacriticalGrave'],
  '{': ['lcub', 'lbrace'],
  '|': ['verbar', 'vert', 'VerticalLine'],
  '}': ['rcub', 'rbrace'],
};

/** Names HTML also reads without their `;` (its legacy references). */
const HTML_LEGACY_NAMES = new Set(['quot', 'QUOT', 'amp', 'AMP', 'lt', 'LT', 'gt', 'GT']);

/** Every spelling of one character (a code point), each a regular expression. */
function characterSpellings(character: string): string[] {
  const spellings = new Set<string>();
  const utf8 = [...new TextEncoder().encode(character)];
  // Twice before once: at a needle's end the longer escape must be taken whole.
  spellings.add(utf8.map((byte) => `%25${hexPattern(byte, 2)}`).join(''));
  spellings.add(utf8.map((byte) => `%${hexPattern(byte, 2)}`).join(''));
  if (character === ' ') spellings.add('%2[Bb]').add('\\+');
  const units = Array.from({ length: character.length }, (_, i) => character.charCodeAt(i));
  spellings.add(units.map((unit) => `\\\\u${hexPattern(unit, 4)}`).join(''));
  const short = JSON_SHORT_ESCAPES[character];
  if (short !== undefined) spellings.add(escapeRegExp(short));
  // HTML reads a numeric reference without its `;` too, when no digit follows.
  const codePoint = character.codePointAt(0)!;
  spellings.add(`&#0*${codePoint}(?:;|(?![0-9]))`);
  spellings.add(`&#[Xx]0*${hexPattern(codePoint, 1)}(?:;|(?![0-9A-Fa-f]))`);
  for (const name of HTML_NAMES[character] ?? []) {
    spellings.add(`&${name}${HTML_LEGACY_NAMES.has(name) ? ';?' : ';'}`);
  }
  // The literal last: `%`, `\` or `&` alone must not win over the escape it begins.
  spellings.add(escapeRegExp(character));
  return [...spellings];
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/=+$/, '');
}

/**
 * The secret's base64 as it appears inside a longer base64 string: for each alignment (0, 1 or 2
 * bytes before it), the characters made of the secret's bits only; in standard and URL alphabets.
 */
export function base64Fragments(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const fragments = new Set<string>();
  for (let before = 0; before < 3; before++) {
    const shifted = new Uint8Array(before + bytes.length);
    shifted.set(bytes, before);
    // Character i holds bits [6i, 6i + 6): keep those entirely within the secret's bits.
    const first = Math.ceil((8 * before) / 6);
    const end = Math.floor((8 * (before + bytes.length)) / 6);
    const fragment = base64(shifted).slice(first, end);
    if (fragment.length < MIN_BASE64_FRAGMENT) continue;
    fragments.add(fragment);
    fragments.add(fragment.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...fragments];
}

const BASE64_URL_CHARACTERS: Readonly<Record<string, string>> = { '+': '-', '/': '_' };

/**
 * A character of standard base64, or its base64url counterpart, in its spellings. A letter or digit
 * keeps the spellings it had before HTML and double encoding were added (`%XX`, `\uXXXX`): no
 * encoder writes those for a letter of a base64 string, and each one more, times ten characters of
 * every fragment, makes the expression slower to build.
 */
function base64CharacterSpellings(character: string): string[] {
  const url = BASE64_URL_CHARACTERS[character];
  if (url !== undefined) return [...characterSpellings(character), ...characterSpellings(url)];
  const code = character.charCodeAt(0);
  return [`%${hexPattern(code, 2)}`, `\\\\u${hexPattern(code, 4)}`, character];
}

/**
 * One way of writing a secret as a sequence of units (a character or a hex digit, each with its
 * spellings), with what may stand between two units. A whole needle, or a prefix or suffix of at
 * least `core` units, is a match.
 */
interface Needle {
  units: ReadonlyArray<readonly string[]>;
  /** A regular expression for one piece of what may stand between two units, or `null`. */
  between: string | null;
  core: number;
  /**
   * Hex is looked for by an expression of its own: its cores begin with digits, and one alternative
   * that does keeps the engine from skipping through numbers (most of an answer of readings).
   */
  hex: boolean;
}

function needle(
  units: ReadonlyArray<readonly string[]>,
  between: string | null,
  core: number,
  hex = false,
): Needle {
  return { units, between, core: Math.min(core, units.length), hex };
}

/** Every needle of a secret: its characters, its hex, its base64 fragments. */
function needlesOf(secret: string): Needle[] {
  const hex = [...new TextEncoder().encode(secret)].map((byte) => byte.toString(16).padStart(2, '0'));
  return [
    needle([...secret].map(characterSpellings), null, MIN_FRAGMENT_LENGTH),
    // Two digits a byte: a fragment of the hex holds as many bytes as one of the characters.
    needle(
      [...hex.join('')].map((digit) => [hexDigitPattern(digit)]),
      null,
      2 * MIN_FRAGMENT_LENGTH,
      true,
    ),
    // One needle for both alphabets (a mix is harmless): a needle that shared a prefix with another
    // would otherwise give up where they part.
    ...base64Fragments(secret)
      .filter((fragment) => !/[-_]/.test(fragment))
      .map((fragment) =>
        needle([...fragment].map(base64CharacterSpellings), BASE64_GAP, BASE64_FRAGMENT_CORE),
      ),
  ];
}

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
function needleRedactor(secrets: readonly string[], label: string): Redact {
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

/** A redactor for these secrets (each with its kind); secrets too short to be real are left out. */
export function createRedactor(secrets: Iterable<readonly [secret: string, kind: SecretKind]>): Redact {
  const byKind = new Map<SecretKind, string[]>();
  for (const [secret, kind] of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    byKind.set(kind, [...(byKind.get(kind) ?? []), secret]);
  }
  const passes = [...byKind].map(([kind, list]) => needleRedactor(list, `[${kind}]`));
  if (passes.length === 0) return (text) => text;
  return (text) => passes.reduce((result, pass) => pass(result), text);
}

/**
 * A run of more of a key's characters than this is never shown in a message: FieldDesk never
 * shows more of a key than its last four characters.
 */
export const KEY_CHARACTERS_SHOWN = 4;

/**
 * `text` with every run of more than `KEY_CHARACTERS_SHOWN` consecutive characters of `secret`
 * replaced by `label`. For short texts only (a message): it compares every position.
 */
function redactPieces(text: string, secret: string, label: string): string {
  const piece = KEY_CHARACTERS_SHOWN + 1;
  if (secret.length < piece) return text;
  const pieces = new Set<string>();
  for (let i = 0; i + piece <= secret.length; i++) pieces.add(secret.slice(i, i + piece));
  let result = '';
  let done = 0;
  let i = 0;
  while (i + piece <= text.length) {
    if (!pieces.has(text.slice(i, i + piece))) {
      i++;
      continue;
    }
    let end = i + piece;
    while (end < text.length && secret.includes(text.slice(i, end + 1))) end++;
    result += text.slice(done, i) + label;
    done = i = end;
  }
  return result + text.slice(done);
}

/** The redactor of one API key, with a stricter pass for what a message shows of the service's words. */
export interface KeyRedactor {
  (text: string): string;
  /**
   * For a short text shown as (part of) a message, e.g. a service's error description: besides
   * every spelling and long fragment, any run of more than `KEY_CHARACTERS_SHOWN` of the key's
   * characters. Too strict for answers (a run of five may well be data), right for a message.
   */
  inMessage(text: string): string;
}

/** Redactors for one API key, shared by the clients of an account (one is made per request). */
const keyRedactors = new Map<string, KeyRedactor>();
const KEY_REDACTORS_KEPT = 32;

/** The redactor of one API key (a service client's own), built once per key. */
export function apiKeyRedactor(apiKey: string): KeyRedactor {
  let redactor = keyRedactors.get(apiKey);
  if (redactor === undefined) {
    const redact = createRedactor([[apiKey, 'API key']]);
    redactor = Object.assign((text: string) => redact(text), {
      inMessage: (text: string) => redactPieces(redact(text), apiKey, '[API key]'),
    });
    if (keyRedactors.size >= KEY_REDACTORS_KEPT) keyRedactors.delete(keyRedactors.keys().next().value!);
    keyRedactors.set(apiKey, redactor);
  }
  return redactor;
}

const isPlainObject = (value: object): boolean => {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/**
 * `value` with every string in it (in plain objects and arrays, at any depth) redacted; the same
 * value when nothing changed. Typed arrays, dates and class instances are left as they are.
 */
export function redactStrings<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item: unknown) => {
      const redacted = redactStrings(item, redact);
      if (redacted !== item) changed = true;
      return redacted;
    });
    return (changed ? items : value) as T;
  }
  if (!isPlainObject(value)) return value;
  let changed = false;
  const entries = Object.entries(value).map(([name, item]: [string, unknown]) => {
    const redacted = redactStrings(item, redact);
    if (redacted !== item) changed = true;
    return [name, redacted] as const;
  });
  return (changed ? Object.fromEntries(entries) : value) as T;
}

/**
 * The secrets this backend has met (every API key a client was made with, every webhook secret
 * read or given), redacted from what leaves the backend: events, the log, the diagnostics.
 */
export interface SecretRegistry {
  add(secret: string, kind: SecretKind): void;
  redact: Redact;
  /** `redactStrings` with the secrets known now. */
  redactValue<T>(value: T): T;
}

export function createSecretRegistry(): SecretRegistry {
  const known = new Map<string, SecretKind>();
  let redactor: Redact = (text) => text;
  const redact: Redact = (text) => redactor(text);
  return {
    add(secret, kind) {
      if (secret.length < MIN_SECRET_LENGTH || known.get(secret) === kind) return;
      known.set(secret, kind);
      redactor = createRedactor(known);
    },
    redact,
    redactValue: (value) => (known.size === 0 ? value : redactStrings(value, redact)),
  };
}
