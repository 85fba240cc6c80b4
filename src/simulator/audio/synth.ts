/**
 * The sound of a demo audio recording, made from the same model as the noise data: road traffic
 * at the background level of each second, and each event's source (an HGV's rumble and engine
 * note rising and falling, a motorcycle's gear changes, an aircraft, a siren's wail, a breaker's
 * blows, a dog's barks for a manual trigger) following the event's level second by second.
 *
 * Every sample is a pure function of (instrument key, absolute sample time, events), computed
 * without state carried from earlier samples: noise comes from fixed circular tables (filtered
 * once), tones from closed-form phases. So any stretch of a recording, however long, can be made
 * on its own and is the same whichever request asks for it.
 */
import { STREAM, hash32, unit } from '../data/hash';
import { NoiseModel, type NoiseEvent } from '../data/noise-model';

/** Mono, 16 kHz, 16-bit: small files, enough for speech-band sounds. */
export const SAMPLE_RATE = 16_000;
/** A level (dB) of this value is a full-scale RMS signal; 80 dB is −20 dBFS. */
const FULL_SCALE_DB = 100;
/** Amplitudes are set every this many samples and interpolated in between. */
const CONTROL_STEP = 32;
/** Fade at the edges of an event (s): its sound starts and stops without a click. */
const EDGE_FADE_SEC = 0.3;

/** What a recording sounds like: the background per second and the events heard in it. */
export interface Score {
  /** The instrument's hash key: picks its noise (two instruments never sound the same). */
  key: number;
  /** Epoch seconds of the first sample. */
  startSec: number;
  totalSamples: number;
  /** Background LAeq (dB) of each second of the recording, index 0 = startSec. */
  background: Float64Array;
  /** Events overlapping the recording (the trigger's own and any other). */
  events: readonly NoiseEvent[];
}

/** The loudness (linear, full scale 1) of a level in dB. */
export const amplitudeOf = (levelDb: number): number => 10 ** ((levelDb - FULL_SCALE_DB) / 20);

// --- Noise tables -------------------------------------------------------------------------------

/** Lengths are distinct primes, so their sum repeats only after a very long time. */
const RUMBLE_LENGTH = 131_071;
const MID_LENGTH = 65_521;
const HISS_LENGTH = 32_749;

interface NoiseTables {
  rumble: Float32Array;
  mid: Float32Array;
  hiss: Float32Array;
}

let tables: NoiseTables | null = null;

const onePole = (cutoffHz: number): number => 1 - Math.exp((-2 * Math.PI * cutoffHz) / SAMPLE_RATE);

/**
 * White noise of `length` samples through a filter, as if the table repeated forever: the filter
 * runs over it twice and the second pass is kept, so the table loops without a step. Unit RMS.
 */
function circularNoise(length: number, stream: number, filter: (x: number) => number): Float32Array {
  const out = new Float32Array(length);
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < length; i++) {
      const white = (hash32(0x5eed_a0d1, stream, i) / 4294967296) * 2 - 1;
      out[i] = filter(white);
    }
  }
  let energy = 0;
  for (let i = 0; i < length; i++) energy += (out[i] as number) ** 2;
  const scale = 1 / Math.sqrt(energy / length);
  for (let i = 0; i < length; i++) out[i] = (out[i] as number) * scale;
  return out;
}

function noiseTables(): NoiseTables {
  if (tables) return tables;
  // Rumble: two poles at 160 Hz (tyres and engines far off). Mid: 250 Hz–2.5 kHz. Hiss: above 2.5 kHz.
  const lowA = onePole(160);
  let r1 = 0;
  let r2 = 0;
  const rumble = circularNoise(RUMBLE_LENGTH, 1, (x) => {
    r1 += lowA * (x - r1);
    r2 += lowA * (r1 - r2);
    return r2;
  });
  const midHigh = onePole(2500);
  const midLow = onePole(250);
  let m1 = 0;
  let m2 = 0;
  const mid = circularNoise(MID_LENGTH, 2, (x) => {
    m1 += midHigh * (x - m1);
    m2 += midLow * (m1 - m2);
    return m1 - m2;
  });
  let h1 = 0;
  const hiss = circularNoise(HISS_LENGTH, 3, (x) => {
    h1 += midHigh * (x - h1);
    return x - h1;
  });
  tables = { rumble, mid, hiss };
  return tables;
}

/** Where in the tables a sound reads: a per-instrument or per-event offset. */
interface NoiseTap {
  rumble: number;
  mid: number;
  hiss: number;
}

function noiseTap(key: number, index: number): NoiseTap {
  return {
    rumble: hash32(key, STREAM.audio, index * 3) % RUMBLE_LENGTH,
    mid: hash32(key, STREAM.audio, index * 3 + 1) % MID_LENGTH,
    hiss: hash32(key, STREAM.audio, index * 3 + 2) % HISS_LENGTH,
  };
}

