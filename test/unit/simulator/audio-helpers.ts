/** Shared set-up of the audio tests: a demo service at a fixed clock and its recordings. */
import { createDemoApp, DEFAULT_DEMO_KEY, type DemoServiceOptions } from '../../../src/simulator';
import type { WireAudioRecording } from '../../../src/simulator/audio/recordings';

/** Sunday 1 June 2025, 12:00 UTC, as the data tests. */
export const NOW = Date.UTC(2025, 5, 1, 12);
export const FROM = '2025-05-26T00:00:00Z';
export const TO = '2025-05-28T00:00:00Z';
/** Seed 1's noise monitor with the Audio add-on that is recording now. */
export const AUDIO_SERIAL = 'QT930998';
export const SAMPLE_RATE = 16_000;

export function audioDemo(options: DemoServiceOptions = {}) {
  const app = createDemoApp({ now: () => NOW, rateLimit: 100_000, ...options });
  const get = (path: string, headers: Record<string, string> = {}, key = DEFAULT_DEMO_KEY) =>
    Promise.resolve(app.request(`/v1${path}`, { headers: { 'X-Api-Key': key, ...headers } }));
  const bytes = async (path: string, headers: Record<string, string> = {}) => {
    const response = await get(path, headers);
    return { response, body: new Uint8Array(await response.arrayBuffer()) };
  };
  const recordings = async (serial = AUDIO_SERIAL, from = FROM, to = TO) =>
    (await (
      await get(`/data/audio?instruments=${serial}&start=${from}&end=${to}`)
    ).json()) as WireAudioRecording[];
  return { app, get, bytes, recordings };
}

export const spanSeconds = (recording: WireAudioRecording): number =>
  (Date.parse(recording.endTime) - Date.parse(recording.startTime)) / 1000;

/** The shortest recordings first: the tests fetch them in every format. */
export const shortestFirst = (list: WireAudioRecording[]): WireAudioRecording[] =>
  [...list].sort((a, b) => spanSeconds(a) - spanSeconds(b));
