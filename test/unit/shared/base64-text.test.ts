import { describe, expect, it } from 'vitest';
import { base64TextSchema } from '../../../src/shared/ipc/request-spec';

const schema = base64TextSchema(60_000_000, { tooLarge: 'Too large.', notBase64: 'Not base64.' });
const message = (text: string) => schema.safeParse(text).error?.issues[0]?.message;

describe('base64 text in a request', () => {
  it('takes whole base64 text, with or without padding', () => {
    for (const text of ['QUJD', 'QUI=', 'QQ==', 'a+/9']) expect(schema.safeParse(text).success).toBe(true);
  });

  it('refuses empty text, a stray character, and padding anywhere but the end', () => {
    for (const text of ['', 'QU JD', 'QUJD\n', 'QU=D', 'Q===', '=QUJ', 'QUJD-_'])
      expect(message(text), JSON.stringify(text)).toBe('Not base64.');
  });

  it('refuses text past its limit with its own reason', () => {
    const small = base64TextSchema(8, { tooLarge: 'Too large.', notBase64: 'Not base64.' });
    expect(small.safeParse('QUJDQUJDQUJD').error?.issues[0]?.message).toBe('Too large.');
  });

  it('checks a photo-sized text (44 million characters) after many small ones without running out of stack', () => {
    // Many small checks first, so V8 compiles its patterns to native code as a long session would.
    for (let i = 0; i < 20_000; i += 1) schema.safeParse(`QUJD${i % 10}A==`);
    const photo = 'A'.repeat(44 * 1024 * 1024 - 2) + '==';
    expect(schema.safeParse(photo).success).toBe(true);
    expect(message(`${photo.slice(0, -3)}!==`)).toBe('Not base64.');
  });
});
