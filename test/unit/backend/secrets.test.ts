/**
 * The redactor (core/secrets.ts): a secret in every spelling a service or a URL may carry it —
 * literal, URL- and form-encoded (once or twice), JSON-escaped, HTML character references, hex,
 * base64 and base64url at each byte alignment (also wrapped in lines), and a long enough prefix or
 * suffix of any of them — is replaced, and nothing else is touched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  apiKeyRedactor,
  createRedactor,
  createSecretRegistry,
  MIN_SECRET_LENGTH,
  redactStrings,
} from '../../../src/main/backend/core/secrets';
import { MIN_FRAGMENT_LENGTH } from '../../../src/main/backend/core/secret-spellings';
import { allSpellings, textSpellings, tracesIn, wrapped } from './secret-encodings';

/**
 * That `redacted` is `before + spelling + after` with the spelling replaced by one label: all of a
 * text spelling; of a base64 one all but the few characters that also hold bits of the bytes around
 * the secret (at most 3 before, 5 after).
 */
function expectReplacedOnce(redacted: string, before: string, after: string, name: string): void {
  expect(redacted.startsWith(before)).toBe(true);
  expect(redacted.endsWith(after)).toBe(true);
  const middle = redacted.slice(before.length, redacted.length - after.length);
  const [head, tail, ...more] = middle.split('[API key]');
  expect(more).toEqual([]);
  const base64 = name.startsWith('base64');
  // Of base64 wrapped in lines, the characters count: a line break may stay next to them.
  const length = (part: string) => part.replace(/\r?\n/g, '').length;
  expect(length(head!)).toBeLessThanOrEqual(base64 ? 3 : 0);
  expect(length(tail!)).toBeLessThanOrEqual(base64 ? 5 : 0);
}

/** Printable ASCII without space, as an API key may be (apiKeySchema). */
const KEYS = [
  'fD7+q/Z9=k~Lm&T!r*8sP.QeN4_x',
  'ab"cd\\ef%2Bgh',
  'key-all',
  'Zz9_-AbCdEfGhIjKlMnOpQrStUvWxYz012345',
  // An escape's first character last: it must not be matched alone.
  'ends-with-percent%',
  'ends-with-backslash\\',
];

describe('a redactor of one API key', () => {
  for (const key of KEYS) {
    const redact = createRedactor([[key, 'API key']]);
    for (const [name, spelling] of Object.entries(allSpellings(key))) {
      it(`removes ${JSON.stringify(key)} spelled ${name}`, () => {
        const redacted = redact(`The service said: “bad token ${spelling}” (request 42).`);
        expect(tracesIn(redacted, { [name]: spelling })).toEqual([]);
        expectReplacedOnce(redacted, 'The service said: “bad token ', '” (request 42).', name);
      });
    }
  }

  it('removes every occurrence, in mixed spellings, in one pass', () => {
    const key = KEYS[0]!;
    const spellings = Object.values(textSpellings(key));
    const redacted = createRedactor([[key, 'API key']])(spellings.join(' and '));
    expect(redacted).toBe(spellings.map(() => '[API key]').join(' and '));
  });

  it('keeps JSON text valid where it replaces a spelling inside a string', () => {
    const key = KEYS[1]!;
    const body = `{"description":"key ${JSON.stringify(key).slice(1, -1)} or ${textSpellings(key)['jsonEscapedUpper']}"}`;
    expect(JSON.parse(body)).toEqual({ description: `key ${key} or ${key}` });
    const redacted = createRedactor([[key, 'API key']])(body);
    expect(JSON.parse(redacted)).toEqual({ description: 'key [API key] or [API key]' });
  });

  it('leaves secrets too short to be real alone (they would garble every text)', () => {
    const short = 'k'.repeat(MIN_SECRET_LENGTH - 1);
    expect(createRedactor([[short, 'API key']])(`kkk ${short} kk`)).toBe(`kkk ${short} kk`);
  });

  it('labels each secret by its kind', () => {
    const redact = createRedactor([
      ['first-api-key-123', 'API key'],
      ['whsec_0123456789abcdef', 'webhook secret'],
    ]);
    expect(redact('a first-api-key-123 b whsec_0123456789abcdef c')).toBe('a [API key] b [webhook secret] c');
  });
});

/** A key as apiKeySchema allows it: 8 to 64 printable ASCII characters without space. */
const keyArbitrary = fc
  .array(fc.integer({ min: 0x21, max: 0x7e }), { minLength: 8, maxLength: 64 })
  .map((codes) => String.fromCharCode(...codes));
const spellingNames = Object.keys(allSpellings('placeholder'));

