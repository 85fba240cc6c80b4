/**
 * A year's assessment report: three noise monitors with a year of 15-min levels and a weather
 * station's year of 1-min wind and rain, assessed and written as a PDF. Each run is a process of
 * its own (bench/report-year.ts) so its peak memory (maxRSS) is its own.
 *
 * Baselines, from the same runs: time — the assessment of the year alone (the figures the report
 * states); memory — a process that only forms the year's readings.
 * Aims: the whole report within 4x the assessment's time, and within 3x the readings' peak memory
 * (a few hundred MB), so a year's report never takes the gigabytes a ten-year one once did.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./report-year.ts', import.meta.url));

interface YearRun {
  totalMs: number;
  assessMs: number;
  reportMs: number;
  pages: number;
  maxRssMb: number;
}

async function once(mode: 'inputs' | 'report'): Promise<YearRun> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, mode], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as YearRun;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchReport(): Promise<void> {
  const runs = 3;
  const inputs: YearRun[] = [];
  const reports: YearRun[] = [];
  for (let i = 0; i < runs; i++) {
    inputs.push(await once('inputs'));
    reports.push(await once('report'));
  }
  const assessMs = median(reports.map((r) => r.assessMs));
  const wholeMs = median(reports.map((r) => r.assessMs + r.reportMs));
  const baseRss = median(inputs.map((r) => r.maxRssMb));
  const reportRss = median(reports.map((r) => r.maxRssMb));
  console.log(`\nA year's report (3 noise monitors, ${reports[0]!.pages} pages of PDF), medians of ${runs}`);
  console.log('  baseline  assessing the year (every figure, the hourly table): 1.00x');
  console.log(
    `  subject   assessing and writing the PDF: ${(wholeMs / assessMs).toFixed(2)}x the baseline's time`,
  );
  console.log(
    `  baseline  peak memory of a process holding the year's readings: 1.00x (${baseRss.toFixed(0)} MB)`,
  );
  console.log(
    `  subject   peak memory while assessing and writing the report: ${(reportRss / baseRss).toFixed(2)}x (${reportRss.toFixed(0)} MB)`,
  );
  console.log("  Aims: within 4x the assessment's time, and 3x the readings' peak memory.");
}
