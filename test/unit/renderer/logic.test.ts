import { describe, expect, it } from 'vitest';
import {
  countText,
  filterEntries,
  instrumentState,
  nextSort,
  positionText,
  sortEntries,
  stateLabel,
  subscriptionText,
  subscriptionTone,
  typeLabel,
  EMPTY_FILTER,
} from '../../../src/renderer/src/features/instruments/logic';
import {
  blockedReason,
  missingScopeReason,
  renameBlockedReason,
} from '../../../src/renderer/src/features/accounts/scopes';
import { durationText, lastRefreshedText, relativeTimeText } from '../../../src/renderer/src/ui/time';
import { rolledBack, withInstrument, withName } from '../../../src/renderer/src/features/instruments/rename';
import {
  checkResultText,
  hostOf,
  keyStorageLabel,
  validateAccountForm,
} from '../../../src/renderer/src/features/accounts/logic';
import { errorMessage } from '../../../src/renderer/src/errors';
import { FieldDeskError } from '../../../src/shared/errors';
import { dbText } from '../../../src/shared/format';
import { account, entry, FLEET, status } from './fixtures';

const serials = (list: { instrument: { serialNumber: string } }[]): string[] =>
  list.map((e) => e.instrument.serialNumber);

describe('status label', () => {
  it('derives one state, the most urgent first', () => {
    expect(stateLabel(null)).toBe('Status unknown');
    expect(stateLabel(status({ online: false, measuring: true, calibrationInProgress: true }))).toBe(
      'Offline',
    );
    expect(stateLabel(status({ calibrationInProgress: true, sicInProgress: true }))).toBe('Calibrating');
    expect(stateLabel(status({ sicInProgress: true }))).toBe('SIC running');
    expect(stateLabel(status({ measuring: true }))).toBe('Measuring');
    expect(stateLabel(status({ measuring: false }))).toBe('Idle');
  });

  it('names types in words and keeps unknown types as sent', () => {
    expect(typeLabel('AirQuality')).toBe('Air quality');
    expect(typeLabel('noise')).toBe('Noise');
    expect(typeLabel('Seismic')).toBe('Seismic');
  });

  it('says subscription status and tier, and flags cancelled ones', () => {
    expect(subscriptionText(FLEET[0]!)).toBe('Active · Track');
    expect(subscriptionTone(FLEET[5]!)).toBe('warning');
    const none = entry('X1', 'x');
    none.instrument.subscription = null;
    expect(subscriptionText(none)).toBe('No subscription');
  });
});

describe('filtering', () => {
  it('matches every typed word against serial, name, model and type, ignoring case', () => {
    expect(serials(filterEntries(FLEET, { ...EMPTY_FILTER, text: 'hinkley fence' }))).toEqual(['VB300001']);
    expect(serials(filterEntries(FLEET, { ...EMPTY_FILTER, text: 'qt10000' }))).toHaveLength(5);
    expect(serials(filterEntries(FLEET, { ...EMPTY_FILTER, text: 'vm:400' }))).toEqual(['VB300001']);
    expect(serials(filterEntries(FLEET, { ...EMPTY_FILTER, text: 'air quality' }))).toEqual(['AQ200001']);
    expect(filterEntries(FLEET, { ...EMPTY_FILTER, text: '   ' })).toHaveLength(FLEET.length);
  });

  it('filters by type and by state, combined with the text', () => {
    expect(serials(filterEntries(FLEET, { ...EMPTY_FILTER, type: 'AirQuality' }))).toEqual(['AQ200001']);
    expect(serials(filterEntries(FLEET, { ...EMPTY_FILTER, state: 'offline' }))).toEqual(['QT100002']);
    expect(serials(filterEntries(FLEET, { ...EMPTY_FILTER, state: 'unknown' }))).toEqual(['QT100005']);
    expect(filterEntries(FLEET, { ...EMPTY_FILTER, state: 'online' })).toHaveLength(5);
    expect(serials(filterEntries(FLEET, { text: 'glastonbury', type: 'Noise', state: 'sic' }))).toEqual([
      'QT100004',
    ]);
  });
});

describe('sorting', () => {
  it('sorts by a column both ways, ties by serial', () => {
    const byName = sortEntries(FLEET, { key: 'name', direction: 'ascending' });
    expect(byName[0]!.instrument.name).toBe('');
    expect(byName.at(-1)!.instrument.name).toBe('Sizewell C – rail siding');
    const byStateDesc = sortEntries(FLEET, { key: 'state', direction: 'descending' });
    expect(instrumentState(byStateDesc.at(-1)!.status)).toBe('offline');
    expect(serials(sortEntries(FLEET, { key: 'type', direction: 'ascending' })).slice(0, 1)).toEqual([
      'AQ200001',
    ]);
  });

  it('flips the direction on the same column and starts ascending on another', () => {
    expect(nextSort({ key: 'name', direction: 'ascending' }, 'name')).toEqual({
      key: 'name',
      direction: 'descending',
    });
    expect(nextSort({ key: 'name', direction: 'descending' }, 'serial')).toEqual({
      key: 'serial',
      direction: 'ascending',
    });
  });
});

describe('counts and numbers', () => {
  it('says how many are shown', () => {
    expect(countText(8, 10)).toBe('8 of 10 instruments');
    expect(countText(10, 10)).toBe('10 instruments');
    expect(countText(1, 1)).toBe('1 instrument');
    expect(countText(0, 1)).toBe('0 of 1 instrument');
  });

  it('writes positions with 5 decimals and dB readings with "no reading" for null', () => {
    expect(positionText({ lat: 51.2, long: -2.581234567 })).toBe('51.20000, -2.58123');
    expect(positionText(null)).toBeNull();
    // One dB formatter for the whole app (shared/format), here with one decimal.
    expect(dbText(93.88, { decimals: 1 })).toBe('93.9 dB');
    expect(dbText(null, { decimals: 1, missing: 'no reading' })).toBe('no reading');
    expect(dbText(0, { decimals: 1 })).toBe('0.0 dB');
  });
});

