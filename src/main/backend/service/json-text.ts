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
