import { beforeAll, describe, expect, it } from 'vitest';
import { OCTAVE_BAND_NAMES, THIRD_OCTAVE_BAND_NAMES } from '../../../../src/shared/service/limits';
import type { WireErrorBody } from '../../../../src/shared/service/wire';
import { bandCorrection } from '../../../../src/main/backend/data/derive/acoustics';
import {
  HOUR,
  demo,
  energeticSum,
  iso,
  samples,
  valueOf,
  type Fleet,
  type Measurement,
  type THRecord,
} from './data-helpers';

let get: Awaited<ReturnType<typeof demo>>['get'];
let fleet: Fleet;
let range: string;
const START = Date.UTC(2025, 4, 28, 6);
beforeAll(async () => {
  ({ get, fleet } = await demo());
  range = `instruments=${fleet.recordingNoise[0]!.serialNumber}&start=${iso(START)}&end=${iso(START + 6 * HOUR)}`;
});

interface FrequencyTH {
  instrument: string;
  type: string;
  blocks: {
    start: string;
    end: string;
    sampleDuration: number;
    bands: { name: string; values: number[] }[];
  }[];
}

const noiseMeasurements = async (values: string) =>
  (await get<Measurement[]>(`/data/noise/measurements?${range}&values=${values}`)).body;
const frequencyMeasurements = async (extra: string) => {
  const response = await get<Measurement[]>(`/data/frequency/measurements?${range}${extra}`);
  expect(response.status).toBe(200);
  return response.body;
};

describe('frequency measurements', () => {
  it('default to octave bands, Z-weighted, named as the service names them', async () => {
    const records = await frequencyMeasurements('');
    expect(records.length).toBe(24);
    expect(records[0]!.values.map((v) => v.name)).toEqual([...OCTAVE_BAND_NAMES]);
    expect(await frequencyMeasurements('&bands=Octave&weighting=Z')).toEqual(records);
  });

  it.each([
    ['Z', 'LZeq'],
    ['A', 'LAeq'],
    ['C', 'LCeq'],
  ])(
    'add up energetically to the broadband level (%s bands → %s) within 0.2 dB',
    async (weighting, broadband) => {
      const noise = await noiseMeasurements(broadband);
      for (const bands of ['Third', 'Octave']) {
        const records = await frequencyMeasurements(`&bands=${bands}&weighting=${weighting}`);
        expect(records).toHaveLength(noise.length);
        records.forEach((record, i) => {
          expect(record.startTime).toBe(noise[i]!.startTime);
          const sum = energeticSum(record.values.map((v) => v.value));
          expect(Math.abs(sum - valueOf(noise[i]!, broadband))).toBeLessThanOrEqual(0.2);
        });
      }
    },
  );

  it.each(['A', 'C'] as const)(
    'are %s-weighted per band from the Z bands (IEC 61672-1 at each mid-band frequency), as the service derives them',
    async (weighting) => {
      for (const bands of ['Octave', 'Third']) {
        const z = await frequencyMeasurements(`&bands=${bands}&weighting=Z`);
        const weighted = await frequencyMeasurements(`&bands=${bands}&weighting=${weighting}`);
        weighted.forEach((record, i) => {
          record.values.forEach((band, b) => {
            const correction = bandCorrection(band.name, 'Z', weighting)!;
            // Both levels are stated to 0.1 dB.
            expect(Math.abs(z[i]!.values[b]!.value + correction - band.value)).toBeLessThanOrEqual(
              0.1 + 1e-9,
            );
          });
        });
      }
    },
  );

  it('have a road-traffic shape: Z energy low in frequency, A-weighted peak near 1 kHz', async () => {
    const [z] = await frequencyMeasurements('&weighting=Z');
    const [a] = await frequencyMeasurements('&weighting=A');
    const peak = (record: Measurement) =>
      record.values.reduce((best, v) => (v.value > best.value ? v : best)).name;
    expect(['63Hz', '125Hz', '250Hz', '500Hz']).toContain(peak(z!));
    expect(['500Hz', '1KHz', '2KHz']).toContain(peak(a!));
  });

  it.each([
    ['bands', 'Half'],
    ['weighting', 'B'],
  ])('refuse %s=%s naming the parameter', async (name, value) => {
    const response = await get<WireErrorBody>(`/data/frequency/measurements?${range}&${name}=${value}`);
    expect(response.status).toBe(400);
    expect(response.body.description).toContain(name);
  });
});

describe('frequency time history', () => {
  it('carries 36 third-octave bands per block whose sum is the broadband level of each second', async () => {
    const short = `instruments=${fleet.recordingNoise[0]!.serialNumber}&start=${iso(START + HOUR)}&end=${iso(START + HOUR + 120_000)}`;
    const response = await get<FrequencyTH[]>(`/data/frequency/timehistory?${short}&bands=Third&weighting=A`);
    expect(response.status).toBe(200);
    const [record] = response.body;
    expect(record!.type).toBe('Third');
    const block = record!.blocks[0]!;
    expect(block.sampleDuration).toBe(1000);
    expect(block.bands.map((b) => b.name)).toEqual([...THIRD_OCTAVE_BAND_NAMES]);
    const [laeq] = (await get<THRecord[]>(`/data/noise/timehistory?${short}&values=LAeq`)).body;
    const broadband = samples(laeq!);
    expect(broadband).toHaveLength(120);
    broadband.forEach(([, level], i) => {
      const sum = energeticSum(block.bands.map((band) => band.values[i]!));
      expect(Math.abs(sum - level)).toBeLessThanOrEqual(0.2);
    });
  });

  it('refuses more than a day', async () => {
    const response = await get<WireErrorBody>(
      `/data/frequency/timehistory?instruments=${fleet.noise[0]!.serialNumber}&start=${iso(START)}&end=${iso(START + 25 * HOUR)}`,
    );
    expect(response.status).toBe(400);
  });
});
