/**
 * Reading the real service's answers tolerantly and honestly, from documented-style answers: an
 * empty object is "not given", numbers may come as text, one unreadable item never hides the others,
 * values outside physical sense are not shown as facts, long text is cut (text far longer than any
 * field is garbling: its item is unreadable), and however deep the
 * input, a failure to read is a typed error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/main/backend/service/client';
import { createDataClient } from '../../../src/main/backend/service/data-client';
import { MAX_TEXT_CHARS } from '../../../src/main/backend/service/json-text';
import { DISPLAY_TEXT_MAX } from '../../../src/shared/service/reading';
import { FieldDeskError } from '../../../src/shared/errors';
import { sendJson, startTestServer, wireInstrument, type TestServer } from './helpers';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** JSON text as sent, for bodies JSON.stringify cannot write (nested deeper than its stack). */
class RawJson {
  constructor(readonly text: string) {}
}

/** A service answering the list, one instrument and one status from fixed bodies. */
async function serviceAnswering(bodies: { list?: unknown; instrument?: unknown; status?: unknown }) {
  const answer = (res: Parameters<typeof sendJson>[0], body: unknown): void => {
    if (body instanceof RawJson) res.writeHead(200, { 'Content-Type': 'application/json' }).end(body.text);
    else sendJson(res, 200, body);
  };
  const server = await startTestServer((req, res) => {
    if (req.url.endsWith('/status')) return answer(res, bodies.status);
    if (req.url.endsWith('/control/instruments')) return answer(res, bodies.list);
    return answer(res, bodies.instrument);
  });
  servers.push(server);
  return createServiceClient({ baseUrl: server.baseUrl, apiKey: 'k', retry: { limit: 0 } });
}

/** The status the public documentation shows for an instrument that was never calibrated. */
const NEVER_CALIBRATED = {
  online: true,
  measuring: true,
  calibrationInProgress: false,
  sicInProgress: false,
  lastCalibration: {},
  lastSic: {},
};

describe('empty or missing optional objects mean "not given"', () => {
  it('reads a never-calibrated instrument as never calibrated, with nothing to note', async () => {
    const client = await serviceAnswering({ status: NEVER_CALIBRATED });
    const status = await client.getInstrumentStatus('QT1');
    expect(status).toEqual({ ...NEVER_CALIBRATED, lastCalibration: null, lastSic: null });
  });

  it('treats an object of nulls and a missing one alike', async () => {
    const client = await serviceAnswering({
      status: { ...NEVER_CALIBRATED, lastCalibration: { time: null, status: null }, lastSic: undefined },
    });
    expect(await client.getInstrumentStatus('QT1')).toMatchObject({ lastCalibration: null, lastSic: null });
  });
});

describe('numbers and flags sent as text', () => {
  it('reads positions, levels and flags given as text as numbers and booleans', async () => {
    const client = await serviceAnswering({
      instrument: { ...wireInstrument('QT1'), position: { lat: '51.5012', long: '-0.1245' } },
      status: {
        ...NEVER_CALIBRATED,
        online: 'true',
        measuring: 'FALSE',
        lastCalibration: { time: '2025-06-01T09:00:00Z', status: 'Success', level: '94.02', offset: '-0.1' },
      },
    });
    expect((await client.getInstrument('QT1')).position).toEqual({ lat: 51.5012, long: -0.1245 });
    const status = await client.getInstrumentStatus('QT1');
    expect(status).toMatchObject({ online: true, measuring: false });
    expect(status.lastCalibration).toMatchObject({ level: 94.02, offset: -0.1 });
    expect(status.notes).toBeUndefined();
  });
});

describe('one item the app cannot read never hides the others', () => {
  it('lists every readable instrument and says which item was left out and why', async () => {
    const client = await serviceAnswering({
      list: [
        wireInstrument('QT1'),
        { type: 'Noise', model: 'CR:900', name: 'No serial' },
        { ...wireInstrument('QT3'), position: { lat: 'north', long: 'west' }, feature: 'SIC' },
      ],
    });
    const fleet = await client.readFleet();
    expect(fleet.instruments.map((i) => i.serialNumber)).toEqual(['QT1', 'QT3']);
    expect(fleet.skipped).toEqual(['The service sent an instrument without a serialNumber (item 2 of 3).']);
    const third = fleet.instruments[1]!;
    expect(third.position).toBeNull();
    expect(third.feature).toEqual([]);
    expect(third.notes).toEqual(['the position could not be read', 'the feature list could not be read']);
  });
});

describe('values outside physical sense are not shown as facts', () => {
  it.each([
    [
      'a level of 1e29 dB',
      { level: 1e29, offset: 0.1 },
      'level',
      /calibration level of 1e\+29 dB cannot be right/,
    ],
    [
      'an offset of −Infinity',
      { level: 94, offset: '-Infinity' },
      'offset',
      /calibration offset .* is not a number/,
    ],
    [
      'an offset of 35 dB',
      { level: 94, offset: 35 },
      'offset',
      /calibration offset of 35 dB cannot be right/,
    ],
    ['a negative level', { level: -3, offset: 0 }, 'level', /calibration level of -3 dB cannot be right/],
  ])('%s is left out with a note, the rest kept', async (_label, values, field, note) => {
    const client = await serviceAnswering({
      status: {
        ...NEVER_CALIBRATED,
        lastCalibration: { time: '2025-06-01T09:00:00Z', status: 'Success', ...values },
      },
    });
    const calibration = (await client.getInstrumentStatus('QT1')).lastCalibration!;
    expect(calibration[field as 'level' | 'offset']).toBeNull();
    expect(calibration.status).toBe('Success');
    expect(calibration.notes?.[0]).toMatch(note);
  });

  it.each([
    ['off the globe', { lat: 1e308, long: 2 }],
    ['exactly 0,0 (an unset GPS)', { lat: 0, long: 0 }],
    ['beyond the poles', { latitude: 91, longitude: 10 }],
  ])('a position %s is not shown', async (_label, position) => {
    const client = await serviceAnswering({ instrument: { ...wireInstrument('QT1'), position } });
    const instrument = await client.getInstrument('QT1');
    expect(instrument.position).toBeNull();
    expect(instrument.notes?.[0]).toMatch(/is not on the globe \(or unset\), so it is not shown/);
  });
});

