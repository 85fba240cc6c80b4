/**
 * Looking at an answer's JSON text itself, where JSON.parse cannot say enough: whether text that
 * failed to parse is only cut off (every character right, the end missing), which JSON.parse's
 * error wording does not tell reliably ("[tru" fails at the `t`, "[1" at the end, "[-" elsewhere).
 */

const enum Expect {
  /** A value (the top level, after `:` or after `,` in a list). */
  Value,
  /** A value or `]` (just after `[`). */
  ValueOrClose,
  /** A field name (after `,` in an object). */
  Key,
  /** A field name or `}` (just after `{`). */
  KeyOrClose,
  Colon,
  /** `,` or the close of the innermost list or object. */
  CommaOrClose,
  /** The top-level value is complete: only whitespace may follow. */
  End,
}

const isWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const ESCAPES = new Set([...'"\\/bfnrtu'].map((c) => c.charCodeAt(0)));
const LITERALS: Record<number, string> = { 0x74: 'true', 0x66: 'false', 0x6e: 'null' };

/** Where a token scan stopped: the index after the token, `'cut'` at the text's end, `'wrong'` on a bad character. */
type Scan = number | 'cut' | 'wrong';

/** A string from its opening quote at `i`. */
function scanString(text: string, i: number): Scan {
  // Jump to the next character that matters: a quote, a backslash or a control character.
  const special = /["\\\u0000-\u001f]/g;
  let at = i + 1;
  for (;;) {
    special.lastIndex = at;
    const found = special.exec(text);
    if (found === null) return 'cut';
    const c = text.charCodeAt(found.index);
    if (c === 0x22) return found.index + 1;
    if (c !== 0x5c) return 'wrong'; // a raw control character
    const escaped = found.index + 1;
    if (escaped >= text.length) return 'cut';
    const e = text.charCodeAt(escaped);
    if (!ESCAPES.has(e)) return 'wrong';
    at = escaped + 1;
    if (e === 0x75) {
      for (let k = 0; k < 4; k++, at++) {
        if (at >= text.length) return 'cut';
        if (!isHex(text.charCodeAt(at))) return 'wrong';
      }
    }
  }
}

/** A number from its first character at `i` (`-` or a digit), by the JSON grammar. */
function scanNumber(text: string, i: number): Scan {
  let at = i;
  const digits = (): boolean => {
    const from = at;
    while (at < text.length && isDigit(text.charCodeAt(at))) at++;
    return at > from;
  };
  if (text.charCodeAt(at) === 0x2d) at++;
  if (at >= text.length) return 'cut';
  if (text.charCodeAt(at) === 0x30) at++;
  else if (!digits()) return 'wrong';
  if (at >= text.length) return 'cut';
  if (text.charCodeAt(at) === 0x2e) {
    at++;
    if (at >= text.length) return 'cut';
    if (!digits()) return 'wrong';
    if (at >= text.length) return 'cut';
  }
  const e = text.charCodeAt(at);
  if (e === 0x65 || e === 0x45) {
    at++;
    if (at >= text.length) return 'cut';
    const sign = text.charCodeAt(at);
    if (sign === 0x2b || sign === 0x2d) at++;
    if (at >= text.length) return 'cut';
    if (!digits()) return 'wrong';
    if (at >= text.length) return 'cut';
  }
  // A digit right after a leading zero ("01") is no number.
  return isDigit(text.charCodeAt(at)) ? 'wrong' : at;
}

/** `true`, `false` or `null` from its first character at `i`. */
function scanLiteral(text: string, i: number, literal: string): Scan {
  for (let k = 0; k < literal.length; k++) {
    if (i + k >= text.length) return 'cut';
    if (text.charCodeAt(i + k) !== literal.charCodeAt(k)) return 'wrong';
  }
  return i + literal.length;
}

/**
 * Whether `text` is the beginning of some JSON text: nothing in it is wrong, it only stops before
 * the end (inside a string, a number or a literal, with lists or objects still open, or right after
 * a `,` or `:`). A complete JSON text is a beginning of itself too; call this once JSON.parse failed.
 */
export function isJsonPrefix(text: string): boolean {
  const open: number[] = []; // 0x5b `[` or 0x7b `{`, innermost last
  let expect = Expect.Value;
  let i = 0;
  const afterValue = () => (open.length === 0 ? Expect.End : Expect.CommaOrClose);
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) {
      i++;
      continue;
    }
    let scan: Scan;
    switch (expect) {
      case Expect.Value:
      case Expect.ValueOrClose:
        if (c === 0x7b || c === 0x5b) {
          open.push(c);
          expect = c === 0x7b ? Expect.KeyOrClose : Expect.ValueOrClose;
          i++;
          continue;
        }
        if (c === 0x5d && expect === Expect.ValueOrClose) {
          open.pop();
          expect = afterValue();
          i++;
          continue;
        }
        if (c === 0x22) scan = scanString(text, i);
        else if (c === 0x2d || isDigit(c)) scan = scanNumber(text, i);
        else if (LITERALS[c] !== undefined) scan = scanLiteral(text, i, LITERALS[c]);
        else return false;
        if (typeof scan !== 'number') return scan === 'cut';
        i = scan;
        expect = afterValue();
        continue;
      case Expect.Key:
      case Expect.KeyOrClose:
        if (c === 0x7d && expect === Expect.KeyOrClose) {
          open.pop();
          expect = afterValue();
          i++;
          continue;
        }
        if (c !== 0x22) return false;
        scan = scanString(text, i);
        if (typeof scan !== 'number') return scan === 'cut';
        i = scan;
        expect = Expect.Colon;
        continue;
      case Expect.Colon:
        if (c !== 0x3a) return false;
        expect = Expect.Value;
        i++;
        continue;
      case Expect.CommaOrClose: {
        const innermost = open[open.length - 1];
        if (c === 0x2c) expect = innermost === 0x7b ? Expect.Key : Expect.Value;
        else if ((c === 0x5d && innermost === 0x5b) || (c === 0x7d && innermost === 0x7b)) {
          open.pop();
          expect = afterValue();
        } else return false;
        i++;
        continue;
      }
      case Expect.End:
        return false;
    }
  }
  return true;
}