describe('redaction, for any key', () => {
  it('leaves no trace of the key in any spelling, and keeps the text around it', () => {
    fc.assert(
      fc.property(
        keyArbitrary,
        fc.constantFrom(...spellingNames),
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
        (key, name, before, after) => {
          const spelling = allSpellings(key)[name]!;
          const redacted = createRedactor([[key, 'API key']])(`${before}«${spelling}»${after}`);
          expect(tracesIn(redacted, { [name]: spelling })).toEqual([]);
          expectReplacedOnce(redacted, `${before}«`, `»${after}`, name);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('changes no text that does not hold the key', () => {
    fc.assert(
      fc.property(keyArbitrary, fc.string({ unit: 'grapheme-ascii', maxLength: 200 }), (key, text) => {
        // Nor its first or last characters: a long enough prefix or suffix is redacted on its own.
        fc.pre(
          ![key.slice(0, MIN_FRAGMENT_LENGTH), key.slice(-MIN_FRAGMENT_LENGTH)].some((p) => text.includes(p)),
        );
        expect(createRedactor([[key, 'API key']])(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a fragment of a key standing alone (an echo cut short)', () => {
  const around = (text: string) => `The service said: “too many requests for ${text}…” (request 42).`;
  for (const key of [KEYS[0]!, KEYS[3]!]) {
    const redact = createRedactor([[key, 'API key']]);
    const fragments = {
      [`first ${MIN_FRAGMENT_LENGTH}`]: key.slice(0, MIN_FRAGMENT_LENGTH),
      'first 12': key.slice(0, 12),
      [`last ${MIN_FRAGMENT_LENGTH}`]: key.slice(-MIN_FRAGMENT_LENGTH),
      'last 15': key.slice(-15),
    };
    for (const [which, fragment] of Object.entries(fragments)) {
      for (const [name, spelling] of Object.entries(allSpellings(fragment))) {
        // The fragment's own first or last characters would be a piece from the key's middle.
        if (name === 'prefix' || name === 'suffix') continue;
        it(`removes the ${which} characters of ${JSON.stringify(key)} spelled ${name}`, () => {
          const redacted = redact(around(spelling));
          expect(tracesIn(redacted, { [name]: spelling })).toEqual([]);
          expectReplacedOnce(redacted, 'The service said: “too many requests for ', '…” (request 42).', name);
        });
      }
    }

    it(`leaves shorter pieces of ${JSON.stringify(key)}, and pieces from its middle, as they are`, () => {
      const short = MIN_FRAGMENT_LENGTH - 1;
      for (const piece of [key.slice(0, short), key.slice(-short), key.slice(1, -1)]) {
        expect(redact(around(piece))).toBe(around(piece));
      }
    });
  }

  it('removes two keys made alike (the same first characters) whole, each where it is', () => {
    const first = 'sk_live_AAAAAAAAAAAAAAAA';
    const second = 'sk_live_BBBBBBBBBBBBBBBB';
    const redact = createRedactor([
      [first, 'API key'],
      [second, 'API key'],
    ]);
    expect(redact(`1 ${second} 2 ${first} 3 ${encodeURIComponent(second)}`)).toBe(
      '1 [API key] 2 [API key] 3 [API key]',
    );
  });
});

describe('base64 wrapped in lines', () => {
  const key = KEYS[3]!;
  const redact = createRedactor([[key, 'API key']]);
  // The user name puts the key's base64 across the 76th column.
  const token = Buffer.from(`field.engineer@example.org:${key}`).toString('base64');
  const header = `Authorization: Basic ${token}`;
  /** Where the characters the key's bits decide begin: the user name's 27 bytes decide 36. */
  const keyStart = header.length - token.length + 36;

  for (const [name, lineBreak] of Object.entries({
    'CR-LF': '\r\n',
    'CR-LF and a space': '\r\n ',
    LF: '\n',
  })) {
    it(`removes a key from a Basic authorization header folded at 76 columns with ${name}`, () => {
      const folded = wrapped(header, 76, lineBreak);
      expect(folded.indexOf(lineBreak)).toBeGreaterThan(keyStart);
      expect(folded.indexOf(lineBreak)).toBeLessThan(keyStart + 40);
      // As it is, and inside JSON (the line breaks escaped) as an answer carries it.
      for (const redacted of [
        redact(folded),
        (JSON.parse(redact(JSON.stringify({ folded }))) as { folded: string }).folded,
      ]) {
        const unfolded = redacted.replaceAll(lineBreak, '');
        expect(unfolded.slice(0, keyStart)).toBe(header.slice(0, keyStart));
        expect(unfolded.slice(keyStart)).toMatch(/^\[API key\][A-Za-z0-9+/=]{0,4}$/);
      }
    });
  }
});

describe('what a message shows of a key', () => {
  const key = KEYS[3]!;
  const { inMessage } = apiKeyRedactor(key);

  it('is at most its last four characters: any run of five or more is removed', () => {
    for (let start = 0; start + 5 <= key.length; start += 3) {
      const piece = key.slice(start, start + 5);
      expect(inMessage(`key ${piece} refused`)).toBe('key [API key] refused');
    }
    expect(inMessage(`key …${key.slice(-4)} refused`)).toBe(`key …${key.slice(-4)} refused`);
  });

  it('still removes the key in every spelling', () => {
    for (const spelling of Object.values(allSpellings(key))) {
      expect(inMessage(`key ${spelling} refused`)).toMatch(/^key \S{0,3}\[API key\]\S{0,5} refused$/);
    }
  });
});

describe('the registry of secrets a backend met', () => {
  it('redacts strings at any depth of a value, and leaves typed arrays and unchanged values as they are', () => {
    const registry = createSecretRegistry();
    const untouched = { message: 'nothing secret', list: ['a', 'b'] };
    expect(registry.redactValue(untouched)).toBe(untouched);
    registry.add('fD7+q/Z9=k~Lm&T!r*8sP', 'API key');
    registry.add('whsec_0123456789abcdef', 'webhook secret');
    const times = new Float64Array([1, 2]);
    const value = {
      message: `failed: ${encodeURIComponent('fD7+q/Z9=k~Lm&T!r*8sP')}`,
      nested: [{ secret: 'whsec_0123456789abcdef' }],
      times,
      count: 3,
    };
    const redacted = registry.redactValue(value);
    expect(redacted).toEqual({
      message: 'failed: [API key]',
      nested: [{ secret: '[webhook secret]' }],
      times,
      count: 3,
    });
    expect(redacted.times).toBe(times);
    expect(value.message).toContain('fD7');
    expect(registry.redactValue(untouched)).toBe(untouched);
  });

  it('redacts a plain value the same as redactStrings with its redactor', () => {
    const registry = createSecretRegistry();
    registry.add('0123456789', 'API key');
    expect(redactStrings(['x 0123456789'], registry.redact)).toEqual(['x [API key]']);
  });
});
