/**
 * A secret as a service or a URL may carry it, spelled here independently of core/secrets.ts, and a
 * search for what is left of it in a text: the tests of the redactor and of every place text is
 * kept use both.
 */
import { randomBytes } from 'node:crypto';

const hex = (byte: number) => byte.toString(16).padStart(2, '0');
const percentEach = (secret: string, upper: boolean) =>
  [...Buffer.from(secret)].map((byte) => `%${upper ? hex(byte).toUpperCase() : hex(byte)}`).join('');
const jsonEscapeEach = (secret: string, upper: boolean) =>
  [...secret]
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .map((escape) => (upper ? escape.toUpperCase().replace('\\U', '\\u') : escape))
    .join('');
/** Every other character escaped: an echo that escapes some characters only. */
const jsonEscapeSome = (secret: string) =>
  [...secret]
    .map((c, i) => (i % 2 === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
    .join('');

/** HTML's names for the characters a key may hold (a few have two: either may be met). */
const HTML_NAMES: Readonly<Record<string, string>> = {
  '!': '&excl;',
  '"': '&quot;',
  '#': '&num;',
  $: '&dollar;',
  '%': '&percnt;',
  '&': '&amp;',
  "'": '&apos;',
  '(': '&lpar;',
  ')': '&rpar;',
  '*': '&ast;',
  '+': '&plus;',
  ',': '&comma;',
  '.': '&period;',
  '/': '&sol;',
  ':': '&colon;',
  ';': '&semi;',
  '<': '&LT;',
  '=': '&equals;',
  '>': '&gt;',
  '?': '&quest;',
  '@': '&commat;',
  '[': '&lbrack;',
  '\\': '&bsol;',
  ']': '&rsqb;',
  '^': '&Hat;',
  _: '&lowbar;',
  '`': '&grave;',
  '{': '&lcub;',
  '|': '&verbar;',
  '}': '&rbrace;',
};
const htmlEach = (secret: string, reference: (code: number) => string) =>
  [...secret].map((c) => reference(c.codePointAt(0)!)).join('');
/** What an HTML template does to text: `&`, `<`, `>`, `"` and `'` escaped, the rest as it is. */
const htmlEscaped = (secret: string) =>
  secret.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Line breaks every `width` characters (MIME wraps base64 at 76; short here, so one falls inside a key). */
export const wrapped = (text: string, width: number, lineBreak: string) =>
  text.match(new RegExp(`[^]{1,${width}}`, 'g'))!.join(lineBreak);

/**
 * The secret in `bytesBefore` random bytes and 3 after, as base64 (or base64url): what a token or a
 * blob holding the secret looks like.
 */
export function embeddedBase64(secret: string, bytesBefore: number, url: boolean): string {
  const bytes = Buffer.concat([randomBytes(bytesBefore), Buffer.from(secret), randomBytes(3)]);
  // Without padding: inside a longer string there is none.
  return bytes.toString(url ? 'base64url' : 'base64').replace(/=+$/, '');
}

/**
 * Text spellings of the secret: each one decodes (URL once or twice, form, JSON string, HTML, hex)
 * to the secret itself.
 */
export function textSpellings(secret: string): Record<string, string> {
  return {
    literal: secret,
    encodeURIComponent: encodeURIComponent(secret),
    form: new URLSearchParams({ k: secret }).toString().slice(2),
    percentUpper: percentEach(secret, true),
    percentLower: percentEach(secret, false),
    jsonEscapedLower: jsonEscapeEach(secret, false),
    jsonEscapedUpper: jsonEscapeEach(secret, true),
    jsonEscapedSome: jsonEscapeSome(secret),
    hexLower: Buffer.from(secret).toString('hex'),
    hexUpper: Buffer.from(secret).toString('hex').toUpperCase(),
    encodeURIComponentTwice: encodeURIComponent(encodeURIComponent(secret)),
    percentTwiceUpper: percentEach(secret, true).replace(/%/g, '%25'),
    percentTwiceLower: percentEach(secret, false).replace(/%/g, '%25'),
    htmlEscaped: htmlEscaped(secret),
    htmlNamed: [...secret].map((c) => HTML_NAMES[c] ?? c).join(''),
    htmlDecimal: htmlEach(secret, (code) => `&#${code};`),
    htmlDecimalPadded: htmlEach(secret, (code) => `&#${String(code).padStart(5, '0')};`),
    // HTML reads a numeric reference without its `;` when no digit follows (here the next `&`).
    htmlDecimalBare: htmlEach(secret, (code) => `&#${code}`),
    htmlHexLower: htmlEach(secret, (code) => `&#x${code.toString(16)};`),
    htmlHexUpper: htmlEach(secret, (code) => `&#X${code.toString(16).toUpperCase()};`),
    htmlHexPadded: htmlEach(secret, (code) => `&#x${code.toString(16).padStart(6, '0')};`),
  };
}

/** How much of a key a cut-short echo holds (a 429 named the first 12 characters). */
export const FRAGMENT_LENGTH = 12;

/**
 * The text spellings; the base64 ones at every byte alignment, also wrapped with CR-LF or LF line
 * breaks; and the key's first and last `FRAGMENT_LENGTH` characters alone; by name.
 */
export function allSpellings(secret: string): Record<string, string> {
  const spellings: Record<string, string> = { ...textSpellings(secret) };
  for (const before of [0, 1, 2]) {
    spellings[`base64+${before}`] = embeddedBase64(secret, before, false);
    spellings[`base64url+${before}`] = embeddedBase64(secret, before, true);
    spellings[`base64 wrapped CR-LF+${before}`] = wrapped(embeddedBase64(secret, before, false), 16, '\r\n');
    spellings[`base64url wrapped LF+${before}`] = wrapped(embeddedBase64(secret, before, true), 16, '\n');
  }
  spellings['prefix'] = secret.slice(0, FRAGMENT_LENGTH);
  spellings['suffix'] = secret.slice(-FRAGMENT_LENGTH);
  return spellings;
}

/**
 * What betrays the secret in a text: each text spelling whole (and as it looks inside JSON text),
 * and of each base64 spelling its middle, which only the secret's bits decide (the first 3
 * characters may hold bits of the bytes before, the last 5 of the bytes after).
 */
export function telltales(spellings: Record<string, string>): Map<string, string> {
  const found = new Map<string, string>();
  for (const [name, spelling] of Object.entries(spellings)) {
    const core = name.startsWith('base64') ? spelling.slice(3, -5) : spelling;
    found.set(name, core);
    found.set(`${name} in JSON`, JSON.stringify(core).slice(1, -1));
  }
  return found;
}

/** The names of the telltales `text` holds (none, when the secret left no trace). */
export function tracesIn(text: string, spellings: Record<string, string>): string[] {
  return [...telltales(spellings)].filter(([, telltale]) => text.includes(telltale)).map(([name]) => name);
}
