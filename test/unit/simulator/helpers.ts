/** Shared helpers of the demo service tests. */
import type { Hono } from 'hono';
import { API_KEY_HEADER } from '../../../src/shared/service/limits';
import type { WireErrorBody } from '../../../src/shared/service/wire';

/** A request to the app's `/v1` interface with an optional API key. */
export function call(
  app: Hono,
  method: string,
  path: string,
  { key, body }: { key?: string; body?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers[API_KEY_HEADER] = key;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return Promise.resolve(app.request(`/v1${path}`, { method, headers, body }));
}

export async function errorBody(response: Response): Promise<WireErrorBody> {
  return (await response.json()) as WireErrorBody;
}

/** A clock the test moves by hand. */
export function manualClock(startMs = Date.UTC(2025, 5, 1, 12, 0, 0)) {
  let nowMs = startMs;
  return {
    now: () => nowMs,
    advance(ms: number) {
      nowMs += ms;
    },
  };
}
