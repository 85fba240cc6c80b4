/**
 * FieldDesk benchmarks. Every figure is printed as a ratio against a baseline measured in the
 * same run on the same machine (our machines are shared and noisy; absolute times mean little).
 * Run with `npm run bench`.
 */
import { z } from 'zod';
import { instrumentSchema } from '../src/shared/service/schemas';
import { startDemoService } from '../src/simulator';
import { createServiceClient } from '../src/main/backend/service/client';
import { benchAssessment } from './assessment';
import { benchAudio } from './audio';
import { benchCache } from './cache';
import { benchChart } from './chart';
import { benchFleet } from './fleet';
import { benchRecords } from './records';
import { benchReport } from './report';
import { medianMs } from './timing';

interface Measurement {
  name: string;
  medianMs: number;
}

async function measure(name: string, run: () => unknown): Promise<Measurement> {
  return { name, medianMs: await medianMs(run) };
}

function report(title: string, baseline: Measurement, subject: Measurement, note: string): void {
  const ratio = subject.medianMs / baseline.medianMs;
  console.log(`\n${title}`);
  console.log(`  baseline  ${baseline.name}: 1.00x`);
  console.log(`  subject   ${subject.name}: ${ratio.toFixed(2)}x the baseline's time`);
  console.log(`  ${note}`);
}

async function benchSchemaParsing(): Promise<void> {
  // A large fleet (2,000 instruments) with case variants and extra fields, as the real service sends.
  const fleet = Array.from({ length: 2000 }, (_, index) => ({
    Type: index % 3 === 0 ? 'Noise' : index % 3 === 1 ? 'AirQuality' : 'Vibration',
    serialNumber: `QT${String(100000 + index)}`,
    model: 'CR:900 Quantum',
    name: `Site ${index} – receptor ${index % 7}`,
    image: 'https://example.invalid/cr900.png',
    subscription: { status: 'Active', tier: 'Pro', addons: ['Audio'] },
    position: { latitude: 51.2 + index / 1e4, longitude: -3.1 },
    feature: ['SIC', 'Modem'],
    firmware: '4.2.1',
  }));
  const body = JSON.stringify(fleet);
  const listSchema = z.array(instrumentSchema);
  const baseline = await measure('JSON.parse of the body', () => JSON.parse(body));
  const subject = await measure('JSON.parse + validating schema', () => listSchema.parse(JSON.parse(body)));
  report(
    'Instrument list parsing (2,000 instruments, case-insensitive fields, extra fields)',
    baseline,
    subject,
    'Cost of runtime validation and the robustness rules over plain parsing.',
  );
}

async function benchClientRoundTrip(): Promise<void> {
  const demo = await startDemoService({ port: 0, rateLimit: 100_000 });
  try {
    const apiKey = demo.defaultKey ?? '';
    const client = createServiceClient({ baseUrl: demo.baseUrl, apiKey });
    const url = `${demo.baseUrl}/control/instruments`;
    const baseline = await measure('fetch + JSON.parse', async () => {
      const response = await fetch(url, { headers: { 'X-Api-Key': apiKey } });
      return JSON.parse(await response.text()) as unknown;
    });
    const subject = await measure('client.listInstruments()', () => client.listInstruments());
    report(
      'Listing instruments from the demo service on loopback',
      baseline,
      subject,
      'Overhead of the client (ky, retries armed, validation, error mapping) per request.',
    );
  } finally {
    await demo.close();
  }
}

const BENCHES: Record<string, () => Promise<void>> = {
  schema: benchSchemaParsing,
  client: benchClientRoundTrip,
  cache: benchCache,
  fleet: benchFleet,
  chart: benchChart,
  audio: benchAudio,
  assessment: benchAssessment,
  report: benchReport,
  records: benchRecords,
};

/** `npm run bench` runs them all; `npm run bench -- chart cache` only those named (one at a time while profiling). */
async function main(): Promise<void> {
  const named = process.argv.slice(2);
  if (named.includes('--help') || named.includes('-h')) {
    console.log(
      `npm run bench -- [name ...]\n\nBenchmarks, each printed as a ratio against a baseline measured in the same run.\nNames: ${Object.keys(BENCHES).join(', ')} (default: all).`,
    );
    return;
  }
  const unknown = named.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) {
    throw new Error(`Unknown bench ${unknown.join(', ')}: choose from ${Object.keys(BENCHES).join(', ')}.`);
  }
  // Each bench says how many runs its medians are of.
  console.log(`FieldDesk benchmarks — Node ${process.version}`);
  for (const [name, run] of Object.entries(BENCHES)) {
    if (named.length === 0 || named.includes(name)) await run();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
