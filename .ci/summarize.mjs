// Adds up the JSON reports of every test runner into one line: "N passed, N failed[, N skipped]".
// Exits 1 when a runner that should have reported did not (a crash must not look green).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'reports';
const totals = { passed: 0, failed: 0, skipped: 0 };
const missing = [];

const vitestPath = join(dir, 'vitest.json');
if (existsSync(vitestPath)) {
  const report = JSON.parse(readFileSync(vitestPath, 'utf8'));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(
    `vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`,
  );
} else missing.push('vitest');

const playwrightPath = join(dir, 'playwright.json');
if (existsSync(playwrightPath)) {
  const { stats } = JSON.parse(readFileSync(playwrightPath, 'utf8'));
  // Playwright runs without retries, so "flaky" stays 0; counted as passed if retries are ever enabled.
  const passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
  totals.passed += passed;
  totals.failed += stats.unexpected ?? 0;
  totals.skipped += stats.skipped ?? 0;
  console.log(`playwright: ${passed} passed, ${stats.unexpected ?? 0} failed, ${stats.skipped ?? 0} skipped`);
} else missing.push('playwright');

if (missing.length > 0) console.log(`no report from: ${missing.join(', ')} (it did not run or crashed)`);
const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(missing.length > 0 || totals.failed > 0 ? 1 : 0);