// --- Sources ------------------------------------------------------------------------------------

/** log(cosh(x)) without overflow. */
const logCosh = (x: number): number => {
  const a = Math.abs(x);
  return a + Math.log1p(Math.exp(-2 * a)) - Math.LN2;
};

/** A source's signal (about unit RMS) at `u` seconds after the event's start. */
type SourceSignal = (u: number, noise: (weights: readonly [number, number, number]) => number) => number;

const TWO_PI = 2 * Math.PI;

/** Relative amplitudes of a bark's harmonics. */
const BARK_HARMONICS = [1, 0.7, 0.5, 0.35, 0.2, 0.12] as const;

/** A fixed random number of an event in [0, 1). */
const eventUnit = (key: number, event: NoiseEvent, index: number): number =>
  unit(key, STREAM.audio + 1, event.startSec * 16 + index);

/**
 * The sound of each event source (index as `EVENT_SOURCES`): closed-form phases, so the sound at
 * any time needs no earlier samples.
 */
function sourceSignal(key: number, event: NoiseEvent): SourceSignal {
  const peakU = event.peakSec - event.startSec;
  const r = (i: number) => eventUnit(key, event, i);
  switch (event.source) {
    case 0: {
      // HGV pass-by: tyre and engine rumble, a low engine note falling as it passes (Doppler).
      const f0 = 34 + 10 * r(0);
      const doppler = 0.06;
      const t = 2.5;
      const phase0 = TWO_PI * r(1);
      return (u, noise) => {
        const phase = TWO_PI * f0 * (u - doppler * t * logCosh((peakU - u) / t)) + phase0;
        let tone = 0;
        for (let k = 1; k <= 8; k++) tone += Math.sin(k * phase + k) / k ** 0.8;
        return 0.25 * tone + noise([0.9, 0.35, 0.04]);
      };
    }
    case 1: {
      // Motorcycle: an engine note climbing through the gears, one change every 2–3 s.
      const gear = 2 + r(0);
      const low = 60 + 25 * r(1);
      const span = 45 + 20 * r(2);
      return (u, noise) => {
        const v = Math.max(0, u) / gear;
        const n = Math.floor(v);
        const fraction = v - n;
        // The integral of low + span·frac(u / gear).
        const phase = TWO_PI * (low * u + (span * gear * (n + fraction * fraction)) / 2);
        let tone = 0;
        for (let k = 1; k <= 10; k++) tone += Math.sin(k * phase) / (k % 2 === 1 ? k : 2 * k);
        return 0.35 * tone + noise([0.3, 0.3, 0.05]);
      };
    }
    case 2: {
      // Aircraft: broadband roar, a faint turbine whine falling as it passes.
      const whine = 1800 + 600 * r(0);
      const t = 8;
      return (u, noise) => {
        const phase = TWO_PI * whine * (u - 0.03 * t * logCosh((peakU - u) / t));
        return noise([0.65, 0.65, 0.2]) + 0.08 * Math.sin(phase);
      };
    }
    case 3: {
      // Siren: a wail between about 600 and 1400 Hz, once every 4–5 s.
      const centre = 950 + 100 * r(0);
      const depth = 380;
      const rate = 1 / (4 + r(1));
      const phase0 = TWO_PI * r(2);
      return (u, noise) => {
        const phase =
          TWO_PI * (centre * u - (depth / (TWO_PI * rate)) * Math.cos(TWO_PI * rate * u)) + phase0;
        return (
          1.1 * (Math.sin(phase) + 0.3 * Math.sin(2 * phase) + 0.12 * Math.sin(3 * phase)) +
          noise([0.2, 0.05, 0])
        );
      };
    }
    case 4: {
      // Hydraulic breaker: 12–16 blows a second, in bursts, each a crack and a short metallic ring.
      const rate = 12 + 4 * r(0);
      const ring = 1100 + 500 * r(1);
      return (u, noise) => {
        const v = Math.max(0, u) * rate;
        const tau = (v - Math.floor(v)) / rate;
        const burst = Math.floor(Math.max(0, u) / 1.5);
        if (unit(key, STREAM.audio + 2, event.startSec * 64 + burst) >= 0.78) return 0;
        const crack = Math.exp(-tau / 0.015);
        return (
          crack * (2 * noise([0.4, 1.3, 0.6]) + 0.6 * Math.sin(TWO_PI * ring * tau) * Math.exp(-tau / 0.04))
        );
      };
    }
    default: {
      // A dog barking (the manual trigger): barks of 0.13–0.2 s, pitch falling, in groups.
      const slot = 0.38 + 0.08 * r(0);
      return (u, noise) => {
        if (u < 0) return 0;
        const group = Math.floor(u / (slot * 6));
        if (unit(key, STREAM.audio + 3, event.startSec * 64 + group) >= 0.75) return 0;
        const m = Math.floor(u / slot);
        const tau = u - m * slot;
        const draw = (i: number) => unit(key, STREAM.audio + 4, (event.startSec * 256 + m) * 4 + i);
        if (draw(0) >= 0.85) return 0;
        const length = 0.13 + 0.07 * draw(1);
        if (tau >= length) return 0;
        const f1 = 430 + 200 * draw(2);
        const envelope = (1 - Math.exp(-tau / 0.006)) * Math.exp(-tau / (length * 0.45));
        const phase = TWO_PI * (f1 * tau - (0.35 * f1 * tau * tau) / (2 * length));
        let tone = 0;
        BARK_HARMONICS.forEach((a, k) => (tone += a * Math.sin((k + 1) * phase)));
        return 2 * envelope * (tone + noise([0.05, 0.3, 0.1]));
      };
    }
  }
}

