/**
 * data.export: the answer at full resolution as CSV — checked against the demo service's own answer
 * for the same question — written to a temporary name and renamed when complete, fields quoted as
 * RFC 4180 wants, and a clear message when the file cannot be written.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvLines, seriesTimeHeader } from '../../../src/main/backend/data/csv-export';
import { exportValueText } from '../../../src/shared/quantities';
import type { DataReadResult } from '../../../src/shared/data';
import { API_KEY_HEADER } from '../../../src/shared/service/limits';
import { DEMO_TEST_KEY, startDemoBackend } from './backend-helpers';
import { failureOf } from './helpers';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 23, 9);

describe('CSV lines', () => {
  const result = (over: Partial<DataReadResult>): DataReadResult => ({
    query: { serial: 'QT1', dataset: 'noiseTimeHistory', start: T0, end: T0 + 10_000 },
    provenance: { source: 'fresh', fetchedAt: T0 },
    series: [],
    records: null,
    ...over,
  });
  const lines = (r: DataReadResult) => [...csvLines(r)].flat();

  it('merges the series by time, one column each with its unit, and leaves out gap markers', () => {
    const csv = lines(
      result({
        series: [
          {
            name: 'LAeq',
            label: 'LAeq',
            unit: 'dB',
            kind: 'level',
            precision: { decimals: 1 },
            times: Float64Array.from([T0, T0 + 1000, T0 + 2000, T0 + 5000]),
            values: Float32Array.from([62.3, Number.NaN, 61, 59.9]),
          },
          {
            name: 'windSpeed',
            label: 'Wind speed',
            unit: 'm/s',
            times: Float64Array.from([T0, T0 + 5000]),
            values: Float32Array.from([3.2, 4]),
          },
        ],
      }),
    );
    // At least the channel's precision ("61.0" beside "62.3"); a channel of no declared precision as sent.
    expect(csv).toEqual([
      // Time history samples are stamped with their start (each block's `start`, one per sample).
      'Interval start (UTC),LAeq (dB),Wind speed (m/s)',
      '2026-11-23T09:00:00.000Z,62.3,3.2',
      '2026-11-23T09:00:02.000Z,61.0,',
      '2026-11-23T09:00:05.000Z,59.9,4',
    ]);
  });

  it('writes a records-only dataset as its table, times in ISO 8601 UTC, text quoted when needed', () => {
    const csv = lines(
      result({
        query: { serial: 'QT1', dataset: 'monitorEvents', start: T0, end: T0 + HOUR },
        records: {
          timeKey: 'time',
          columns: [
            { key: 'time', label: 'Time', unit: null, type: 'time' },
            { key: 'message', label: 'Message', unit: null, type: 'text' },
          ],
          rows: [
            { time: T0 + 60_000, message: 'Modem restarted, "weak signal"' },
            { time: T0, message: 'Power on' },
          ],
        },
      }),
    );
    expect(csv).toEqual([
      'Time (UTC),Message',
      '2026-11-23T09:00:00.000Z,Power on',
      '2026-11-23T09:01:00.000Z,"Modem restarted, ""weak signal"""',
    ]);
  });

  it('says what each dataset’s times mark: an interval’s start where the service says so', () => {
    // startTime (measurements, particulates, vibration) and a time history block's start.
    for (const dataset of [
      'noiseMeasurements',
      'frequencyTimeHistory',
      'particulates',
      'vibrationPPV',
    ] as const)
      expect(seriesTimeHeader(dataset)).toBe('Interval start (UTC)');
    // Weather's and the monitor's `time` is "Time of the sample", neither start nor end.
    expect(seriesTimeHeader('weather')).toBe('"Sample time (UTC, start or end not documented)"');
    expect(seriesTimeHeader('monitorStats')).toBe(seriesTimeHeader('weather'));
    // A calibration or a SIC happens at an instant.
    expect(seriesTimeHeader('calibrations')).toBe('Time (UTC)');
  });

  it('writes a Float32 reading as it was sent', () => {
    expect(exportValueText(Math.fround(62.3), null)).toBe('62.3');
    expect(exportValueText(Math.fround(0.1), null)).toBe('0.1');
    expect(exportValueText(Number.NaN, null)).toBe('');
  });
});

describe('data.export against the demo service', () => {
  async function demoBackend(chooseExportPath?: (name: string) => Promise<string | null>) {
    const made = await startDemoBackend(chooseExportPath === undefined ? {} : { chooseExportPath });
    const fleet = await made.handlers['instruments.list']({});
    const serial = fleet.entries.find((e) => e.instrument.type === 'Noise')!.instrument.serialNumber;
    return { ...made, serial };
  }

  it('writes every reading the service sent, at full resolution, into the exports folder', async () => {
    const { handlers, service, dataDir, serial } = await demoBackend();
    const end = Math.floor(Date.now() / HOUR) * HOUR - 24 * HOUR;
    const query = { serial, dataset: 'noiseTimeHistory' as const, start: end - HOUR, end };
    const saved = await handlers['data.export']({
      ...query,
      options: { values: ['LAeq', 'LAFMax'] },
    });
    if (!saved.saved) throw new Error('expected the export to be saved');
    expect(saved.path).toBe(join(dataDir, 'exports', saved.fileName));
    expect(saved.fileName).toMatch(new RegExp(`^${serial} Noise time history .*\\.csv$`));
    // Complete under its final name; no temporary file left.
    expect(await readdir(join(dataDir, 'exports'))).toEqual([saved.fileName]);

    const bytes = await readFile(saved.path);
    // UTF-8's byte order mark first, so Excel reads the file as UTF-8.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.length).toBe(saved.bytes);
    const csv = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(csv[0]).toBe('Interval start (UTC),LAeq (dB),LAFMax (dB)');
    expect(csv.length - 1).toBe(saved.rows);

    // The demo service's own answer to the same question, read without FieldDesk.
    const params = new URLSearchParams({
      instruments: serial,
      start: new Date(query.start).toISOString(),
      end: new Date(query.end).toISOString(),
      values: 'LAeq,LAFMax',
    });
    const answer = (await (
      await fetch(`${service.baseUrl}/data/noise/timehistory?${params}`, {
        headers: { [API_KEY_HEADER]: DEMO_TEST_KEY },
      })
    ).json()) as Array<{
      type: string;
      blocks: Array<{ start: string; sampleDuration: number; values: Array<number | null> }>;
    }>;
    const expected = new Map<string, string[]>();
    for (const record of answer) {
      const column = record.type === 'LAeq' ? 0 : 1;
      for (const block of record.blocks) {
        block.values.forEach((value, i) => {
          const time = new Date(Date.parse(block.start) + i * block.sampleDuration).toISOString();
          const row = expected.get(time) ?? ['', ''];
          // The service sends levels to 0.1 dB; the export writes every one to its precision, 0.1 dB.
          row[column] = value === null ? '' : value.toFixed(1);
          expected.set(time, row);
        });
      }
    }
    const wanted = [...expected]
      .filter(([, cells]) => cells.some((c) => c !== ''))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([time, cells]) => `${time},${cells.join(',')}`);
    expect(csv.slice(1)).toEqual(wanted);
    expect(wanted.length).toBeGreaterThan(3_000);
  });

  it('saves nothing when the user cancels, and says why when the place cannot be written', async () => {
    let answer: string | null = null;
    const { handlers, dataDir, serial } = await demoBackend(async () => answer);
    const end = Math.floor(Date.now() / HOUR) * HOUR - 24 * HOUR;
    const query = { serial, dataset: 'noiseTimeHistory' as const, start: end - HOUR, end };
    await expect(handlers['data.export'](query)).resolves.toEqual({ saved: false });

    answer = join(dataDir, 'no-such-folder', 'export.csv');
    const refused = await failureOf(handlers['data.export'](query));
    expect(refused).toMatchObject({ code: 'diskError', retryable: true });
    expect(refused.message).toBe(
      `The folder ${join(dataDir, 'no-such-folder')} does not exist (any more), so the export “export.csv” could not be saved. Choose another folder.`,
    );
  });

  it('tells how far a long export is after each chunk, ending at the whole', async () => {
    const { handlers, events, serial } = await demoBackend();
    const end = Math.floor(Date.now() / HOUR) * HOUR - 24 * HOUR;
    const saved = await handlers['data.export']({
      serial,
      dataset: 'noiseTimeHistory',
      start: end - 6 * HOUR,
      end,
    });
    if (!saved.saved) throw new Error('expected the export to be saved');
    const progress = events.flatMap((e) => (e.channel === 'data.exportProgress' ? [e.payload] : []));
    // Six hours of 1 s readings are several chunks of 5,000 rows.
    expect(progress.length).toBeGreaterThanOrEqual(4);
    expect(progress.every((p) => p.fileName === saved.fileName)).toBe(true);
    const fractions = progress.map((p) => p.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    // Gradual: the header at 0, then steps on the way, not one jump to the end.
    expect(fractions[0]).toBe(0);
    expect(fractions.some((f) => f > 0 && f < 0.5)).toBe(true);
    expect(progress[progress.length - 1]).toMatchObject({ fraction: 1, rows: saved.rows });
  });
});

describe('data.saveImage', () => {
  // The smallest PNG: one white pixel.
  const PIXEL = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC',
    'base64',
  );

  it('writes the PNG whole under the chosen name, and refuses bytes that are not a PNG', async () => {
    const { handlers, dataDir } = await startDemoBackend();
    const saved = await handlers['data.saveImage']({
      fileName: 'QT1 chart.png',
      pngBase64: PIXEL.toString('base64'),
    });
    if (!saved.saved) throw new Error('expected the image to be saved');
    expect(saved.path).toBe(join(dataDir, 'exports', 'QT1 chart.png'));
    expect(await readFile(saved.path)).toEqual(PIXEL);
    expect(await readdir(join(dataDir, 'exports'))).toEqual(['QT1 chart.png']);

    const refused = await failureOf(
      handlers['data.saveImage']({
        fileName: 'x.png',
        pngBase64: Buffer.from('GIF89a...').toString('base64'),
      }),
    );
    expect(refused).toMatchObject({ code: 'invalidInput' });
    expect(refused.message).toMatch(/not a PNG/);
  });
});
