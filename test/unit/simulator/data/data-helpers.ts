/** Shared set-up of the data endpoint tests: one demo service at a fixed clock. */
import { createDemoApp, DEFAULT_DEMO_KEY } from '../../../../src/simulator';
import type { WireInstrument, WireInstrumentStatus } from '../../../../src/shared/service/wire';

/** Sunday 1 June 2025, 12:00 UTC. */
export const NOW = Date.UTC(2025, 5, 1, 12);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const iso = (ms: number): string => new Date(ms).toISOString();

export interface Fleet {
  all: WireInstrument[];
  status: Map<string, WireInstrumentStatus>;
  noise: WireInstrument[];
  quantum: WireInstrument[];
  /** Noise instruments online and measuring now. */
  recordingNoise: WireInstrument[];
}

export async function demo(seed = 1) {
  const app = createDemoApp({ now: () => NOW, seed, rateLimit: 100_000 });
  const get = async <T = unknown>(path: string): Promise<{ status: number; body: T }> => {
    const response = await app.request(`/v1${path}`, { headers: { 'X-Api-Key': DEFAULT_DEMO_KEY } });
    return { status: response.status, body: (await response.json()) as T };
  };
  const all = (await get<WireInstrument[]>('/control/instruments')).body;
  const status = new Map<string, WireInstrumentStatus>();
  for (const instrument of all) {
    status.set(
      instrument.serialNumber,
      (await get<WireInstrumentStatus>(`/control/instruments/${instrument.serialNumber}/status`)).body,
    );
  }
  const noise = all.filter((i) => i.type === 'Noise');
  const fleet: Fleet = {
    all,
    status,
    noise,
    quantum: noise.filter((i) => /Quantum/.test(i.model)),
    recordingNoise: noise.filter((i) => status.get(i.serialNumber)?.measuring),
  };
  return { app, get, fleet };
}

export interface Block {
  start: string;
  end: string;
  sampleDuration: number;
  values: number[];
}
export interface THRecord {
  instrument: string;
  type: string;
  blocks: Block[];
}
export interface Measurement {
  startTime: string;
  endTime: string;
  duration: number;
  instrument: string;
  overload: boolean;
  values: { name: string; value: number }[];
  LeqT1Type?: string;
  LeqT2Type?: string;
}

/** Time history samples as [epoch ms, value] pairs. */
export function samples(record: THRecord): [number, number][] {
  return record.blocks.flatMap((block) =>
    block.values.map((value, i): [number, number] => [
      Date.parse(block.start) + i * block.sampleDuration,
      value,
    ]),
  );
}

export const valueOf = (record: Measurement, name: string): number => {
  const entry = record.values.find((v) => v.name === name);
  if (!entry) throw new Error(`${name} missing in ${JSON.stringify(record)}`);
  return entry.value;
};

/** Energetic mean of levels (dB). */
export const energeticMean = (levels: readonly number[]): number =>
  10 * Math.log10(levels.reduce((sum, l) => sum + 10 ** (l / 10), 0) / levels.length);
export const energeticSum = (levels: readonly number[]): number =>
  10 * Math.log10(levels.reduce((sum, l) => sum + 10 ** (l / 10), 0));