describe('long text and deep nesting', () => {
  it('cuts a long name for display, so it cannot slow the app', async () => {
    const client = await serviceAnswering({
      instrument: { ...wireInstrument('QT1'), name: 'N'.repeat(MAX_TEXT_CHARS) },
    });
    const { name } = await client.getInstrument('QT1');
    expect(name).toHaveLength(DISPLAY_TEXT_MAX);
    expect(name.endsWith('…')).toBe(true);
  });

  it('reads a megabyte-long name as garbling: the instrument is unreadable, the others are listed', async () => {
    const long = { ...wireInstrument('QT2'), name: 'N'.repeat(1 << 20) };
    const client = await serviceAnswering({
      instrument: long,
      list: [wireInstrument('QT1'), long, wireInstrument('QT3')],
    });
    const error = await client.getInstrument('QT2').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'badResponse', retryable: true });
    expect((error as Error).message).toMatch(
      /could not be read \(expected an instrument\): a text of 1,048,576 characters \(no field holds more than 65,536\)/,
    );
    const fleet = await client.readFleet();
    expect(fleet.instruments.map((i) => i.serialNumber)).toEqual(['QT1', 'QT3']);
    expect(fleet.skipped).toEqual([
      'The service sent an instrument that could not be read: a text of 1,048,576 characters (no field holds more than 65,536) (item 2 of 3).',
    ]);
  });

  it.each([5_000, 100_000])(
    'a field nested %i levels deep gives a typed error or a note, never a crash',
    async (depth) => {
      const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      // The field replaced, not repeated: a field twice makes the whole item unreadable (answers.ts).
      const withField = (object: object, field: string) =>
        new RawJson(
          `${JSON.stringify({ ...object, [field]: undefined }).slice(0, -1)}, "${field}": ${nested}}`,
        );
      const client = await serviceAnswering({
        instrument: withField(wireInstrument('QT1'), 'position'),
        status: withField(NEVER_CALIBRATED, 'online'),
        list: new RawJson(
          `[${JSON.stringify(wireInstrument('QT1'))}, ${withField(wireInstrument('QT2'), 'serialNumber').text}]`,
        ),
      });
      expect((await client.getInstrument('QT1')).notes).toEqual(['the position could not be read']);
      const error = await client.getInstrumentStatus('QT1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FieldDeskError);
      expect(error).toMatchObject({ code: 'badResponse' });
      expect((error as Error).message).toMatch(
        /^The service sent an instrument status whose online is a list instead of true or false\.$/,
      );
      const fleet = await client.readFleet();
      expect(fleet.instruments.map((i) => i.serialNumber)).toEqual(['QT1']);
      expect(fleet.skipped[0]).toMatch(/serialNumber is a list instead of text \(item 2 of 2\)/);
    },
  );
});

describe('data answers', () => {
  it('shows an undocumented field nested 100,000 levels deep as such, and keeps the record', async () => {
    const nested = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const server = await startTestServer((_req, res) => {
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(
          `[{"time": "2025-06-01T09:00:00Z", "type": "Info", "message": "Rebooted", "detail": ${nested}}]`,
        );
    });
    servers.push(server);
    const client = createDataClient({ baseUrl: server.baseUrl, apiKey: 'k', retry: { limit: 0 } });
    const start = Date.UTC(2025, 5, 1, 8);
    const chunk = await client.fetchDataset({
      serial: 'QT1',
      dataset: 'monitorEvents',
      start,
      end: start + 7_200_000,
    });
    expect(chunk.records?.rows).toEqual([
      {
        time: Date.UTC(2025, 5, 1, 9),
        type: 'Info',
        message: 'Rebooted',
        detail: '(nested too deeply to show)',
      },
    ]);
  });
});

describe('implausible levels in data answers', () => {
  it('leaves out levels no instrument measures, keeps the rest, and says how many', async () => {
    const start = Date.UTC(2025, 5, 1);
    const server = await startTestServer((_req, res) =>
      sendJson(res, 200, [
        {
          instrument: 'QT1',
          type: 'LAeq',
          blocks: [
            { start: new Date(start).toISOString(), sampleDuration: 1000, values: [52.1, 1e29, -4, 55.5] },
          ],
        },
      ]),
    );
    servers.push(server);
    const client = createDataClient({ baseUrl: server.baseUrl, apiKey: 'k', retry: { limit: 0 } });
    const chunk = await client.fetchDataset({
      serial: 'QT1',
      dataset: 'noiseTimeHistory',
      start,
      end: start + 4_000,
      options: { values: ['LAeq'], period: 'PT1S' },
    });
    const values = Array.from(chunk.series[0]!.values);
    expect(values[0]).toBeCloseTo(52.1, 3);
    expect(values.slice(1, 3).every(Number.isNaN)).toBe(true);
    expect(values[3]).toBeCloseTo(55.5, 3);
    expect(chunk.notes).toEqual([
      '2 readings of LAeq are not shown: outside 0 to 200 dB, which no instrument measures.',
    ]);
  });
});
