/**
 * History reads (calibrations, calibration log, SIC) through the client against a scripted
 * loopback server: range splitting into 1-year requests, joining, robust parsing. Also the
 * settings: argument validation and the settings file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ATTENTION_THRESHOLDS } from '../../../src/shared/attention';
import fc from 'fast-check';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServiceClient } from '../../../src/main/backend/service/client';
import { splitRange } from '../../../src/main/backend/service/ranges';
import { openSettingsStore, SETTINGS_FILE_NAME } from '../../../src/main/backend/settings/settings-store';
import { FieldDeskError } from '../../../src/shared/errors';
import { parseRequestArg } from '../../../src/shared/ipc/contract';
import { DATA_ENDPOINT_LIMITS } from '../../../src/shared/service/limits';
import { makeTempDir, sendJson, startTestServer, type TestServer } from './helpers';

const YEAR_MS = DATA_ENDPOINT_LIMITS.calibrations.maxRangeMs;
const DAY_MS = 86_400_000;
const T0 = Date.UTC(2023, 0, 1);

describe('splitRange', () => {
  it('covers the range exactly with consecutive pieces no longer than the limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2e12 }),
        fc.integer({ min: 1, max: 5 * YEAR_MS }),
        fc.integer({ min: DAY_MS, max: YEAR_MS }),
        (start, length, max) => {
          const pieces = splitRange(start, start + length, max);
          expect(pieces[0]?.start).toBe(start);
          expect(pieces.at(-1)?.end).toBe(start + length);
          pieces.forEach((piece, i) => {
            expect(piece.end - piece.start).toBeGreaterThan(0);
            expect(piece.end - piece.start).toBeLessThanOrEqual(max);
            if (i > 0) expect(piece.start).toBe(pieces[i - 1]?.end);
          });
          expect(pieces).toHaveLength(Math.ceil(length / max));
        },
      ),
    );
  });

  it('gives one piece for a range within the limit and none for an empty one', () => {
    expect(splitRange(T0, T0 + YEAR_MS, YEAR_MS)).toEqual([{ start: T0, end: T0 + YEAR_MS }]);
    expect(splitRange(T0, T0, YEAR_MS)).toEqual([]);
  });
});

describe('latest results through the client', () => {
  let server: TestServer;
  afterEach(async () => server.close());

  const client = () =>
    createServiceClient({
      baseUrl: server.baseUrl,
      apiKey: 'k',
      timeoutMs: 2_000,
      retry: { limit: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 },
    });

  it('answers null for the latest result when the instrument has none (404)', async () => {
    server = await startTestServer((req, res) =>
      req.url.endsWith('/calibration')
        ? sendJson(res, 404, { error: 'NotFound', description: 'QT1 has never been calibrated.' })
        : sendJson(res, 200, {
            time: '2024-02-01T09:00:00Z',
            status: 'Success',
            _500Hz: 1,
            _1KHz: 2,
            _8KHz: 3,
          }),
    );
    expect(await client().getCalibration('QT1')).toBeNull();
    expect(await client().getSic('QT1')).toMatchObject({ time: Date.UTC(2024, 1, 1, 9), _8KHz: 3 });
  });
});

describe('history range arguments', () => {
  it('accepts epoch ms with start before end, up to ten years', () => {
    expect(parseRequestArg('history.sic', { serial: ' QT1 ', start: T0, end: T0 + DAY_MS })).toEqual({
      serial: 'QT1',
      start: T0,
      end: T0 + DAY_MS,
    });
  });

  it.each([
    [{ serial: 'QT1', start: T0, end: T0 }, 'end', 'The start of the range must be before its end.'],
    [
      { serial: 'QT1', start: T0, end: T0 + 11 * 366 * DAY_MS },
      'start',
      'Ask for ten years or less at a time.',
    ],
    [
      { serial: 'QT1', start: '2024-01-01', end: T0 },
      'start',
      'Give the time as a number of milliseconds since 1970.',
    ],
    [{ serial: 'QT1', start: 1.5, end: T0 }, 'start', 'Give the time as a whole number of milliseconds.'],
  ])('refuses %j', (arg, field, message) => {
    expect(() => parseRequestArg('history.calibrations', arg)).toThrow(message);
    try {
      parseRequestArg('history.calibrations', arg);
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalidInput', field });
    }
  });
});

describe('settings', () => {
  let dir: { path: string; remove(): Promise<void> };
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => dir.remove());

  it('validates updates: 94 or 114 dB, tolerance 0.1–2.0 dB, nothing else', () => {
    expect(parseRequestArg('settings.update', { calibrationReferenceDb: 114 })).toEqual({
      calibrationReferenceDb: 114,
    });
    expect(parseRequestArg('settings.update', { calibrationToleranceDb: 0.1 })).toEqual({
      calibrationToleranceDb: 0.1,
    });
    expect(parseRequestArg('settings.update', { calibrationToleranceDb: 2 })).toEqual({
      calibrationToleranceDb: 2,
    });
    expect(() => parseRequestArg('settings.update', { calibrationReferenceDb: 104 })).toThrow(
      'The calibrator reference level must be 94 dB or 114 dB.',
    );
    for (const bad of [0.05, 2.01, -1]) {
      expect(() => parseRequestArg('settings.update', { calibrationToleranceDb: bad })).toThrow(
        'The calibration tolerance must be between 0.1 dB and 2.0 dB.',
      );
    }
    expect(() => parseRequestArg('settings.update', { calibrationToleranceDb: '0.5' })).toThrow(
      /number of decibels/,
    );
    expect(() => parseRequestArg('settings.update', { theme: 'dark' })).toThrow(FieldDeskError);
  });

  it('validates the SIC tolerance (0.5–6.0 dB) and keeps it across a restart', async () => {
    expect(parseRequestArg('settings.update', { sicToleranceDb: 1.5 })).toEqual({ sicToleranceDb: 1.5 });
    for (const bad of [0.4, 6.1]) {
      expect(() => parseRequestArg('settings.update', { sicToleranceDb: bad })).toThrow(
        'The SIC tolerance must be between 0.5 dB and 6.0 dB.',
      );
    }
    const store = await openSettingsStore(dir.path);
    await store.update({ sicToleranceDb: 1.5 });
    expect((await openSettingsStore(dir.path)).get().sicToleranceDb).toBe(1.5);
  });

  it('starts with 94.0 dB ± 0.5 dB, saves changes, and reads them back after a restart', async () => {
    const store = await openSettingsStore(dir.path);
    expect(store.get()).toEqual({
      calibrationReferenceDb: 94,
      calibrationToleranceDb: 0.5,
      sicToleranceDb: 2,
      refreshCachedAfterMinutes: 5,
      ...DEFAULT_ATTENTION_THRESHOLDS,
    });
    expect((await store.update({ calibrationToleranceDb: 0.8 })).settings).toEqual({
      calibrationReferenceDb: 94,
      calibrationToleranceDb: 0.8,
      sicToleranceDb: 2,
      refreshCachedAfterMinutes: 5,
      ...DEFAULT_ATTENTION_THRESHOLDS,
    });
    await store.update({ calibrationReferenceDb: 114 });
    const saved = JSON.parse(await readFile(join(dir.path, SETTINGS_FILE_NAME), 'utf8'));
    expect(saved).toEqual({
      version: 1,
      settings: {
        calibrationReferenceDb: 114,
        calibrationToleranceDb: 0.8,
        sicToleranceDb: 2,
        refreshCachedAfterMinutes: 5,
        ...DEFAULT_ATTENTION_THRESHOLDS,
      },
    });
    expect((await openSettingsStore(dir.path)).get()).toEqual({
      calibrationReferenceDb: 114,
      calibrationToleranceDb: 0.8,
      sicToleranceDb: 2,
      refreshCachedAfterMinutes: 5,
      ...DEFAULT_ATTENTION_THRESHOLDS,
    });
  });

  it('moves a damaged file aside and uses the defaults, and replaces a single bad value by its default', async () => {
    await writeFile(join(dir.path, SETTINGS_FILE_NAME), '{"version": 1, "settings": ');
    const store = await openSettingsStore(dir.path, () => T0);
    expect(store.get()).toEqual({
      calibrationReferenceDb: 94,
      calibrationToleranceDb: 0.5,
      sicToleranceDb: 2,
      refreshCachedAfterMinutes: 5,
      ...DEFAULT_ATTENTION_THRESHOLDS,
    });
    expect(store.warning).toMatch(/damaged.*kept as settings\.json\.corrupt-2023-01-01/);
    expect((await readdir(dir.path)).filter((name) => name.includes('corrupt'))).toHaveLength(1);

    await writeFile(
      join(dir.path, SETTINGS_FILE_NAME),
      JSON.stringify({ version: 1, settings: { calibrationReferenceDb: 114, calibrationToleranceDb: 9 } }),
    );
    const partly = await openSettingsStore(dir.path);
    expect(partly.get()).toEqual({
      calibrationReferenceDb: 114,
      calibrationToleranceDb: 0.5,
      sicToleranceDb: 2,
      refreshCachedAfterMinutes: 5,
      ...DEFAULT_ATTENTION_THRESHOLDS,
    });
    expect(partly.warning).toMatch(/^Your saved calibration pass tolerance could not be used/);
    expect(partly.state().needsConfirmation).toBe(true);
  });

  it('keeps unconfirmed defaults unconfirmed across a restart, until the user confirms them', async () => {
    await writeFile(join(dir.path, SETTINGS_FILE_NAME), 'not json');
    expect((await openSettingsStore(dir.path)).state().needsConfirmation).toBe(true);
    const restarted = await openSettingsStore(dir.path);
    expect(restarted.state()).toMatchObject({ needsConfirmation: true });
    await restarted.confirm();
    expect((await openSettingsStore(dir.path)).state()).toEqual({
      settings: {
        calibrationReferenceDb: 94,
        calibrationToleranceDb: 0.5,
        sicToleranceDb: 2,
        refreshCachedAfterMinutes: 5,
        ...DEFAULT_ATTENTION_THRESHOLDS,
      },
      notice: null,
      needsConfirmation: false,
    });
  });
});
