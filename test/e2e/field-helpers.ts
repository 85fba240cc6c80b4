/**
 * What the field-work end-to-end tests share: a healthy demo noise instrument (from the demo
 * service's own profiles for seed 1, as the harness's demo uses), calendar dates from today, and
 * adding a calibrator to the register.
 */
import type { Locator, Page } from '@playwright/test';
import { generateDemoFleet } from '../../src/simulator';
import { buildHealthProfiles } from '../../src/simulator/health-profiles';
import { expect } from './fixtures';

/** A healthy online noise instrument of the seed-1 demo fleet, and the level its calibrator is on. */
export function healthyNoise(): { serial: string; referenceDb: 94 | 114 } {
  const createdAt = Date.now();
  const fleet = generateDemoFleet(1, createdAt);
  const profiles = buildHealthProfiles(1, fleet, createdAt);
  const match = fleet
    .filter((i) => i.wire.type === 'Noise' && i.condition.online)
    .map((i) => profiles.get(i.wire.serialNumber))
    .find((profile) => profile?.fault === 'none');
  if (match === undefined) throw new Error('The seed-1 demo fleet has no healthy online noise instrument.');
  return { serial: match.serial, referenceDb: match.referenceDb };
}

const DAY_MS = 86_400_000;
/** A calendar date `days` from today in this computer's zone (the browser's, in these tests). */
export function dateFromToday(days: number): string {
  const at = new Date(Date.now() + days * DAY_MS);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/**
 * Types a date ("2026-11-28") into the date field labelled `label` within `scope` as a user does:
 * the text, then Tab to take it (the calendar it opens has a label of its own).
 */
export async function typeDate(scope: Locator, label: string, date: string): Promise<void> {
  const field = scope.getByRole('combobox', { name: label, exact: true });
  await field.fill(date);
  await field.press('Tab');
}

export async function addCalibrator(
  page: Page,
  calibrator: { model: string; serial: string; levels: string; certificate: string; due: string },
): Promise<void> {
  await page.getByTestId('add-calibrator').click();
  const form = page.getByRole('form', { name: 'Add a calibrator' });
  await form.getByLabel('Model').fill(calibrator.model);
  await form.getByLabel('Serial number').fill(calibrator.serial);
  await form.getByLabel('Nominal levels (dB)').fill(calibrator.levels);
  await typeDate(form, 'Certificate date', calibrator.certificate);
  await typeDate(form, 'Due date', calibrator.due);
  await form.getByRole('button', { name: 'Add calibrator' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByTestId(`calibrator-${calibrator.serial}`)).toBeVisible();
}
