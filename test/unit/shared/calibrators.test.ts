/**
 * A calibrator's certificate by calendar date: valid through its due date, due soon from 30 days
 * before, expired from the day after, with "today" read in the engineer's zone; and the warnings
 * the calibration wizard shows.
 */
import { describe, expect, it } from 'vitest';
import {
  calendarDateIn,
  calibratorWarnings,
  certificateStatus,
  CERTIFICATE_DUE_SOON_DAYS,
  dayNumber,
  levelMatches,
} from '../../../src/shared/calibrators';
import { calibratorChangeSchema } from '../../../src/shared/ipc/calibrator-requests';

describe('certificate expiry', () => {
  it.each([
    ['2027-03-01', '2026-11-27', 'valid', 94],
    // 31 days before: still plainly valid; 30 days before: due soon.
    ['2026-12-28', '2026-11-27', 'valid', 31],
    ['2026-12-27', '2026-11-27', 'dueSoon', CERTIFICATE_DUE_SOON_DAYS],
    ['2026-11-28', '2026-11-27', 'dueSoon', 1],
    // Valid all of its due date, expired from the next day.
    ['2026-11-27', '2026-11-27', 'dueSoon', 0],
    ['2026-11-26', '2026-11-27', 'expired', -1],
    ['2025-11-27', '2026-11-27', 'expired', -365],
  ] as const)('due %s seen on %s is %s (%i days left)', (due, today, state, daysLeft) => {
    expect(certificateStatus(due, today)).toEqual({ state, daysLeft });
  });

  it('counts calendar days across a leap day and a clock change', () => {
    expect(certificateStatus('2028-03-01', '2028-02-28').daysLeft).toBe(2);
    // Europe's clocks go back on 2026-10-25: still one day, not 25 hours' worth.
    expect(certificateStatus('2026-10-26', '2026-10-25').daysLeft).toBe(1);
  });

  it('takes the due-soon window it is given', () => {
    expect(certificateStatus('2026-12-07', '2026-11-27', 7).state).toBe('valid');
    expect(certificateStatus('2026-12-04', '2026-11-27', 7).state).toBe('dueSoon');
  });

  it('refuses what is not a date rather than judging it', () => {
    expect(() => certificateStatus('2026-02-30', '2026-01-01')).toThrow(/Not a calendar date: 2026-02-30/);
    expect(dayNumber('27/11/2026')).toBeNull();
    expect(dayNumber('2024-02-29')).not.toBeNull();
    expect(dayNumber('2026-02-29')).toBeNull();
  });

  it("reads today in the engineer's zone: the same instant is another date in Auckland and Los Angeles", () => {
    // 2026-11-26 23:30 UTC: 27 November in Auckland (UTC+13), still 26 November in Los Angeles.
    const instant = Date.UTC(2026, 10, 26, 23, 30);
    expect(calendarDateIn(instant, 'Pacific/Auckland')).toBe('2026-11-27');
    expect(calendarDateIn(instant, 'America/Los_Angeles')).toBe('2026-11-26');
    expect(calendarDateIn(instant, 'UTC')).toBe('2026-11-26');
    // A certificate due on the 26th: expired for the engineer in Auckland, due today in Los Angeles.
    expect(certificateStatus('2026-11-26', calendarDateIn(instant, 'Pacific/Auckland')).state).toBe(
      'expired',
    );
    expect(certificateStatus('2026-11-26', calendarDateIn(instant, 'America/Los_Angeles'))).toEqual({
      state: 'dueSoon',
      daysLeft: 0,
    });
  });
});

describe('the wizard’s warnings', () => {
  const cr515 = { model: 'CR:515', serial: '054433', levelsDb: [94, 114], dueDate: '2027-03-01' };

  it('says nothing for a valid calibrator at one of its levels', () => {
    expect(calibratorWarnings(cr515, 94, '2026-11-27')).toEqual([]);
    expect(calibratorWarnings(cr515, 114, '2026-11-27')).toEqual([]);
  });

  it('names an expired certificate and a level the calibrator does not put out', () => {
    const warnings = calibratorWarnings({ ...cr515, levelsDb: [94] }, 114, '2027-03-04');
    expect(warnings.map((w) => w.kind)).toEqual(['expired', 'level']);
    expect(warnings[0]!.message).toBe(
      'The certificate of CR:515 #054433 expired 3 days ago (due 2027-03-01): a calibration made with it may not be accepted as evidence.',
    );
    expect(warnings[1]!.message).toContain('CR:515 #054433 puts out 94.0 dB, not the 114.0 dB reference');
  });

  it('says when the certificate is due soon', () => {
    const [warning] = calibratorWarnings(cr515, 94, '2027-02-20');
    expect(warning).toEqual({
      kind: 'dueSoon',
      message: 'The certificate of CR:515 #054433 is due in 9 days (2027-03-01): book its recalibration.',
    });
  });

  it('matches a level to the tenth of a decibel', () => {
    expect(levelMatches([93.96], 94)).toBe(true);
    expect(levelMatches([93.9], 94)).toBe(false);
  });
});

describe('a calibrator as entered', () => {
  const valid = {
    model: ' CR:515 ',
    serial: '054433',
    class: '1',
    levelsDb: [114, 94],
    certificateDate: '2026-03-01',
    dueDate: '2027-03-01',
  };
  const problem = (change: object) => {
    const parsed = calibratorChangeSchema.safeParse(change);
    return parsed.success ? null : parsed.error.issues[0]!.message;
  };

  it('is trimmed, its levels in order', () => {
    expect(calibratorChangeSchema.parse(valid)).toMatchObject({ model: 'CR:515', levelsDb: [94, 114] });
  });

  it.each([
    [{ serial: '  ' }, "Enter the calibrator's serial number."],
    [{ model: '' }, "Enter the calibrator's model."],
    [{ class: '3' }, 'Choose the calibrator’s class: IEC 60942 class 1, 2 or LS.'],
    [{ levelsDb: [] }, 'Give at least one nominal level, e.g. 94 dB.'],
    [{ levelsDb: [94, 94] }, 'Give each nominal level once.'],
    [{ levelsDb: [9.4] }, 'A nominal level must be between 60 dB and 140 dB.'],
    [{ levelsDb: [94.05] }, 'Give a nominal level to a tenth of a decibel at most.'],
    [{ dueDate: '2026-03-01' }, 'The due date must be after the certificate date.'],
    [{ dueDate: '2025-12-01' }, 'The due date must be after the certificate date.'],
    [{ dueDate: '2026-02-30' }, 'The due date must be a real date written YYYY-MM-DD.'],
    [{ certificateDate: '01/03/2026' }, 'The certificate date must be a real date written YYYY-MM-DD.'],
    [{ dueDate: '2037-03-02' }, 'The due date must be within 10 years of the certificate date.'],
  ])('refuses %o: %s', (change, message) => {
    expect(problem({ ...valid, ...change })).toBe(message);
  });
});
