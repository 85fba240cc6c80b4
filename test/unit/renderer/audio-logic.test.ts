import { describe, expect, it } from 'vitest';
import type { DownloadSnapshot, LibraryItem, Recording } from '../../../src/shared/audio';
import {
  downloadAllQuestion,
  downloadEstimate,
  downloadFraction,
  downloadStatusText,
  lengthText,
  playableItem,
  playheadText,
  recordingStatus,
  triggerSpanText,
} from '../../../src/renderer/src/features/audio/logic';

const T0 = Date.UTC(2026, 10, 23, 14, 2, 0);
const recording: Recording = {
  id: 'au_1',
  source: 'recording',
  serial: 'QT1',
  start: T0,
  end: T0 + 35_000,
  triggerStart: T0 + 5_000,
  triggerEnd: T0 + 30_000,
  triggerName: 'Level over 65 dB(A)',
};
const download = (change: Partial<DownloadSnapshot>): DownloadSnapshot => ({
  id: 'd1',
  key: 'k1',
  recording,
  format: 'FLAC',
  state: 'downloading',
  bytes: 3_400_000,
  total: 12_000_000,
  rate: 2_100_000,
  etaMs: 4_100,
  resumed: 0,
  restarted: 0,
  error: null,
  updatedAt: T0,
  ...change,
});
const item = (change: Partial<LibraryItem>): LibraryItem => ({
  key: 'k1',
  recording,
  format: 'FLAC',
  fileName: 'QT1 2026-11-23 140200 Level over 65 dB(A).flac',
  path: '/tmp/x.flac',
  bytes: 12_000_000,
  downloadedAt: T0,
  ...change,
});

describe('recordings in words', () => {
  it('says lengths and the trigger on the site clock', () => {
    expect(lengthText(35_000)).toBe('35 s');
    expect(lengthText(185_000)).toBe('3 min 5 s');
    expect(lengthText(3_725_000)).toBe('1 h 2 min 5 s');
    expect(triggerSpanText(recording, 'utc')).toBe('14:02:05 – 14:02:30 (25 s)');
    expect(triggerSpanText({ ...recording, triggerStart: null }, 'utc')).toBeNull();
    expect(playheadText(T0, 13.44, 'utc')).toBe('14:02:13.4');
  });

  it('says a download’s progress, never a full bar before the file is in place', () => {
    expect(downloadStatusText(download({}))).toBe('3.4 MB of 12 MB · 2.1 MB/s · about 4 s left');
    expect(downloadStatusText(download({ resumed: 1 }))).toMatch(/· resumed$/);
    expect(downloadStatusText(download({ state: 'queued' }))).toBe('Waiting to download');
    expect(
      downloadStatusText(
        download({
          state: 'failed',
          error: { code: 'forbidden', message: 'This key lacks data.audio:read.', retryable: false },
        }),
      ),
    ).toBe('This key lacks data.audio:read.');
    expect(downloadFraction(download({}))).toBeCloseTo(3.4 / 12);
    expect(downloadFraction(download({ bytes: 12_000_000 }))).toBe(0.99);
    expect(downloadFraction(download({ total: null }))).toBeNull();
    expect(downloadFraction(download({ state: 'done' }))).toBe(1);
  });

  it('finds a recording in the library, else its newest download, per format', () => {
    expect(recordingStatus(recording, 'FLAC', [download({})], [item({})]).kind).toBe('library');
    const older = download({ id: 'old', state: 'failed', updatedAt: T0 - 1 });
    const status = recordingStatus(recording, 'FLAC', [older, download({})], []);
    expect(status.kind === 'download' && status.download.id).toBe('d1');
    // Another format is not this one; an event's audio with the same id is not this recording.
    expect(recordingStatus(recording, 'WAV', [download({})], [item({})]).kind).toBe('none');
    expect(recordingStatus({ ...recording, source: 'event' }, 'FLAC', [], [item({})]).kind).toBe('none');
    expect(playableItem(recording, 'WAV', [item({ format: 'OGG' })])?.format).toBe('OGG');
  });
});

