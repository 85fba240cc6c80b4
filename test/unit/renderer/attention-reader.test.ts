/**
 * The gentle health reader of fleet attention: one request of at most HEALTH_BATCH_MAX in flight,
 * the rows on screen first, a sweep of the whole fleet with its progress, nothing fresh asked
 * again, and the sweep stopped when the service cannot be reached. Also the list's health cells.
 */
import { lastChecks } from '../../../src/shared/check-record';
import { describe, expect, it } from 'vitest';
import {
  createHealthReader,
  type SweepProgress,
} from '../../../src/renderer/src/features/attention/health-reader';
import {
  calibrationCell,
  healthFacts,
  healthSortValue,
  lastContactCell,
  monitorCell,
} from '../../../src/renderer/src/features/attention/cells';
import { DEFAULT_ATTENTION_THRESHOLDS, type InstrumentHealth } from '../../../src/shared/attention';
import { HEALTH_BATCH_MAX, type InstrumentHealthRead } from '../../../src/shared/ipc/contract';
import type { InstrumentStatus } from '../../../src/shared/service/schemas';

const NOW = Date.UTC(2026, 10, 27, 9, 0, 0);
const HOUR = 3_600_000;

function health(serial: string, readAt = NOW, change: Partial<InstrumentHealth> = {}): InstrumentHealth {
  return {
    serial,
    readAt,
    status: null,
    statusReadAt: null,
    lastContact: readAt,
    newestData: null,
    supply: null,
    signal: null,
    problems: [],
    ...change,
  };
}

/** A reader whose requests wait until the test answers them. */
function harness(known: Map<string, InstrumentHealth> = new Map()) {
  const requests: Array<{ serials: string[]; answer(read?: Partial<InstrumentHealthRead>): Promise<void> }> =
    [];
  const progress: SweepProgress[] = [];
  let inFlightMax = 0;
  let inFlight = 0;
  const reader = createHealthReader({
    read: (serials) =>
      new Promise((resolve) => {
        inFlight += 1;
        inFlightMax = Math.max(inFlightMax, inFlight);
        requests.push({
          serials,
          answer: async (read = {}) => {
            inFlight -= 1;
            resolve({ accountId: 'a', entries: serials.map((s) => health(s)), ...read });
            // Let the reader take the answer and send the next request.
            for (let i = 0; i < 5; i++) await Promise.resolve();
          },
        });
      }),
    onRead: (read) => read.entries.forEach((e) => known.set(e.serial, e)),
    onError: () => undefined,
    onProgress: (p) => progress.push(p),
    readAt: (serial) => known.get(serial)?.readAt,
    now: () => NOW,
  });
  return { reader, requests, progress, known, maxInFlight: () => inFlightMax };
}

