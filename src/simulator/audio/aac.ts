/**
 * AAC as ADTS: the demo service has no AAC encoder, so it ships a few seconds of each sound
 * (aac-clips.ts: background traffic and every event source, made once from the synthesizer with
 * ffmpeg by scripts/make-demo-audio-clips.ts) and strings their frames together, one frame per
 * 1024 samples of the recording: the clip of whatever is loudest at that moment, at that moment's
 * level. The level is set by rewriting each frame's `global_gain` (the first field after the
 * single channel element's tag; one step is 1.5 dB), which moves every scale factor together, so
 * the frame's sound is unchanged but for its loudness, and its length stays the same.
 */
import { toEnergy, toLevel } from '../../shared/acoustics';
import { AAC_CLIP_LEVEL_DB, AAC_CLIPS, AAC_GAIN_STEPS } from './aac-clips';
import { SAMPLE_RATE, backgroundLevelAt, eventLevelAt, type Score } from './synth';
import { hash32, STREAM } from '../data/hash';

export const AAC_FRAME_SAMPLES = 1024;
const ADTS_HEADER_BYTES = 7;
const DB_PER_GAIN_STEP = 1.5;

interface Clip {
  frames: Uint8Array[];
}

let clips: Map<number, Clip> | null = null;

/** Splits ADTS frames by their 13-bit frame length. */
export function adtsFrames(bytes: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  let at = 0;
  while (at + ADTS_HEADER_BYTES <= bytes.length) {
    if (bytes[at] !== 0xff || ((bytes[at + 1] as number) & 0xf6) !== 0xf0) {
      throw new Error(`No ADTS sync word at byte ${at}.`);
    }
    const length =
      (((bytes[at + 3] as number) & 0x03) << 11) |
      ((bytes[at + 4] as number) << 3) |
      ((bytes[at + 5] as number) >> 5);
    if (length < ADTS_HEADER_BYTES || at + length > bytes.length)
      throw new Error(`Bad ADTS frame at byte ${at}.`);
    frames.push(bytes.subarray(at, at + length));
    at += length;
  }
  return frames;
}

function clipOf(source: number): Clip {
  if (clips === null) {
    clips = new Map();
    for (const clip of AAC_CLIPS) {
      clips.set(clip.source, { frames: adtsFrames(new Uint8Array(Buffer.from(clip.adts, 'base64'))) });
    }
  }
  const clip = clips.get(source) ?? clips.get(-1);
  if (!clip) throw new Error('The AAC clips are missing.');
  return clip;
}

/** The `global_gain` of an ADTS frame without CRC whose first element is a single channel element. */
export function globalGain(frame: Uint8Array): number {
  return (((frame[7] as number) & 0x01) << 7) | ((frame[8] as number) >> 1);
}

/** A copy of the frame with its `global_gain` moved by `steps` (1.5 dB each), kept within 0–255. */
export function withGain(frame: Uint8Array, steps: number): Uint8Array {
  const out = frame.slice();
  const gain = Math.max(0, Math.min(255, globalGain(frame) + steps));
  out[7] = ((out[7] as number) & 0xfe) | (gain >> 7);
  out[8] = ((out[8] as number) & 0x01) | ((gain & 0x7f) << 1);
  return out;
}

export interface AacLayout {
  lengths: Uint32Array;
  frame(i: number): Uint8Array;
}

/** Which clip frame, at which gain, makes each 1024 samples of the recording. */
export function aacLayout(score: Score): AacLayout {
  const count = Math.ceil(score.totalSamples / AAC_FRAME_SAMPLES);
  const source = new Int8Array(count);
  const index = new Uint32Array(count);
  const gain = new Int8Array(count);
  const lengths = new Uint32Array(count);
  const offset = hash32(score.key, STREAM.audio + 5, 0);
  const firstFrame = Math.floor((score.startSec * SAMPLE_RATE) / AAC_FRAME_SAMPLES);
  for (let f = 0; f < count; f++) {
    const u = (f * AAC_FRAME_SAMPLES + AAC_FRAME_SAMPLES / 2) / SAMPLE_RATE;
    const s = score.startSec + u;
    let loudest = backgroundLevelAt(score, u);
    let energy = toEnergy(loudest);
    let which = -1;
    let frameIndex = firstFrame + f + offset;
    for (const event of score.events) {
      const level = eventLevelAt(event, s);
      if (level === -Infinity) continue;
      energy += toEnergy(level);
      if (level > loudest) {
        loudest = level;
        which = event.source;
        frameIndex = Math.floor(((s - event.startSec) * SAMPLE_RATE) / AAC_FRAME_SAMPLES);
      }
    }
    const clip = clipOf(which);
    const level = toLevel(energy);
    source[f] = which;
    index[f] = frameIndex % clip.frames.length;
    gain[f] = Math.max(
      AAC_GAIN_STEPS.min,
      Math.min(AAC_GAIN_STEPS.max, Math.round((level - AAC_CLIP_LEVEL_DB) / DB_PER_GAIN_STEP)),
    );
    lengths[f] = (clip.frames[index[f] as number] as Uint8Array).length;
  }
  return {
    lengths,
    frame: (i) =>
      withGain(clipOf(source[i] as number).frames[index[i] as number] as Uint8Array, gain[i] as number),
  };
}