/**
 * The longest text FieldDesk reads from an answer (characters as sent, escapes included). The
 * longest texts the service documents are audio recording ids ("long opaque strings", a few hundred
 * characters), the instrument image's address (no web server takes an address over 8 KiB) and a
 * calibration log message (a line of free text). Eight times the longest address is still far
 * above any of them, and far below what garbling produces (a run of bytes with no closing quote
 * swallows the rest of the answer): past it, the text is not a field the service meant to send.
 */
export const MAX_TEXT_CHARS = 64 * 1024;

/** Something in an answer's text that JSON.parse accepts but that cannot be what the service meant. */
export interface GarbledPart {
  /**
   * Which object of a top-level list it lies in (0: the first object of the list, counting objects
   * only); null when it lies outside any such object (the answer as a whole is garbled).
   */
  item: number | null;
  /** What is wrong, to end "… that could not be read: ": "the field “instrument” appears twice". */
  problem: string;
}

const quoted = (name: string) => `“${name.length > 40 ? `${name.slice(0, 40)}…` : name}”`;

/** The field name whose quotes are at `from - 1` and `to`, as JSON.parse reads it. */
const nameAt = (text: string, from: number, to: number): string => {
  const raw = text.slice(from, to);
  return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
};

/**
 * A field name's hash, letter case folded (A–Z only: the documented names are ASCII). `raw`: the
 * name as it stands in the text, so an escaped one (rare) is hashed as JSON.parse reads it, and
 * `\u0061` and `a` are one name.
 */
