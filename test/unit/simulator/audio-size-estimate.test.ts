/**
 * The bit rates "Download all" assumes before any file of a format was downloaded, held against
 * the bytes the demo service's recordings really have (the user saw 309 MB estimated for 118 MB
 * of FLAC: the old 58 kB/s was 2.6 times the demo's rate).
 */
import { describe, expect, it } from 'vitest';
import { ASSUMED_AUDIO_BYTES_PER_SECOND } from '../../../src/shared/audio';
import { audioDemo, shortestFirst, spanSeconds } from './audio-helpers';

describe('the assumed audio bit rates against the demo service', () => {
  it('estimate the bytes of short, middling and long recordings to within a quarter', async () => {
    const demo = audioDemo();
    const listed = shortestFirst(await demo.recordings());
    const picked = [listed[0]!, listed[Math.floor(listed.length / 2)]!, listed.at(-1)!];
    const seconds = picked.reduce((sum, r) => sum + spanSeconds(r), 0);
    // AAC left out: the demo has no AAC encoder and strings pre-made clips together
    // (simulator/audio/aac.ts), so its size says nothing about an encoder's bit rate.
    for (const format of ['FLAC', 'WAV', 'OGG'] as const) {
      let real = 0;
      for (const r of picked) real += (await demo.bytes(`/data/audio/${r.id}?format=${format}`)).body.length;
      const estimated = seconds * ASSUMED_AUDIO_BYTES_PER_SECOND[format];
      expect(estimated / real, format).toBeGreaterThan(0.75);
      expect(estimated / real, format).toBeLessThan(1.25);
    }
  }, 300_000);
});