// --- Synthesis ----------------------------------------------------------------------------------

/** The background level (dB) at `u` seconds into the recording, between the seconds' values. */
export function backgroundLevelAt(score: Score, u: number): number {
  const x = u - 0.5;
  const last = score.background.length - 1;
  const i = Math.max(0, Math.min(last, Math.floor(x)));
  const j = Math.max(0, Math.min(last, i + 1));
  const f = Math.max(0, Math.min(1, x - i));
  return (score.background[i] as number) * (1 - f) + (score.background[j] as number) * f;
}

/** An event's level (dB, −Infinity when silent) at epoch second `s`, faded at its edges. */
export function eventLevelAt(event: NoiseEvent, s: number): number {
  if (s <= event.startSec || s >= event.endSec) return -Infinity;
  const edge = Math.min(s - event.startSec, event.endSec - s);
  const fade = edge >= EDGE_FADE_SEC ? 1 : 0.5 - 0.5 * Math.cos((Math.PI * edge) / EDGE_FADE_SEC);
  return NoiseModel.eventLevel(event, s - 0.5) + 20 * Math.log10(fade);
}

interface Voice {
  event: NoiseEvent;
  signal: SourceSignal;
  tap: NoiseTap;
}

const voiceCache = new WeakMap<Score, Voice[]>();

function voicesOf(score: Score): Voice[] {
  let voices = voiceCache.get(score);
  if (!voices) {
    // Keyed by the event alone: it sounds the same in every recording that hears it.
    voices = score.events.map((event) => ({
      event,
      signal: sourceSignal(score.key, event),
      tap: noiseTap(score.key, 1000 + (event.startSec % 100_003)),
    }));
    voiceCache.set(score, voices);
  }
  return voices;
}

/** Above this, samples are bent softly towards full scale rather than clipped. */
const KNEE = 0.7;
const softClip = (x: number): number => {
  const a = Math.abs(x);
  if (a <= KNEE) return x;
  return Math.sign(x) * (KNEE + (1 - KNEE) * Math.tanh((a - KNEE) / (1 - KNEE)));
};
const quantize = (x: number): number => Math.max(-32768, Math.min(32767, Math.round(softClip(x) * 32767)));

/** Road traffic: the three noises in a road's proportions, and the RMS of that mix. */
const BACKGROUND_MIX = [0.8, 0.55, 0.1] as const;
const BACKGROUND_RMS = Math.hypot(...BACKGROUND_MIX);

/**
 * Samples [first, first + out.length) of the recording as 16-bit PCM into `out`. `first` must be
 * a multiple of 32 (every frame of every format starts on one), so amplitudes are set at the
 * same instants whichever stretch is asked for.
 */