describe('Download all, asked first', () => {
  // Three recordings of 35 s, 60 s and 25 s: 120 s of audio.
  const three: Recording[] = [35_000, 60_000, 25_000].map((ms, n) => ({
    ...recording,
    id: `au_${n}`,
    end: recording.start + ms,
  }));

  it('estimates the size from the files of that format already downloaded, and says so', () => {
    // Two FLAC files: 35 s in 700 kB and 15 s in 300 kB, 20 kB a second; a WAV file does not count.
    const library = [
      item({ bytes: 700_000 }),
      item({ key: 'k2', recording: { ...recording, end: recording.start + 15_000 }, bytes: 300_000 }),
      item({ key: 'k3', format: 'WAV', bytes: 99_000_000 }),
      item({ key: 'k4', bytes: 50_000_000, missing: true }),
    ];
    const estimate = downloadEstimate(three, 'FLAC', library);
    expect(estimate).toEqual({
      count: 3,
      seconds: 120,
      bytes: 2_400_000,
      ownSizes: 0,
      basis: { kind: 'library', files: 2 },
    });
    expect(downloadAllQuestion(estimate, 'FLAC')).toEqual({
      title: 'Download 3 recordings as FLAC?',
      size: '3 recordings, 2 min of audio: about 2.4 MB in all.',
      basis:
        'Estimated from the 2 FLAC files already downloaded: the service gives a recording’s size only as it downloads.',
      confirm: 'Download 3 recordings',
    });
  });

  it('says the format’s bit rate when no file of that format was downloaded yet: WAV 16 kHz mono is 32 kB/s', () => {
    const estimate = downloadEstimate(three, 'WAV', [item({})]);
    // 16,000 samples a second × 2 bytes = 32,000 B/s; 120 s × 32,000 = 3,840,000 bytes.
    expect(estimate).toEqual({
      count: 3,
      seconds: 120,
      bytes: 3_840_000,
      ownSizes: 0,
      basis: { kind: 'assumed' },
    });
    const question = downloadAllQuestion(estimate, 'WAV');
    expect(question.size).toBe('3 recordings, 2 min of audio: about 3.8 MB in all.');
    expect(question.basis).toBe(
      'Estimated at 32 kB per second of WAV audio: the service gives a recording’s size only as it downloads.',
    );
  });

  it('takes a recording’s own size where the service gave it, and estimates only the others', () => {
    // The 60 s recording began to download before and was cancelled: the service said 1,500,000 bytes.
    const begun = download({ recording: three[1]!, state: 'cancelled', total: 1_500_000 });
    // Another format's size or a download without a size says nothing about FLAC.
    const others = [
      download({ recording: three[0]!, format: 'WAV' }),
      download({ recording: three[2]!, total: null }),
    ];
    const estimate = downloadEstimate(three, 'FLAC', [item({ bytes: 700_000 })], [begun, ...others]);
    // 1,500,000 + (35 s + 25 s) × 20,000 B/s (700 kB in 35 s) = 1,500,000 + 1,200,000 = 2,700,000.
    expect(estimate).toMatchObject({ bytes: 2_700_000, ownSizes: 1, basis: { kind: 'library', files: 1 } });
    expect(downloadAllQuestion(estimate, 'FLAC')).toMatchObject({
      size: '3 recordings, 2 min of audio: about 2.7 MB in all.',
      basis:
        '1 of the sizes as the service gave them as they began to download; the others estimated from the FLAC file already downloaded: the service gives a recording’s size only as it downloads.',
    });
    // Every size known: nothing assumed.
    const all = three.map((r, n) => download({ id: `d${n}`, recording: r, total: 1_000_000 }));
    const known = downloadEstimate(three, 'FLAC', [], all);
    expect(known).toMatchObject({ bytes: 3_000_000, ownSizes: 3, basis: { kind: 'none' } });
    expect(downloadAllQuestion(known, 'FLAC').basis).toBe(
      'From the sizes the service gave as these recordings began to download.',
    );
  });

  it('counts one recording in the singular', () => {
    const question = downloadAllQuestion(downloadEstimate([three[0]!], 'AAC', []), 'AAC');
    expect(question.title).toBe('Download 1 recording as AAC?');
    // 35 s × 4,000 B/s (AAC at 32 kbit/s) = 140,000 bytes.
    expect(question.size).toBe('1 recording, 35 s of audio: about 140 kB in all.');
  });
});
