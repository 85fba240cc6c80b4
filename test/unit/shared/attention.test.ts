import { lastChecks } from '../../../src/shared/check-record';
import { describe, expect, it } from 'vitest';
import {
  agoText,
  attentionReasons,
  DEFAULT_ATTENTION_THRESHOLDS,
  isValidThreshold,
  newestOf,
  parseThreshold,
  rankAttention,
  spanText,
  thresholdsConflict,
  type AttentionThresholds,
  type InstrumentHealth,
} from '../../../src/shared/attention';
import type { InstrumentStatus } from '../../../src/shared/service/schemas';

const NOW = Date.UTC(2026, 10, 27, 9, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const LIMITS: AttentionThresholds = {
  attentionOfflineHours: 2,
  attentionNoDataHours: 6,
  attentionCalibrationDays: 30,
  attentionStoragePercent: 90,
  attentionBatteryVolts: 11.8,
  attentionBatteryUrgentVolts: 11.5,
  attentionSignalRsrpDbm: -110,
};

function status(change: Partial<InstrumentStatus> = {}): InstrumentStatus {
  return {
    online: true,
    measuring: true,
    calibrationInProgress: false,
    sicInProgress: false,
    lastCalibration: { time: NOW - DAY, status: 'Success', level: 94, offset: 0.1 },
    lastSic: { time: NOW - HOUR, status: 'Success', _500Hz: 80, _1KHz: 82, _8KHz: 77 },
    ...change,
  };
}

function health(change: Partial<InstrumentHealth> = {}): InstrumentHealth {
  return {
    serial: 'QT100001',
    readAt: NOW,
    status: null,
    statusReadAt: null,
    lastContact: NOW,
    newestData: NOW - 10 * MIN,
    supply: { voltage: 13.1, diskPercent: 20, time: NOW },
    signal: { rsrp: -90, rsrq: -10, sinr: 12, time: NOW },
    problems: [],
    ...change,
  };
}

const kinds = (h: InstrumentHealth | null, s: InstrumentStatus | null) =>
  attentionReasons(h, s, LIMITS, NOW, lastChecks(s, null)).map((r) => r.kind);

describe('attention rules at their thresholds', () => {
  it('a healthy instrument needs nothing', () => {
    expect(attentionReasons(health(), status(), LIMITS, NOW, lastChecks(status(), null))).toEqual([]);
  });

  it('offline: just under, at and over the limit', () => {
    const offline = status({ online: false, measuring: false });
    expect(kinds(health({ lastContact: NOW - 2 * HOUR + 1 }), offline)).not.toContain('offline');
    expect(kinds(health({ lastContact: NOW - 2 * HOUR }), offline)).not.toContain('offline');
    const over = attentionReasons(
      health({ lastContact: NOW - 2 * HOUR - MIN }),
      offline,
      LIMITS,
      NOW,
      lastChecks(offline, null),
    );
    expect(over[0]).toEqual({ kind: 'offline', urgency: 3, text: 'Offline for 2 h 1 min (limit 2 h)' });
  });

  it('offline says the figures in hours and minutes', () => {
    const reasons = attentionReasons(
      health({ lastContact: NOW - (3 * HOUR + 10 * MIN) }),
      status({ online: false }),
      { ...LIMITS, attentionOfflineHours: 1 },
      NOW,
      lastChecks(status({ online: false }), null),
    );
    expect(reasons[0]?.text).toBe('Offline for 3 h 10 min (limit 1 h)');
  });

  it('offline with no contact ever known is raised, saying so', () => {
    expect(
      attentionReasons(
        health({ lastContact: null }),
        status({ online: false }),
        LIMITS,
        NOW,
        lastChecks(status({ online: false }), null),
      ),
    ).toEqual([{ kind: 'offline', urgency: 3, text: 'Offline; no contact known' }]);
  });

  it('an online instrument is never offline, however old its last contact', () => {
    expect(kinds(health({ lastContact: NOW - 10 * DAY }), status())).not.toContain('offline');
  });

  it('no new data: just under, at and over the limit', () => {
    expect(kinds(health({ newestData: NOW - 6 * HOUR + 1 }), status())).toEqual([]);
    expect(kinds(health({ newestData: NOW - 6 * HOUR }), status())).toEqual([]);
    const over = attentionReasons(
      health({ newestData: NOW - 6 * HOUR - 1 }),
      status(),
      LIMITS,
      NOW,
      lastChecks(status(), null),
    );
    expect(over.map((r) => r.kind)).toEqual(['noData']);
    expect(over[0]?.text).toBe('No new data for 6 h (limit 6 h)');
    expect(kinds(health({ newestData: null }), status())).toEqual([]);
  });

  it('calibration age: just under, at and over the interval', () => {
    const calibrated = (ago: number) =>
      status({ lastCalibration: { time: NOW - ago, status: 'Success', level: 94, offset: 0 } });
    expect(kinds(health(), calibrated(30 * DAY - 1))).toEqual([]);
    expect(kinds(health(), calibrated(30 * DAY))).toEqual([]);
    const over = attentionReasons(
      health(),
      calibrated(30 * DAY + HOUR),
      LIMITS,
      NOW,
      lastChecks(calibrated(30 * DAY + HOUR), null),
    );
    expect(over).toEqual([
      { kind: 'calibrationOld', urgency: 2, text: 'Calibrated 30 d 1 h ago (limit 30 d)' },
    ]);
  });

  it('a failed calibration is raised whatever its age, and a never-calibrated one is not', () => {
    const failed = status({
      lastCalibration: { time: NOW - 2 * DAY, status: 'Failed', level: 93, offset: 1 },
    });
    expect(attentionReasons(health(), failed, LIMITS, NOW, lastChecks(failed, null))).toEqual([
      {
        kind: 'calibrationFailed',
        urgency: 3,
        text: 'Last calibration failed, 2 d ago (the instrument reported “Failed”)',
      },
    ]);
    expect(kinds(health(), status({ lastCalibration: null }))).toEqual([]);
  });

  it('a failed SIC is raised; a passed one is not', () => {
    const failed = status({
      lastSic: { time: NOW - 5 * HOUR, status: 'Failed', _500Hz: 1, _1KHz: 1, _8KHz: 1 },
    });
    expect(attentionReasons(health(), failed, LIMITS, NOW, lastChecks(failed, null))).toEqual([
      { kind: 'sicFailed', urgency: 2, text: 'Last SIC failed, 5 h ago (the instrument reported “Failed”)' },
    ]);
    expect(kinds(health(), status({ lastSic: null }))).toEqual([]);
  });

  it('storage: just under, at and over the limit', () => {
    const disk = (diskPercent: number) => health({ supply: { voltage: 13, diskPercent, time: NOW } });
    expect(kinds(disk(89.9), status())).toEqual([]);
    expect(kinds(disk(90), status())).toEqual([]);
    expect(attentionReasons(disk(90.4), status(), LIMITS, NOW, lastChecks(status(), null))).toEqual([
      { kind: 'storageFull', urgency: 2, text: 'Storage 90 % full (limit 90 %)' },
    ]);
  });

  it('battery: just over, at and under the limit', () => {
    const supply = (voltage: number) => health({ supply: { voltage, diskPercent: 20, time: NOW } });
    expect(kinds(supply(11.81), status())).toEqual([]);
    expect(kinds(supply(11.8), status())).toEqual([]);
    expect(attentionReasons(supply(11.79), status(), LIMITS, NOW, lastChecks(status(), null))).toEqual([
      { kind: 'batteryLow', urgency: 2, text: 'Battery low: 11.8 V (limit 11.8 V)' },
    ]);
    expect(attentionReasons(supply(11.5), status(), LIMITS, NOW, lastChecks(status(), null))[0]?.text).toBe(
      'Battery low: 11.5 V (limit 11.8 V)',
    );
  });

  it('battery: under the urgent limit it is urgent, said once', () => {
    const supply = (voltage: number) => health({ supply: { voltage, diskPercent: 20, time: NOW } });
    expect(attentionReasons(supply(11.49), status(), LIMITS, NOW, lastChecks(status(), null))).toEqual([
      { kind: 'batteryLow', urgency: 3, text: 'Battery nearly flat: 11.5 V (urgent below 11.5 V)' },
    ]);
    // The two levels are settings: a lower urgent limit leaves 11.4 V "soon".
    expect(
      attentionReasons(
        supply(11.4),
        status(),
        { ...LIMITS, attentionBatteryUrgentVolts: 11 },
        NOW,
        lastChecks(status(), null),
      ).map((r) => r.urgency),
    ).toEqual([2]);
  });

  it('the urgent battery limit must be below the battery limit', () => {
    expect(thresholdsConflict(LIMITS)).toBeNull();
    expect(thresholdsConflict({ attentionBatteryVolts: 11.8, attentionBatteryUrgentVolts: 11.8 })).toEqual({
      key: 'attentionBatteryUrgentVolts',
      message: 'The urgent battery limit must be below the battery limit (11.8 V).',
    });
  });

  it('a lapsed subscription is a reason, quoting the service’s word; an active one is not', () => {
    const reasons = (subscriptionStatus: string | undefined) =>
      attentionReasons(health(), status(), LIMITS, NOW, lastChecks(status(), null), {
        status: subscriptionStatus,
      });
    expect(reasons('Active')).toEqual([]);
    expect(reasons(undefined)).toEqual([]);
    expect(reasons('Cancelled')).toEqual([
      {
        kind: 'subscription',
        urgency: 2,
        text: 'Subscription cancelled: the service may stop taking its data (it reports “Cancelled”)',
      },
    ]);
    expect(reasons('Expired')[0]?.kind).toBe('subscription');
  });

  it('signal: just over, at and under the limit; no LTE reading raises nothing', () => {
    const rsrp = (value: number | null) => health({ signal: { rsrp: value, rsrq: -12, sinr: 3, time: NOW } });
    expect(kinds(rsrp(-109), status())).toEqual([]);
    expect(kinds(rsrp(-110), status())).toEqual([]);
    expect(attentionReasons(rsrp(-111), status(), LIMITS, NOW, lastChecks(status(), null))).toEqual([
      { kind: 'signalWeak', urgency: 1, text: 'Weak signal: RSRP \u2212111 dBm (limit \u2212110 dBm)' },
    ]);
    expect(kinds(rsrp(null), status())).toEqual([]);
  });

  it('lists the most urgent reasons first', () => {
    const reasons = attentionReasons(
      health({
        lastContact: NOW - 5 * HOUR,
        signal: { rsrp: -120, rsrq: -18, sinr: -2, time: NOW - 5 * HOUR },
        supply: { voltage: 11, diskPercent: 95, time: NOW - 5 * HOUR },
      }),
      status({
        online: false,
        lastSic: { time: NOW - DAY, status: 'Failed', _500Hz: 1, _1KHz: 1, _8KHz: 1 },
        lastCalibration: { time: NOW - 40 * DAY, status: 'Failed', level: 93, offset: 1 },
      }),
      LIMITS,
      NOW,
      lastChecks(
        status({
          online: false,
          lastSic: { time: NOW - DAY, status: 'Failed', _500Hz: 1, _1KHz: 1, _8KHz: 1 },
          lastCalibration: { time: NOW - 40 * DAY, status: 'Failed', level: 93, offset: 1 },
        }),
        null,
      ),
    );
    // 11 V is under the urgent battery limit: urgent beside the offline and the failed calibration.
    expect(reasons.map((r) => r.kind)).toEqual([
      'offline',
      'calibrationFailed',
      'batteryLow',
      'sicFailed',
      'calibrationOld',
      'storageFull',
      'signalWeak',
    ]);
  });

  it('without anything known, nothing is raised', () => {
    expect(attentionReasons(null, null, LIMITS, NOW, lastChecks(null, null))).toEqual([]);
  });
});

describe('ranking instruments', () => {
  it('puts the most urgent first, then the one with more reasons, then by serial', () => {
    const r = (urgency: 1 | 2 | 3) => ({ kind: 'offline' as const, urgency, text: '' });
    const ranked = rankAttention([
      { serial: 'B', reasons: [r(2)] },
      { serial: 'C', reasons: [] },
      { serial: 'D', reasons: [r(3)] },
      { serial: 'A', reasons: [r(2)] },
      { serial: 'E', reasons: [r(2), r(1)] },
    ]);
    expect(ranked.map((item) => item.serial)).toEqual(['D', 'E', 'A', 'B']);
  });
});

describe('thresholds', () => {
  it('the defaults are all valid', () => {
    for (const [key, value] of Object.entries(DEFAULT_ATTENTION_THRESHOLDS))
      expect(isValidThreshold(key as keyof AttentionThresholds, value)).toBe(true);
  });

  it('reads typed values and says what is wrong with bad ones', () => {
    expect(parseThreshold('attentionBatteryVolts', ' 11,5 ')).toEqual({ ok: true, value: 11.5 });
    expect(parseThreshold('attentionSignalRsrpDbm', '\u2212105')).toEqual({ ok: true, value: -105 });
    expect(parseThreshold('attentionOfflineHours', '1.5')).toEqual({
      ok: false,
      message: 'The offline limit must be a whole number of hours from 1 to 168.',
    });
    expect(parseThreshold('attentionBatteryVolts', '20')).toEqual({
      ok: false,
      message: 'The battery limit must be a number of volts from 9.0 to 14.0.',
    });
    expect(parseThreshold('attentionStoragePercent', '')).toMatchObject({ ok: false });
  });
});

describe('time in words', () => {
  it('spans in their two largest units', () => {
    expect(spanText(30_000)).toBe('under 1 min');
    expect(spanText(4 * MIN)).toBe('4 min');
    expect(spanText(3 * HOUR + 10 * MIN)).toBe('3 h 10 min');
    expect(spanText(2 * HOUR)).toBe('2 h');
    expect(spanText(12 * DAY + 5 * HOUR + 7 * MIN)).toBe('12 d 5 h');
    expect(agoText(NOW - 4 * MIN, NOW)).toBe('4 min ago');
    expect(agoText(NOW - 20_000, NOW)).toBe('just now');
  });

  it('the newest of several moments, ignoring the unknown ones', () => {
    expect(newestOf(null, 5, undefined, 9, 3)).toBe(9);
    expect(newestOf(null, undefined)).toBeNull();
  });
});
