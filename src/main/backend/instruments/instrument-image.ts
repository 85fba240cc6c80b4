/**
 * An instrument's image (`instruments.image`), fetched here rather than by the renderer: the
 * renderer makes no network requests at all, and its Content-Security-Policy allows images only
 * from the app and `data:` (security.ts). So the backend fetches the address the service gave for
 * the instrument — never one the renderer names — and answers it as a `data:` URL, only when:
 *
 * - the address is https (after any redirect), so nobody on the way can swap the picture;
 * - no credentials go with it: the API key is the service's, and the image may be on another host;
 * - it is at most `IMAGE_MAX_BYTES`, within the client's time limits (bounded-fetch.ts);
 * - its bytes are a PNG, JPEG, GIF or WebP (by their signature, not only by what the server says).
 *   SVG is refused: it is a document that can carry script and links, not a picture.
 */
import { FieldDeskError } from '../../../shared/errors';
import { bytesText } from '../../../shared/format';
import { boundedFetch } from '../service/bounded-fetch';

/** An instrument photo is tens of kilobytes; a larger answer is not one. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const IMAGE_TIMEOUT_MS = 10_000;

/** Picture types shown, by the first bytes of the file. */
const SIGNATURES: ReadonlyArray<{ type: string; matches: (b: Uint8Array) => boolean }> = [
  { type: 'image/png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', matches: (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) },
  {
    type: 'image/webp',
    matches: (b) =>
      startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  },
];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((value, i) => bytes[i] === value);
}

/** The picture type of `bytes`, or null when they are none of the types shown. */
export function imageTypeOf(bytes: Uint8Array): string | null {
  return SIGNATURES.find((signature) => signature.matches(bytes))?.type ?? null;
}

export interface FetchedImage {
  dataUrl: string;
  bytes: number;
}

const MESSAGES = {
  notAddress: 'The service gave an image address FieldDesk cannot read.',
  notHttps: (host: string) =>
    `The image is at ${host} without https, so FieldDesk does not fetch it: anyone on the way could change it.`,
  redirectedInsecure: (host: string) =>
    `The image at ${host} moved to an address without https, so it is not shown.`,
  refused: (host: string, status: number) => `${host} answered the image request with HTTP ${status}.`,
  notWhole: (host: string) =>
    `The image at ${host} could not be read whole: it is larger than ${bytesText(IMAGE_MAX_BYTES)}, or the answer was cut off.`,
  unreachable: (host: string) => `The image could not be fetched from ${host}: it could not be reached.`,
  notPicture: (host: string) =>
    `What ${host} sent is not a PNG, JPEG, GIF or WebP picture, so it is not shown.`,
} as const;

/** Fetches the picture at `address` under the rules above; throws a FieldDeskError saying why not. */
export async function fetchInstrumentImage(address: string, doFetch: typeof fetch): Promise<FetchedImage> {
  let url: URL;
  try {
    url = new URL(address);
  } catch (error) {
    throw new FieldDeskError('badResponse', MESSAGES.notAddress, { cause: error });
  }
  if (url.protocol !== 'https:') throw new FieldDeskError('invalidRequest', MESSAGES.notHttps(url.host));
  // Where the answer finally came from (after redirects): the bounded fetch's answer no longer says.
  let finalUrl = '';
  const tracked: typeof fetch = async (input, init) => {
    const answer = await doFetch(input, init);
    finalUrl = answer.url;
    return answer;
  };
  const bounded = boundedFetch(tracked, {
    host: url.host,
    timeoutMs: IMAGE_TIMEOUT_MS,
    deadlineMs: 3 * IMAGE_TIMEOUT_MS,
    maxBytes: IMAGE_MAX_BYTES,
    resource: 'the instrument image',
  });
  let response: Response;
  try {
    response = await bounded(url, { credentials: 'omit', redirect: 'follow' });
  } catch (error) {
    if (error instanceof FieldDeskError && error.code === 'timeout') throw error;
    if (error instanceof FieldDeskError)
      throw new FieldDeskError('badResponse', MESSAGES.notWhole(url.host), { cause: error, retryable: true });
    // Not `offline`: the image's host is not the service, and FieldDesk may well be online.
    throw new FieldDeskError('badResponse', MESSAGES.unreachable(url.host), {
      cause: error,
      retryable: true,
    });
  }
  if (finalUrl !== '' && new URL(finalUrl).protocol !== 'https:')
    throw new FieldDeskError('badResponse', MESSAGES.redirectedInsecure(url.host));
  if (!response.ok) throw new FieldDeskError('badResponse', MESSAGES.refused(url.host, response.status));
  // At most IMAGE_MAX_BYTES: the bounded fetch stopped anything larger.
  const bytes = new Uint8Array(await response.arrayBuffer());
  const type = imageTypeOf(bytes);
  if (type === null) throw new FieldDeskError('badResponse', MESSAGES.notPicture(url.host));
  return { dataUrl: `data:${type};base64,${Buffer.from(bytes).toString('base64')}`, bytes: bytes.byteLength };
}