describe('missing scope reasons', () => {
  it('says what the key cannot do and which scope it lacks', () => {
    expect(missingScopeReason('instruments:write')).toBe(
      'This key cannot rename instruments: it lacks instruments:write.',
    );
    expect(renameBlockedReason(account({ missingScopes: ['instruments:write'] }))).toBe(
      'This key cannot rename instruments: it lacks instruments:write.',
    );
    expect(renameBlockedReason(account({ missingScopes: ['data.audio:read'] }))).toBeNull();
    expect(blockedReason(null, 'instruments:read')).toBe('Choose an account first.');
  });
});

describe('relative time', () => {
  const now = Date.UTC(2026, 2, 4, 10, 42);
  it('reads naturally at every scale', () => {
    expect(relativeTimeText(now - 10_000, now)).toBe('just now');
    expect(relativeTimeText(now - 60_000, now)).toBe('1 min ago');
    expect(relativeTimeText(now - 2 * 60_000 - 5_000, now)).toBe('2 min ago');
    expect(relativeTimeText(now - 3 * 3_600_000, now)).toBe('3 hours ago');
    expect(relativeTimeText(now - 3_600_000, now)).toBe('1 hour ago');
    expect(relativeTimeText(now - 5 * 86_400_000, now)).toBe('5 days ago');
    expect(relativeTimeText(now - 90 * 86_400_000, now)).toBe('3 months ago');
  });

  it('says a duration in its largest whole unit, at least a minute, months by the calendar', () => {
    expect(durationText(0, 20_000)).toBe('1 min');
    expect(durationText(0, 89 * 60_000)).toBe('1 hour');
    expect(durationText(Date.UTC(2026, 0, 31), Date.UTC(2026, 2, 3))).toBe('1 month');
    expect(durationText(Date.UTC(2024, 2, 4), now)).toBe('2 years');
  });

  it('makes the "last refreshed" line', () => {
    expect(lastRefreshedText(now - 120_000, now)).toBe('Last refreshed 2 min ago');
    expect(lastRefreshedText(null, now)).toBe('Not refreshed yet');
  });

  it('says a refresh failed and when the last successful one was, never "just now" for the failed one', () => {
    // Refreshed 2 min ago, then a refresh failed just now.
    expect(lastRefreshedText(now - 120_000, now, now)).toBe(
      'Refresh failed just now; last refreshed 2 min ago',
    );
    expect(lastRefreshedText(null, now, now - 300_000)).toBe('Refresh failed 5 min ago; not refreshed yet');
    // A success after the failure: the failure is over.
    expect(lastRefreshedText(now - 10_000, now, now - 60_000)).toBe('Last refreshed just now');
  });
});

describe('rename transitions', () => {
  it('applies a name, rolls back only if the attempted name is still shown, and takes the answer', () => {
    const renamed = withName(FLEET, 'QT100001', 'Gate 3');
    expect(renamed[0]!.instrument.name).toBe('Gate 3');
    expect(FLEET[0]!.instrument.name).toBe('Hinkley Point C – east boundary'); // not mutated
    expect(rolledBack(renamed, 'QT100001', 'Gate 3', 'Old')[0]!.instrument.name).toBe('Old');
    const refreshedMeanwhile = withName(renamed, 'QT100001', 'Set elsewhere');
    expect(rolledBack(refreshedMeanwhile, 'QT100001', 'Gate 3', 'Old')[0]!.instrument.name).toBe(
      'Set elsewhere',
    );
    const answer = { ...FLEET[0]!.instrument, name: 'Gate 3 (server)' };
    expect(withInstrument(renamed, answer)[0]!.instrument.name).toBe('Gate 3 (server)');
  });
});

describe('accounts', () => {
  it('labels key storage in plain words', () => {
    expect(keyStorageLabel('keychain')).toBe('In system keychain');
    expect(keyStorageLabel('memory')).toBe('In memory for this session — keychain unavailable');
    expect(keyStorageLabel('missing')).toBe('Key missing — enter it again');
    expect(keyStorageLabel('demo')).toBe('Demo');
    expect(checkResultText({ instrumentCount: 10 })).toBe('Key works: 10 instruments');
    expect(checkResultText({ instrumentCount: 1 })).toBe('Key works: 1 instrument');
    expect(hostOf('https://api.mycirrus.cloud/v1')).toBe('api.mycirrus.cloud');
  });

  it('validates the form with the shared schemas', () => {
    expect(
      validateAccountForm({ name: 'A', baseUrl: 'https://api.mycirrus.cloud/v1', apiKey: 'k-123' }),
    ).toEqual({});
    const errors = validateAccountForm({ name: ' ', baseUrl: 'http://example.com/v1', apiKey: 'has space' });
    expect(errors.name).toMatch(/Give the account a name/);
    expect(errors.baseUrl).toMatch(/Use https/);
    expect(errors.apiKey).toMatch(/no spaces/);
  });

  it('shows the backend message, never a code', () => {
    expect(errorMessage(new FieldDeskError('forbidden', 'This key lacks instruments:read.'))).toBe(
      'This key lacks instruments:read.',
    );
    expect(errorMessage(new Error('ECONNRESET at socket.js:12'))).toMatch(
      /^Something went wrong inside FieldDesk/,
    );
  });
});
