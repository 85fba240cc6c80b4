/**
 * The bounded fetch hands a successful answer's bytes over as read (`takeBody`) instead of a new
 * body ky would copy for its hook and again when read; without a taker the body is in the Response.
 */
import { describe, expect, it } from 'vitest';
import { boundedFetch, type BodyBounds } from '../../../src/main/backend/service/bounded-fetch';

const BOUNDS: BodyBounds = {
  host: 'service.test',
  timeoutMs: 5_000,
  deadlineMs: 5_000,
  maxBytes: 1_000_000,
  resource: 'a list of test records',
};
const TEXT = '[{"name":"Ça marche – 38.7 dB"}]';
const answer =
  (body: string, init: ResponseInit = {}) =>
  () =>
    Promise.resolve(new Response(body, init));

describe('boundedFetch', () => {
  it('hands the bytes of a successful answer to takeBody, whole, and returns no body', async () => {
    const taken: Uint8Array[] = [];
    const response = await boundedFetch(answer(TEXT), { ...BOUNDS, takeBody: (bytes) => taken.push(bytes) })(
      'http://service.test/',
    );
    expect(response.status).toBe(200);
    expect(response.body).toBeNull();
    expect(taken).toHaveLength(1);
    expect(new TextDecoder().decode(taken[0])).toBe(TEXT);
  });

  it('without a taker, returns the bytes as the Response body', async () => {
    const response = await boundedFetch(answer(TEXT), BOUNDS)('http://service.test/');
    expect(await response.text()).toBe(TEXT);
  });

  it('leaves an error answer as it came, its body untaken', async () => {
    const taken: Uint8Array[] = [];
    const response = await boundedFetch(answer('{"error":"busy"}', { status: 503 }), {
      ...BOUNDS,
      takeBody: (bytes) => taken.push(bytes),
    })('http://service.test/');
    expect(taken).toHaveLength(0);
    expect(await response.text()).toBe('{"error":"busy"}');
  });

  it('takes nothing from an answer cut off before its declared length', async () => {
    const taken: Uint8Array[] = [];
    const cut = boundedFetch(answer(TEXT, { headers: { 'Content-Length': String(TEXT.length + 50) } }), {
      ...BOUNDS,
      takeBody: (bytes) => taken.push(bytes),
    });
    await expect(cut('http://service.test/')).rejects.toThrow(/cut off/);
    expect(taken).toHaveLength(0);
  });
});
