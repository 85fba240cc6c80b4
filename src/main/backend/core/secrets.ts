/**
 * Secrets (API keys, webhook secrets) kept out of every text FieldDesk keeps or shows: the service's
 * answers and messages, pushed events, the log and the diagnostics. A service or a URL may carry a
 * secret in many spellings, so a redactor matches each of them:
 *
 * - literal;
 * - URL-encoded: `encodeURIComponent`, form encoding (`+` for a space), any character as a `%XX`
 *   escape of its UTF-8 bytes, in upper or lower case;
 * - JSON-escaped: any character as `\uXXXX` (either case) or its short escape (`\"`, `\\`, `\/`);
 * - base64 and base64url of its UTF-8 bytes at each of the three byte alignments, i.e. as it appears
 *   inside a longer base64 string (only the characters the secret's bits alone decide).
 *
 * Each character may take any of its spellings independently, so a mix (an echo that escapes some
 * characters and not others, a base64 fragment percent-encoded in a query) is caught too.
 */

/** Text in, the same text with every secret replaced by a label such as `[API key]`. */
export type Redact = (text: string) => string;

/** What a secret is, as its replacement says it: `[API key]`, `[webhook secret]`. */
export type SecretKind = 'API key' | 'webhook secret';

/**
 * Secrets shorter than this are not redacted: no service issues one, and replacing every occurrence
 * of one to three characters would garble every text (and every answer) FieldDesk reads.
 */
export const MIN_SECRET_LENGTH = 4;

/** Base64 fragments shorter than this would match ordinary words and data; longer secrets give longer ones. */
const MIN_BASE64_FRAGMENT = 6;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A hex byte or code unit, each letter digit in either case: `4B` → `4[Bb]`. */
function hexPattern(value: number, digits: number): string {
  return value
    .toString(16)
    .toUpperCase()
    .padStart(digits, '0')
    .split('')
    .map((digit) => (/[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit))
    .join('');
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

/** Every spelling of one character (a code point) as a regular expression alternative. */
function characterPattern(character: string): string {
  const spellings = new Set<string>();
  const utf8 = new TextEncoder().encode(character);
  spellings.add([...utf8].map((byte) => `%${hexPattern(byte, 2)}`).join(''));
  if (character === ' ') spellings.add('\\+');
  const units = Array.from({ length: character.length }, (_, i) => character.charCodeAt(i));
  spellings.add(units.map((unit) => `\\\\u${hexPattern(unit, 4)}`).join(''));
  const short = JSON_SHORT_ESCAPES[character];
  if (short !== undefined) spellings.add(escapeRegExp(short));
  // The literal last: `%` or `\` alone must not win over the escape it begins.
  spellings.add(escapeRegExp(character));
  return `(?:${[...spellings].join('|')})`;
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

/** A regular expression source matching `secret` in every spelling (see the file's comment). */
export function secretPattern(secret: string): string {
  const needles = [secret, ...base64Fragments(secret)].sort((a, b) => b.length - a.length);
  return needles.map((needle) => [...needle].map(characterPattern).join('')).join('|');
}

/** A redactor for these secrets (each with its kind); secrets too short to be real are left out. */
export function createRedactor(secrets: Iterable<readonly [secret: string, kind: SecretKind]>): Redact {
  const byKind = new Map<SecretKind, string[]>();
  for (const [secret, kind] of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    byKind.set(kind, [...(byKind.get(kind) ?? []), secret]);
  }
  const passes = [...byKind].map(([kind, list]) => ({
    // Longer secrets first, so one that contains another is replaced whole.
    pattern: new RegExp(
      list
        .sort((a, b) => b.length - a.length)
        .map(secretPattern)
        .join('|'),
      'g',
    ),
    label: `[${kind}]`,
  }));
  if (passes.length === 0) return (text) => text;
  return (text) => passes.reduce((result, { pattern, label }) => result.replace(pattern, label), text);
}

/** Redactors for one API key, shared by the clients of an account (one is made per request). */
const keyRedactors = new Map<string, Redact>();
const KEY_REDACTORS_KEPT = 32;

/** The redactor of one API key (a service client's own), built once per key. */
export function apiKeyRedactor(apiKey: string): Redact {
  let redact = keyRedactors.get(apiKey);
  if (redact === undefined) {
    redact = createRedactor([[apiKey, 'API key']]);
    if (keyRedactors.size >= KEY_REDACTORS_KEPT) keyRedactors.delete(keyRedactors.keys().next().value!);
    keyRedactors.set(apiKey, redact);
  }
  return redact;
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
