/**
 * Every spelling of a secret a service or a URL may carry, as "needles" (secret-scanner.ts finds
 * them, secrets.ts says why they are looked for):
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
 * characters and not others, a base64 fragment percent-encoded in a query) is caught too.
 */

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
export interface Needle {
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
export function needlesOf(secret: string): Needle[] {
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