const serials = (count: number, prefix = 'QT') =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(100000 + i)}`);

describe('the health reader', () => {
  it('sweeps a large fleet one batch at a time, reporting progress, never two requests at once', async () => {
    const { reader, requests, progress, maxInFlight } = harness();
    const fleet = serials(5000);
    reader.sweep(fleet);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.serials).toEqual(fleet.slice(0, HEALTH_BATCH_MAX));
    for (let i = 0; i < 3; i++) await requests[i]!.answer();
    expect(requests).toHaveLength(4);
    expect(progress.at(-1)).toEqual({ done: 3 * HEALTH_BATCH_MAX, total: 5000, running: true });
    expect(maxInFlight()).toBe(1);
  });

  it('reads the rows on screen before the rest of the sweep', async () => {
    const { reader, requests } = harness();
    const fleet = serials(200);
    reader.sweep(fleet);
    reader.show(fleet.slice(150, 160));
    await requests[0]!.answer();
    expect(requests[1]?.serials).toEqual(fleet.slice(150, 160));
    await requests[1]!.answer();
    expect(requests[2]?.serials).toEqual(fleet.slice(HEALTH_BATCH_MAX, 2 * HEALTH_BATCH_MAX));
  });

  it('does not ask again for what was read recently, and finishes the sweep', async () => {
    const fleet = serials(30);
    const known = new Map(fleet.slice(0, 20).map((s) => [s, health(s, NOW - 60_000)]));
    known.set(fleet[0]!, health(fleet[0]!, NOW - 2 * HOUR));
    const { reader, requests, progress } = harness(known);
    reader.sweep(fleet);
    expect(requests[0]?.serials).toEqual([fleet[0], ...fleet.slice(20)]);
    await requests[0]!.answer();
    expect(requests).toHaveLength(1);
    expect(progress.at(-1)).toEqual({ done: 30, total: 30, running: false });
  });

  it('stops the sweep when the service cannot be reached, keeping what it answered', async () => {
    const { reader, requests, progress } = harness();
    reader.sweep(serials(100));
    await requests[0]!.answer({
      lastKnown: { reason: { code: 'offline', message: 'No connection.', retryable: true } },
    });
    expect(requests).toHaveLength(1);
    expect(progress.at(-1)?.running).toBe(false);
  });
});

const status = (change: Partial<InstrumentStatus> = {}): InstrumentStatus => ({
  online: true,
  measuring: true,
  calibrationInProgress: false,
  sicInProgress: false,
  lastCalibration: { time: NOW - 12 * 24 * HOUR - 5 * HOUR, status: 'Success', level: 94, offset: 0 },
  lastSic: null,
  ...change,
});

describe('the list’s health cells', () => {
  it('last contact in its largest unit, danger once offline beyond the limit', () => {
    const cell = lastContactCell(
      health('QT1', NOW, { lastContact: NOW - (14 * HOUR + 33 * 60_000) }),
      status({ online: false }),
      null,
      DEFAULT_ATTENTION_THRESHOLDS,
      NOW,
    );
    expect(cell).toMatchObject({ text: '14 h ago', tone: 'danger' });
    expect(
      lastContactCell(null, status({ online: false }), null, DEFAULT_ATTENTION_THRESHOLDS, NOW),
    ).toMatchObject({
      text: 'Offline',
      tone: 'danger',
    });
    expect(
      lastContactCell(null, status(), NOW - 4 * 60_000, DEFAULT_ATTENTION_THRESHOLDS, NOW),
    ).toMatchObject({
      text: '4 min ago',
      tone: 'neutral',
    });
  });

  it('calibration as its result and age, failed or overdue in its tone', () => {
    expect(
      calibrationCell(lastChecks(status(), null).calibration, DEFAULT_ATTENTION_THRESHOLDS, NOW),
    ).toMatchObject({
      text: 'Pass · 12 d',
      tone: 'ok',
    });
    const old = status({
      lastCalibration: { time: NOW - 31 * 24 * HOUR, status: 'Success', level: 94, offset: 0 },
    });
    expect(calibrationCell(lastChecks(old, null).calibration, DEFAULT_ATTENTION_THRESHOLDS, NOW).tone).toBe(
      'warning',
    );
    const failed = status({
      lastCalibration: { time: NOW - 3 * HOUR, status: 'Failed', level: 90, offset: 4 },
    });
    expect(
      calibrationCell(lastChecks(failed, null).calibration, DEFAULT_ATTENTION_THRESHOLDS, NOW),
    ).toMatchObject({
      text: 'Fail · 3 h',
      tone: 'danger',
    });
  });

  it('battery, storage and signal together, a warning when one is beyond its limit', () => {
    const monitor = (voltage: number) =>
      monitorCell(
        health('QT1', NOW, {
          supply: { voltage, diskPercent: 14.2, time: NOW },
          signal: { rsrp: -92, rsrq: -10, sinr: 12, time: NOW },
        }),
        DEFAULT_ATTENTION_THRESHOLDS,
        NOW,
      );
    expect(monitor(12.9)).toMatchObject({ text: '12.9 V · 14 % · −92 dBm', tone: 'neutral' });
    expect(monitor(12.9).title).toContain('RSRQ −10 dB, SINR 12 dB');
    expect(monitor(11.6).tone).toBe('warning');
    // Each figure labelled, and only the one beyond its limit marked: under the urgent limit, danger.
    expect(monitor(11.2).tone).toBe('danger');
    expect(monitor(11.2).figures).toEqual([
      { kind: 'battery', text: '11.2 V', label: 'Battery 11.20 V', tone: 'danger' },
      { kind: 'storage', text: '14 %', label: 'Storage 14.2 % in use', tone: 'neutral' },
      { kind: 'signal', text: '−92 dBm', label: 'Signal −92 dBm', tone: 'neutral' },
    ]);
    expect(monitorCell(null, DEFAULT_ATTENTION_THRESHOLDS, NOW).text).toBe('—');
  });
});

describe('sorting the list by its health columns', () => {
  const known = (change: Partial<InstrumentHealth>) => health('QT1', NOW, change);
  const value = (key: Parameters<typeof healthSortValue>[0], h: InstrumentHealth | null, s = status()) =>
    healthSortValue(key, {
      health: h,
      status: s,
      listReadAt: null,
      checks: lastChecks(s, null),
      thresholds: DEFAULT_ATTENTION_THRESHOLDS,
      now: NOW,
    });

  it('the contact by its age; offline with none known the oldest; nothing known null', () => {
    expect(value('contact', known({ lastContact: NOW - 2 * HOUR }))).toBe(2 * HOUR);
    expect(value('contact', known({ lastContact: null }), status({ online: false }))).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(value('contact', null, status({ online: true }))).toBeNull();
  });

  it('a check by its verdict first (failed, due, passed), the older first within one', () => {
    const failed = status({ lastCalibration: { time: NOW - HOUR, status: 'Failed', level: 90, offset: 4 } });
    const due = status({
      lastCalibration: { time: NOW - 40 * 24 * HOUR, status: 'Success', level: 94, offset: 0 },
    });
    const passed = status();
    const order = [passed, due, failed].map((s) => value('calibration', null, s)!);
    expect([...order].sort((a, b) => a - b)).toEqual([order[2], order[1], order[0]]);
    expect(value('calibration', null, status({ lastCalibration: null }))).toBeNull();
  });

  it('the monitor by its battery voltage', () => {
    expect(value('monitor', known({ supply: { voltage: 11.4, diskPercent: 3, time: NOW } }))).toBe(11.4);
    expect(value('monitor', known({ supply: null }))).toBeNull();
  });
});

describe('the instrument page’s health card', () => {
  it('says each figure in full with its limit, the urgent battery in danger', () => {
    const facts = healthFacts(
      health('QT1', NOW, {
        lastContact: NOW - 3 * HOUR,
        newestData: NOW - 7 * HOUR,
        supply: { voltage: 11.43, diskPercent: 92.5, time: NOW },
        signal: { rsrp: -112, rsrq: -14, sinr: 2, time: NOW },
      }),
      status({ online: false }),
      null,
      DEFAULT_ATTENTION_THRESHOLDS,
      NOW,
    );
    expect(facts.map((f) => [f.label, f.tone])).toEqual([
      ['Last contact', 'danger'],
      ['Battery', 'danger'],
      ['Storage', 'warning'],
      ['Signal', 'warning'],
      ['Newest data', 'warning'],
    ]);
    // A figure never wraps away from its unit (a no-break space).
    expect(facts[1]).toMatchObject({
      value: '11.43\u00a0V',
      note: 'Low below 11.8\u00a0V, urgent below 11.5\u00a0V',
    });
    expect(facts[3]?.value).toBe('RSRP −112\u00a0dBm, RSRQ −14\u00a0dB, SINR 2\u00a0dB');
    expect(facts[0]?.value).toMatch(/\(3 h ago\)$/);
  });
});
