/**
 * New urgent attention reasons told once per instrument and reason: not again while they last,
 * again after they went and came back, never for a reason merely not judged yet. (The desktop
 * notice, shown only while the window is in the background: test/unit/main/notifications.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { urgentToTell } from '../../../src/renderer/src/features/attention/urgent-notices';
import type { AttentionReason } from '../../../src/shared/attention';

const battery: AttentionReason = {
  kind: 'batteryLow',
  urgency: 3,
  text: 'Battery nearly flat: 11.4 V (urgent below 11.5 V)',
};
const soon: AttentionReason = { kind: 'batteryLow', urgency: 2, text: 'Battery low: 11.6 V (limit 11.8 V)' };
const offline: AttentionReason = { kind: 'offline', urgency: 3, text: 'Offline for 3 h (limit 2 h)' };
const row = (serial: string, ...reasons: AttentionReason[]) => ({ serial, name: `Site ${serial}`, reasons });

describe('which urgent reasons are told', () => {
  it('tells a new urgent reason once, and only the urgent ones', () => {
    const first = urgentToTell([row('QT1', battery), row('QT2', soon)], new Set(['QT1', 'QT2']), new Set());
    expect(first.tell).toEqual([{ serial: 'QT1', name: 'Site QT1', reason: battery.text }]);
    expect(first.told).toEqual(['QT1:batteryLow']);
    const again = urgentToTell([row('QT1', battery, offline)], new Set(['QT1']), new Set(first.told));
    expect(again.tell.map((t) => t.reason)).toEqual([offline.text]);
  });

  it('tells it again after it went away and came back; not while its instrument is not judged yet', () => {
    const told = new Set(['QT1:batteryLow']);
    // At start, before QT1's health is known: nothing is forgotten.
    expect(urgentToTell([], new Set(), told).told).toEqual(['QT1:batteryLow']);
    // Judged and no longer urgent: forgotten, so its return is told.
    const gone = urgentToTell([row('QT1', soon)], new Set(['QT1']), told);
    expect(gone.told).toEqual([]);
    expect(urgentToTell([row('QT1', battery)], new Set(['QT1']), new Set(gone.told)).tell).toHaveLength(1);
  });
});