function nameHash(text: string, from: number, to: number, raw: boolean): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    let c = text.charCodeAt(i);
    if (raw && c === 0x5c) {
      const name = nameAt(text, from, to);
      return nameHash(name, 0, name.length, false);
    }
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    hash = Math.imul(hash ^ c, 0x01000193);
  }
  return hash;
}

/** The field names of one open object: hashes, and where each name lies to tell collisions apart. */
interface ObjectNames {
  hashes: number[];
  starts: number[];
  ends: number[];
}

/**
 * The parts of a JSON text (that JSON.parse accepted) that cannot be read as the service meant
 * them, by the top-level list item they lie in: a field that appears twice in one object (fields
 * match regardless of letter case, so `instrument` and `Instrument` are the same field) — JSON.parse
 * keeps the last silently, and which one the service meant cannot be known — and a text longer than
 * `maxTextChars`. One pass that allocates only for the objects that are open.
 */
export function findGarbledParts(text: string, maxTextChars: number = MAX_TEXT_CHARS): GarbledPart[] {
  const parts: GarbledPart[] = [];
  // Open lists and objects, innermost last: an object's field names, null for a list. Name lists
  // of closed objects are kept for reuse (`pool`), so a list of records allocates one per depth.
  const open: Array<ObjectNames | null> = [];
  const pool: ObjectNames[] = [];
  let depth = 0;
  const topIsList = /^\s*\[/.test(text);
  let objectsInList = -1;
  // The top-level list item being read, while inside one that is an object.
  let item: number | null = null;
  let lastItemWithProblem: number | null | undefined;
  const report = (problem: string) => {
    // One problem per item is enough to leave it out, and keeps a garbled answer's list short.
    if (item !== null && lastItemWithProblem === item) return;
    lastItemWithProblem = item;
    parts.push({ item, problem });
  };
  // Jumps from one quote, brace or bracket to the next: the numbers that make up most of a time
  // history are passed over by the regular expression, not visited one by one in a loop here.
  const structural = /["{}[\]]/g;
  for (let found = structural.exec(text); found !== null; found = structural.exec(text)) {
    const at = found.index;
    const c = text.charCodeAt(at);
    if (c === 0x7b) {
      if (topIsList && depth === 1) item = ++objectsInList;
      let names = pool[depth];
      if (names === undefined) pool[depth] = names = { hashes: [], starts: [], ends: [] };
      names.hashes.length = names.starts.length = names.ends.length = 0;
      open[depth++] = names;
      continue;
    }
    if (c === 0x5b) {
      open[depth++] = null;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth <= 1) item = null;
      continue;
    }
    if (c !== 0x22) continue;
    // A string: find its closing quote (one not escaped by an odd run of backslashes).
    let end = text.indexOf('"', at + 1);
    for (;;) {
      if (end < 0) return parts; // JSON.parse accepted the text, so this cannot happen
      let backslashes = 0;
      while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) break;
      end = text.indexOf('"', end + 1);
    }
    const from = at + 1;
    structural.lastIndex = end + 1;
    if (end - from > maxTextChars) {
      report(
        `a text of ${(end - from).toLocaleString('en-GB')} characters (no field holds more than ${maxTextChars.toLocaleString('en-GB')})`,
      );
      continue;
    }
    const names = depth > 0 ? open[depth - 1] : null;
    if (names === null || names === undefined) continue;
    let next = end + 1;
    while (isWhitespace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) !== 0x3a) continue; // a value, not a field name
    const hash = nameHash(text, from, end, true);
    for (let k = 0; k < names.hashes.length; k++) {
      if (names.hashes[k] !== hash) continue;
      const name = nameAt(text, from, end);
      if (nameAt(text, names.starts[k]!, names.ends[k]!).toLowerCase() === name.toLowerCase()) {
        report(`the field ${quoted(name)} appears twice`);
        break;
      }
    }
    names.hashes.push(hash);
    names.starts.push(from);
    names.ends.push(end);
  }
  return parts;
}
