/**
 * The demo's audio recordings: one around every event of an instrument with the Audio add-on
 * (from 5 s before its trigger to 5 s after), and, when a test asks for it, one long recording
 * for download benchmarks. Finds a recording by its id and makes its score (synth.ts).
 */
import { formatServiceTime } from '../../shared/service/time';
import type { DataContext } from '../data/context';
import {
  AUDIO_POST_SEC,
  AUDIO_PRE_SEC,
  audioId,
  encodeIdPart,
  eventsInRange,
  hasAudio,
  parseEventId,
} from '../data/events';
import { hash32, STREAM } from '../data/hash';
import { SECONDS_PER_GRID } from '../data/interval-seconds';
import type { NoiseEvent } from '../data/noise-model';
import type { DemoInstrument } from '../fleet';
import { MAX_WAV_SAMPLES } from './files';
import { SAMPLE_RATE, type Score } from './synth';

/** One recording as the service lists it (`GET /data/audio`). */
export interface WireAudioRecording {
  id: string;
  instrument: string;
  startTime: string;
  endTime: string;
  triggerStartTime: string;
  triggerEndTime: string;
  triggerName: string;
}

export interface AudioRecording {
  id: string;
  instrument: DemoInstrument;
  /** Epoch seconds: the recording covers [startSec, endSec). */
  startSec: number;
  endSec: number;
  triggerStartSec: number;
  triggerEndSec: number;
  triggerName: string;
  /** The event it was recorded for: such recordings are also `GET /data/events/audio/{id}`. */
  event: NoiseEvent | null;
}

export const recordingSamples = (recording: AudioRecording): number =>
  (recording.endSec - recording.startSec) * SAMPLE_RATE;

export function wireRecording(recording: AudioRecording): WireAudioRecording {
  return {
    id: recording.id,
    instrument: recording.instrument.wire.serialNumber,
    startTime: formatServiceTime(recording.startSec * 1000),
    endTime: formatServiceTime(recording.endSec * 1000),
    triggerStartTime: formatServiceTime(recording.triggerStartSec * 1000),
    triggerEndTime: formatServiceTime(recording.triggerEndSec * 1000),
    triggerName: recording.triggerName,
  };
}

const WAV_HEADER_BYTES = 44;
/** The long recording's size limit: the whole seconds a WAV file can hold (about 37 h, 4 GB). */
export const MAX_LONG_RECORDING_BYTES =
  WAV_HEADER_BYTES + Math.floor(MAX_WAV_SAMPLES / SAMPLE_RATE) * SAMPLE_RATE * 2;

/** Seconds of a recording whose WAV file has at least `bytes` bytes (at least 20 s). */
export function longRecordingSeconds(bytes: number): number {
  const samples = Math.ceil(Math.max(0, bytes - WAV_HEADER_BYTES) / 2);
  return Math.max(20, Math.ceil(samples / SAMPLE_RATE));
}

export class AudioRecordings {
  private readonly long: AudioRecording | null;

  constructor(
    private readonly context: DataContext,
    options: { longRecordingBytes?: number; createdAtMs: number },
  ) {
    this.long =
      options.longRecordingBytes === undefined
        ? null
        : this.makeLong(options.longRecordingBytes, options.createdAtMs);
  }

  /**
   * The long recording: on the fleet's first instrument with the Audio add-on, ending at the
   * start of the hour the service started in, marked as a manual trigger 5 s in from each end.
   */
  private makeLong(bytes: number, createdAtMs: number): AudioRecording | null {
    const instrument = [...this.context.state.instruments.values()].find(hasAudio);
    if (!instrument) return null;
    const seconds = longRecordingSeconds(bytes);
    const endSec = Math.floor(createdAtMs / 3_600_000) * 3600;
    const startSec = endSec - seconds;
    const serial = instrument.wire.serialNumber;
    const key = this.context.key(serial);
    const tag = [1, 2, 3, 4]
      .map((n) =>
        hash32(key, STREAM.audio + 10 + n, startSec)
          .toString(16)
          .padStart(8, '0'),
      )
      .join('');
    return {
      id: `au_${encodeIdPart(`${serial}:${startSec}:${seconds}`)}_${tag}`,
      instrument,
      startSec,
      endSec,
      triggerStartSec: startSec + AUDIO_PRE_SEC,
      triggerEndSec: endSec - AUDIO_POST_SEC,
      triggerName: 'Manual trigger',
      event: null,
    };
  }

  private ofEvent(instrument: DemoInstrument, event: NoiseEvent): AudioRecording {
    return {
      id: audioId(event, this.context.noiseModel(instrument).key),
      instrument,
      startSec: event.startSec - AUDIO_PRE_SEC,
      endSec: event.endSec + AUDIO_POST_SEC,
      triggerStartSec: event.startSec,
      triggerEndSec: event.endSec,
      triggerName: event.trigger.name,
      event,
    };
  }

  /** Recordings of an instrument whose trigger starts within [startMs, endMs), in time order. */
  list(instrument: DemoInstrument, startMs: number, endMs: number): AudioRecording[] {
    if (!hasAudio(instrument)) return [];
    const recordings = eventsInRange(this.context, instrument, startMs, endMs).map((event) =>
      this.ofEvent(instrument, event),
    );
    const long = this.long;
    if (
      long !== null &&
      long.instrument === instrument &&
      long.triggerStartSec * 1000 >= startMs &&
      long.triggerStartSec * 1000 < endMs
    ) {
      recordings.push(long);
      recordings.sort((a, b) => a.triggerStartSec - b.triggerStartSec);
    }
    return recordings;
  }

  /**
   * The recording with this id, or null: an id of another fleet, seed or instrument, or of an
   * event that is not (or no longer) recorded, is unknown. `eventsOnly`: event audio only.
   */
  find(id: string, eventsOnly = false): AudioRecording | null {
    if (!eventsOnly && this.long !== null && id === this.long.id) return this.long;
    const parsed = parseEventId(id, 'au');
    if (parsed === null) return null;
    const instrument = this.context.state.instruments.get(parsed.serial);
    if (!instrument || !hasAudio(instrument)) return null;
    const event = eventsInRange(
      this.context,
      instrument,
      parsed.startSec * 1000,
      parsed.startSec * 1000 + 1,
    )[0];
    if (!event) return null;
    const recording = this.ofEvent(instrument, event);
    return recording.id === id ? recording : null;
  }

  /** What the recording sounds like: the instrument's background and the events heard in it. */
  score(recording: AudioRecording): Score {
    const model = this.context.noiseModel(recording.instrument);
    const seconds = recording.endSec - recording.startSec;
    const background = new Float64Array(seconds);
    // Per 15-minute interval, as the noise data is made, so the levels are the same.
    const firstGrid = Math.floor(recording.startSec / SECONDS_PER_GRID);
    const lastGrid = Math.floor((recording.endSec - 1) / SECONDS_PER_GRID);
    const levels = new Float64Array(SECONDS_PER_GRID);
    const patterns = new Uint8Array(SECONDS_PER_GRID);
    for (let g = firstGrid; g <= lastGrid; g++) {
      const gridStart = g * SECONDS_PER_GRID;
      model.fillBackground(gridStart, levels, patterns);
      const from = Math.max(recording.startSec, gridStart);
      const to = Math.min(recording.endSec, gridStart + SECONDS_PER_GRID);
      background.set(levels.subarray(from - gridStart, to - gridStart), from - recording.startSec);
    }
    return {
      key: model.key,
      startSec: recording.startSec,
      totalSamples: recordingSamples(recording),
      background,
      events: model.eventsBetween(recording.startSec, recording.endSec),
    };
  }
}
