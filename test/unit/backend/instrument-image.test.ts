/**
 * The instrument image (instruments/instrument-image.ts): fetched by the backend and answered as a
 * `data:` URL only for an https address, without credentials, a PNG/JPEG/GIF/WebP by its bytes, and
 * at most 2 MB; anything else is refused with the reason. The fetch is the test's own.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  fetchInstrumentImage,
  IMAGE_MAX_BYTES,
  imageTypeOf,
} from '../../../src/main/backend/instruments/instrument-image';
import { FieldDeskError } from '../../../src/shared/errors';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);

/** A fetch answering `body` with `status`, as if from `finalUrl` (after redirects). */
function answering(body: Uint8Array, status = 200, finalUrl = 'https://img.example.com/cr.png') {
  return vi.fn<typeof fetch>(async () => {
    const response = new Response(body, { status, headers: { 'Content-Type': 'image/png' } });
    Object.defineProperty(response, 'url', { value: finalUrl });
    return response;
  });
}

async function refusal(address: string, doFetch: typeof fetch): Promise<FieldDeskError> {
  const error = await fetchInstrumentImage(address, doFetch).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FieldDeskError);
  return error as FieldDeskError;
}

describe('instrument image', () => {
  it('answers a PNG from an https address as a data: URL, asked for without credentials', async () => {
    const doFetch = answering(PNG);
    const image = await fetchInstrumentImage('https://img.example.com/cr.png', doFetch);
    expect(image).toEqual({
      dataUrl: `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`,
      bytes: 16,
    });
    const init = doFetch.mock.calls[0]![1];
    expect(init).toMatchObject({ credentials: 'omit' });
    expect(new Headers(init?.headers).has('x-api-key')).toBe(false);
  });

  it('refuses an address without https, before asking for anything', async () => {
    const doFetch = answering(PNG);
    const error = await refusal('http://img.example.com/cr.png', doFetch);
    expect(error.message).toBe(
      'The image is at img.example.com without https, so FieldDesk does not fetch it: anyone on the way could change it.',
    );
    expect(doFetch).not.toHaveBeenCalled();
  });

  it('refuses what is not a picture by its bytes (SVG, HTML) whatever the server calls it', async () => {
    expect(imageTypeOf(SVG)).toBeNull();
    const error = await refusal('https://img.example.com/cr.png', answering(SVG));
    expect(error.message).toBe(
      'What img.example.com sent is not a PNG, JPEG, GIF or WebP picture, so it is not shown.',
    );
  });

  it('refuses an image redirected to an address without https', async () => {
    const error = await refusal(
      'https://img.example.com/cr.png',
      answering(PNG, 200, 'http://img.example.com/cr.png'),
    );
    expect(error.message).toBe(
      'The image at img.example.com moved to an address without https, so it is not shown.',
    );
  });

  it('stops an answer larger than 2 MB, and says a refusal and an unreachable host', async () => {
    const big = new Uint8Array(IMAGE_MAX_BYTES + 1);
    big.set(PNG);
    expect((await refusal('https://img.example.com/cr.png', answering(big))).message).toMatch(
      /^The image at img\.example\.com could not be read whole: it is larger than 2\.1 MB/,
    );
    expect((await refusal('https://img.example.com/cr.png', answering(new Uint8Array(), 404))).message).toBe(
      'img.example.com answered the image request with HTTP 404.',
    );
    const unreachable = vi.fn<typeof fetch>(async () => {
      throw new TypeError('fetch failed');
    });
    const error = await refusal('https://demo.fielddesk.invalid/images/cr.png', unreachable);
    expect(error).toMatchObject({
      code: 'badResponse',
      message: 'The image could not be fetched from demo.fielddesk.invalid: it could not be reached.',
    });
  });

  it('knows PNG, JPEG, GIF and WebP by their first bytes', () => {
    expect(imageTypeOf(PNG)).toBe('image/png');
    expect(imageTypeOf(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageTypeOf(new TextEncoder().encode('GIF89a'))).toBe('image/gif');
    expect(imageTypeOf(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(imageTypeOf(new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
  });
});
