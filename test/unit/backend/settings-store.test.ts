/**
 * The settings file, one setting at a time: a bad saved value falls back to its own default with a
 * warning that names exactly what was replaced and what it became, and only replaced calibration
 * settings make calibrations wait for a confirmation. Also the `settings.update` arguments for the
 * refresh age of cached data.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ATTENTION_THRESHOLDS } from '../../../src/shared/attention';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  openSettingsStore,
  replacedSettingsWarning,
  SETTINGS_FILE_NAME,
} from '../../../src/main/backend/settings/settings-store';
import { settingsHandlers, SETTINGS_NOTICE_ID } from '../../../src/main/backend/settings/handlers';
import { createNoticeBoard } from '../../../src/main/backend/core/notices';
import { createEventHub } from '../../../src/main/backend/core/events';
import { parseRequestArg } from '../../../src/shared/ipc/contract';
import { useTempDirs } from './helpers';

const tempDir = useTempDirs();

async function savedFile(dir: string, settings: Record<string, unknown>, extra: object = {}): Promise<void> {
  await writeFile(join(dir, SETTINGS_FILE_NAME), JSON.stringify({ version: 1, ...extra, settings }));
}

const readSaved = async (dir: string): Promise<unknown> =>
  JSON.parse(await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8'));

describe('the refresh age of cached data in the settings file', () => {
  it('falls back to 5 minutes on its own, says so, and asks no calibration to wait', async () => {
    const dir = await tempDir();
    await savedFile(dir, {
      calibrationReferenceDb: 114,
      calibrationToleranceDb: 0.8,
      refreshCachedAfterMinutes: 0,
    });
    const store = await openSettingsStore(dir);
    expect(store.get()).toEqual({
      calibrationReferenceDb: 114,
      calibrationToleranceDb: 0.8,
      sicToleranceDb: 2,
      refreshCachedAfterMinutes: 5,
      ...DEFAULT_ATTENTION_THRESHOLDS,
    });
    expect(store.warning).toBe(
      'Your saved refresh age of cached data could not be used, so the default applies: ' +
        'cached data refreshed once older than 5 minutes.',
    );
    expect(store.warning).not.toMatch(/calibra|dB/);
    // The calibration settings are the user's own: nothing to confirm, no calibration notice.
    expect(store.state()).toEqual({ settings: store.get(), notice: null, needsConfirmation: false });
    // The default is written at once, without the unconfirmed mark, so a restart is quiet.
    expect(await readSaved(dir)).toEqual({
      version: 1,
      settings: {
        calibrationReferenceDb: 114,
        calibrationToleranceDb: 0.8,
        sicToleranceDb: 2,
        refreshCachedAfterMinutes: 5,
        ...DEFAULT_ATTENTION_THRESHOLDS,
      },
    });
    const restarted = await openSettingsStore(dir);
    expect(restarted.warning).toBeNull();
    expect(restarted.state().needsConfirmation).toBe(false);
  });

  it.each([[2.5], [121], [-3], ['10'], [null]])('replaces a saved %j', async (bad) => {
    const dir = await tempDir();
    await savedFile(dir, { calibrationReferenceDb: 94, refreshCachedAfterMinutes: bad });
    const store = await openSettingsStore(dir);
    expect(store.get().refreshCachedAfterMinutes).toBe(5);
    expect(store.warning).toMatch(/^Your saved refresh age of cached data could not be used/);
    expect(store.state().needsConfirmation).toBe(false);
  });

  it('keeps a usable saved value, and gives a file from before the setting its default without a word', async () => {
    const dir = await tempDir();
    await savedFile(dir, {
      calibrationReferenceDb: 94,
      calibrationToleranceDb: 0.5,
      refreshCachedAfterMinutes: 120,
    });
    expect((await openSettingsStore(dir)).get().refreshCachedAfterMinutes).toBe(120);
    await savedFile(dir, { calibrationReferenceDb: 114, calibrationToleranceDb: 0.5 });
    const older = await openSettingsStore(dir);
    expect(older.get()).toEqual({
      calibrationReferenceDb: 114,
      calibrationToleranceDb: 0.5,
      sicToleranceDb: 2,
      refreshCachedAfterMinutes: 5,
      ...DEFAULT_ATTENTION_THRESHOLDS,
    });
    expect(older.warning).toBeNull();
    expect(older.state().needsConfirmation).toBe(false);
  });

  it('names each replaced value with its own default: a bad tolerance does not claim the reference was reset', async () => {
    const dir = await tempDir();
    await savedFile(dir, {
      calibrationReferenceDb: 114,
      calibrationToleranceDb: 9,
      refreshCachedAfterMinutes: 10,
    });
    const store = await openSettingsStore(dir);
    expect(store.get()).toEqual({
      calibrationReferenceDb: 114,
      calibrationToleranceDb: 0.5,
      sicToleranceDb: 2,
      refreshCachedAfterMinutes: 10,
      ...DEFAULT_ATTENTION_THRESHOLDS,
    });
    expect(store.warning).toBe(
      'Your saved calibration pass tolerance could not be used, so the default applies: ±0.5 dB tolerance.',
    );
    expect(store.state()).toMatchObject({ notice: store.warning, needsConfirmation: true });
  });

  it('says both when a calibration setting and the refresh age were replaced, and the calibration waits', async () => {
    const dir = await tempDir();
    await savedFile(dir, {
      calibrationReferenceDb: 100,
      calibrationToleranceDb: 0.5,
      refreshCachedAfterMinutes: 'soon',
    });
    const store = await openSettingsStore(dir);
    expect(store.warning).toBe(
      'Your saved calibrator reference level and refresh age of cached data could not be used, so the ' +
        'defaults apply: 94.0 dB reference, cached data refreshed once older than 5 minutes.',
    );
    expect(store.state().needsConfirmation).toBe(true);
    expect(
      replacedSettingsWarning([
        'refreshCachedAfterMinutes',
        'calibrationToleranceDb',
        'calibrationReferenceDb',
      ]),
    ).toBe(
      'Your saved calibrator reference level, calibration pass tolerance and refresh age of cached data ' +
        'could not be used, so the defaults apply: 94.0 dB reference, ±0.5 dB tolerance, cached data ' +
        'refreshed once older than 5 minutes.',
    );
    expect(replacedSettingsWarning([])).toBeNull();
  });

  it('a change of the refresh age does not confirm calibration settings waiting to be confirmed; their own change does', async () => {
    const dir = await tempDir();
    await savedFile(dir, {}, { unconfirmed: true });
    const store = await openSettingsStore(dir);
    expect(store.state().needsConfirmation).toBe(true);
    const afterRefresh = await store.update({ refreshCachedAfterMinutes: 15 });
    expect(afterRefresh).toMatchObject({
      needsConfirmation: true,
      settings: { refreshCachedAfterMinutes: 15 },
    });
    expect(await readSaved(dir)).toMatchObject({ unconfirmed: true });
    expect((await openSettingsStore(dir)).state()).toMatchObject({
      needsConfirmation: true,
      settings: { refreshCachedAfterMinutes: 15 },
    });
    expect(await store.update({ calibrationToleranceDb: 0.4 })).toMatchObject({
      needsConfirmation: false,
      settings: { calibrationToleranceDb: 0.4, refreshCachedAfterMinutes: 15 },
    });
  });

  it('through settings.update: the notice of a replaced refresh age goes once the user sets one', async () => {
    const dir = await tempDir();
    await savedFile(dir, { calibrationReferenceDb: 94, refreshCachedAfterMinutes: 0 });
    const store = await openSettingsStore(dir);
    const notices = createNoticeBoard(createEventHub(), () => 0);
    notices.raise({ id: SETTINGS_NOTICE_ID, tone: 'warning', message: store.warning ?? '' });
    const handlers = settingsHandlers({ settings: store, notices, dataDir: dir });
    expect(
      (await handlers['settings.update']({ refreshCachedAfterMinutes: 30 })).settings
        .refreshCachedAfterMinutes,
    ).toBe(30);
    expect(notices.list()).toEqual([]);
  });

  it('accepts whole minutes from 1 to 120 in settings.update, and refuses anything else plainly', () => {
    expect(parseRequestArg('settings.update', { refreshCachedAfterMinutes: 1 })).toEqual({
      refreshCachedAfterMinutes: 1,
    });
    expect(parseRequestArg('settings.update', { refreshCachedAfterMinutes: 120 })).toEqual({
      refreshCachedAfterMinutes: 120,
    });
    for (const bad of [0, 121, 2.5, -5]) {
      expect(() => parseRequestArg('settings.update', { refreshCachedAfterMinutes: bad })).toThrow(
        'Refresh cached data after a whole number of minutes from 1 to 120.',
      );
    }
    expect(() => parseRequestArg('settings.update', { refreshCachedAfterMinutes: '5' })).toThrow(
      'The refresh age of cached data must be a number of minutes.',
    );
  });
});

describe('the attention thresholds in the settings file', () => {
  it('start at their defaults, save, and come back after a restart', async () => {
    const dir = await tempDir();
    const store = await openSettingsStore(dir);
    expect(store.get()).toMatchObject({ attentionOfflineHours: 2, attentionBatteryVolts: 11.8 });
    await store.update({ attentionOfflineHours: 5, attentionBatteryVolts: 11.5 });
    expect((await openSettingsStore(dir)).get()).toMatchObject({
      attentionOfflineHours: 5,
      attentionBatteryVolts: 11.5,
      attentionNoDataHours: 6,
    });
  });

  it('a bad saved threshold falls back alone, named, and asks no calibration to wait', async () => {
    const dir = await tempDir();
    await savedFile(dir, {
      calibrationReferenceDb: 94,
      calibrationToleranceDb: 0.5,
      attentionStoragePercent: 150,
      attentionSignalRsrpDbm: -100,
    });
    const store = await openSettingsStore(dir);
    expect(store.get()).toMatchObject({ attentionStoragePercent: 90, attentionSignalRsrpDbm: -100 });
    expect(store.warning).toBe(
      'Your saved storage limit could not be used, so the default applies: ' +
        'storage nearly full above 90 %.',
    );
    expect(store.state().needsConfirmation).toBe(false);
  });

  it('settings.update saves the thresholds it names and leaves the others', async () => {
    const dir = await tempDir();
    const store = await openSettingsStore(dir);
    const notices = createNoticeBoard(createEventHub(), () => 0);
    const handlers = settingsHandlers({ settings: store, notices, dataDir: dir });
    const { settings } = await handlers['settings.update']({
      attentionOfflineHours: 72,
      attentionBatteryVolts: 11,
      attentionBatteryUrgentVolts: 10.5,
    });
    expect(settings).toMatchObject({
      attentionOfflineHours: 72,
      attentionBatteryVolts: 11,
      attentionBatteryUrgentVolts: 10.5,
      attentionNoDataHours: 6,
    });
    expect((await openSettingsStore(dir)).get().attentionOfflineHours).toBe(72);
  });

  it('settings saved before the urgent battery limit existed get one below their own battery limit, and save', async () => {
    const dir = await tempDir();
    await savedFile(dir, { attentionBatteryVolts: 11 });
    const store = await openSettingsStore(dir);
    expect(store.get()).toMatchObject({ attentionBatteryVolts: 11, attentionBatteryUrgentVolts: 10.7 });
    const notices = createNoticeBoard(createEventHub(), () => 0);
    const handlers = settingsHandlers({ settings: store, notices, dataDir: dir });
    // Another setting's save is never held up by the battery's two limits.
    const { settings } = await handlers['settings.update']({ attentionOfflineHours: 72 });
    expect(settings).toMatchObject({ attentionOfflineHours: 72, attentionBatteryUrgentVolts: 10.7 });
  });

  it('settings.update refuses an urgent battery limit not below the battery limit, and saves nothing', async () => {
    const dir = await tempDir();
    const store = await openSettingsStore(dir);
    const notices = createNoticeBoard(createEventHub(), () => 0);
    const handlers = settingsHandlers({ settings: store, notices, dataDir: dir });
    // Each in range, not together: the saved urgent limit (11.5 V) is above a battery limit of 11 V.
    await expect(
      handlers['settings.update']({ attentionOfflineHours: 72, attentionBatteryVolts: 11 }),
    ).rejects.toMatchObject({
      code: 'invalidInput',
      message: 'The urgent battery limit must be below the battery limit (11.0 V).',
    });
    expect((await openSettingsStore(dir)).get()).toMatchObject({
      attentionOfflineHours: 2,
      attentionBatteryVolts: 11.8,
    });
  });

  it('settings.update takes values within bounds and refuses others with their bounds said', () => {
    expect(parseRequestArg('settings.update', { attentionBatteryVolts: 9 })).toEqual({
      attentionBatteryVolts: 9,
    });
    expect(parseRequestArg('settings.update', { attentionOfflineHours: 168 })).toEqual({
      attentionOfflineHours: 168,
    });
    for (const bad of [0, 169, 1.5]) {
      expect(() => parseRequestArg('settings.update', { attentionOfflineHours: bad })).toThrow(
        'The offline limit must be a whole number of hours from 1 to 168.',
      );
    }
    expect(() => parseRequestArg('settings.update', { attentionBatteryVolts: 14.1 })).toThrow(
      'The battery limit must be a number of volts from 9.0 to 14.0.',
    );
    expect(() => parseRequestArg('settings.update', { attentionSignalRsrpDbm: '-100' })).toThrow(
      'The signal limit must be a whole number of dBm from −140 to −60.',
    );
  });
});
