/**
 * The redactor (core/secrets.ts): a secret in every spelling a service or a URL may carry it —
 * literal, URL- and form-encoded, JSON-escaped, base64 and base64url at each byte alignment — is
 * replaced, and nothing else is touched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createRedactor,
  createSecretRegistry,
  MIN_SECRET_LENGTH,
  redactStrings,
} from '../../../src/main/backend/core/secrets';
import { allSpellings, textSpellings, tracesIn } from './secret-encodings';

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
  expect(head!.length).toBeLessThanOrEqual(base64 ? 3 : 0);
  expect(tail!.length).toBeLessThanOrEqual(base64 ? 5 : 0);
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
        fc.pre(!text.includes(key));
        expect(createRedactor([[key, 'API key']])(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
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