export function synthesize(score: Score, first: number, out: Int16Array): Int16Array {
  if (first % CONTROL_STEP !== 0) throw new RangeError(`Synthesis starts on a multiple of ${CONTROL_STEP}.`);
  const { rumble, mid, hiss } = noiseTables();
  const bgTap = noiseTap(score.key, 0);
  const absoluteFirst = score.startSec * SAMPLE_RATE + first;
  const n = out.length;
  const mix = new Float64Array(n);

  // Background traffic: the three noises in a road's proportions, at each second's level.
  let ir = (absoluteFirst + bgTap.rumble) % RUMBLE_LENGTH;
  let im = (absoluteFirst + bgTap.mid) % MID_LENGTH;
  let ih = (absoluteFirst + bgTap.hiss) % HISS_LENGTH;
  const bgAmplitude = (i: number) =>
    amplitudeOf(backgroundLevelAt(score, (first + i) / SAMPLE_RATE)) / BACKGROUND_RMS;
  const [wr, wm, wh] = BACKGROUND_MIX;
  for (let c = 0; c < n; c += CONTROL_STEP) {
    const a0 = bgAmplitude(c);
    const a1 = bgAmplitude(c + CONTROL_STEP);
    const end = Math.min(n, c + CONTROL_STEP);
    for (let i = c; i < end; i++) {
      const a = a0 + ((a1 - a0) * (i - c)) / CONTROL_STEP;
      mix[i] = a * (wr * (rumble[ir] as number) + wm * (mid[im] as number) + wh * (hiss[ih] as number));
      if (++ir === RUMBLE_LENGTH) ir = 0;
      if (++im === MID_LENGTH) im = 0;
      if (++ih === HISS_LENGTH) ih = 0;
    }
  }

  // Events heard in this stretch.
  const fromSec = score.startSec + first / SAMPLE_RATE;
  const toSec = fromSec + n / SAMPLE_RATE;
  for (const voice of voicesOf(score)) {
    const { event, signal, tap } = voice;
    if (event.endSec <= fromSec || event.startSec >= toSec) continue;
    const amplitude = (i: number) => {
      // From the absolute sample number, so a sample's value never depends on where a stretch starts.
      const level = eventLevelAt(event, (absoluteFirst + i) / SAMPLE_RATE);
      return level === -Infinity ? 0 : amplitudeOf(level);
    };
    let jr = 0;
    let jm = 0;
    let jh = 0;
    const noise = (w: readonly [number, number, number]) =>
      w[0] * (rumble[jr] as number) + w[1] * (mid[jm] as number) + w[2] * (hiss[jh] as number);
    for (let c = 0; c < n; c += CONTROL_STEP) {
      const a0 = amplitude(c);
      const a1 = amplitude(c + CONTROL_STEP);
      if (a0 === 0 && a1 === 0) continue;
      const end = Math.min(n, c + CONTROL_STEP);
      for (let i = c; i < end; i++) {
        const absolute = absoluteFirst + i;
        jr = (absolute + tap.rumble) % RUMBLE_LENGTH;
        jm = (absolute + tap.mid) % MID_LENGTH;
        jh = (absolute + tap.hiss) % HISS_LENGTH;
        const a = a0 + ((a1 - a0) * (i - c)) / CONTROL_STEP;
        const u = (absolute - event.startSec * SAMPLE_RATE) / SAMPLE_RATE;
        mix[i] = (mix[i] as number) + a * signal(u, noise);
      }
    }
  }

  for (let i = 0; i < n; i++) {
    const x = mix[i] as number;
    // Most samples are well below the knee: only the loud ones take the soft clip.
    out[i] = x > -KNEE && x < KNEE ? Math.round(x * 32767) : quantize(x);
  }
  return out;
}

/** How far below an AAC clip's source its background traffic is (dB): gaps between barks or blows are not silent. */
const CLIP_BACKGROUND_DB = 15;

/**
 * One source at a steady level, for the shipped AAC clips (scripts/make-demo-audio-clips.ts):
 * `source` −1 is the background traffic alone, 0… the event sources over traffic 15 dB below
 * them. `samples` from the source's start.
 */
export function synthesizeSource(source: number, levelDb: number, samples: number): Int16Array {
  const { rumble, mid, hiss } = noiseTables();
  const key = 0x0c11_9000 + source;
  const tap = noiseTap(key, 0);
  const bgTap = noiseTap(key, 1);
  const seconds = samples / SAMPLE_RATE;
  const event: NoiseEvent = {
    serial: 'clip',
    startSec: 0,
    endSec: Math.ceil(seconds),
    peakSec: Math.round(seconds / 2),
    peakLevel: levelDb,
    trigger: { name: 'clip', level: 0 },
    source: Math.max(0, source),
  };
  const signal: SourceSignal | null = source < 0 ? null : sourceSignal(key, event);
  const bgAmplitude = amplitudeOf(source < 0 ? levelDb : levelDb - CLIP_BACKGROUND_DB) / BACKGROUND_RMS;
  const amplitude = amplitudeOf(levelDb);
  const [wr, wm, wh] = BACKGROUND_MIX;
  const out = new Int16Array(samples);
  for (let i = 0; i < samples; i++) {
    const jr = (i + tap.rumble) % RUMBLE_LENGTH;
    const jm = (i + tap.mid) % MID_LENGTH;
    const jh = (i + tap.hiss) % HISS_LENGTH;
    const noise = (w: readonly [number, number, number]) =>
      w[0] * (rumble[jr] as number) + w[1] * (mid[jm] as number) + w[2] * (hiss[jh] as number);
    const background =
      wr * (rumble[(i + bgTap.rumble) % RUMBLE_LENGTH] as number) +
      wm * (mid[(i + bgTap.mid) % MID_LENGTH] as number) +
      wh * (hiss[(i + bgTap.hiss) % HISS_LENGTH] as number);
    const value = bgAmplitude * background + (signal ? amplitude * signal(i / SAMPLE_RATE, noise) : 0);
    out[i] = quantize(value);
  }
  return out;
}
