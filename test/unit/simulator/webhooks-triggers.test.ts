/**
 * What sends a webhook message in the demo: finished actions, online changes, new measurements
 * and new events — each only to the webhooks of that instrument and kind. The clock is a manual
 * one and the checks run on `webhooks.tick()`, except in the last test.
 */
import { describe, expect, it } from 'vitest';
import type { WireWebhookMessage } from '../../../src/shared/service/webhooks';
import type {
  WireCalibrationStatus,
  WireInstrumentStatus,
  WireSicStatus,
} from '../../../src/shared/service/wire';
import { call } from './helpers';
import {
  addWebhook,
  fleetOf,
  json,
  key,
  pick,
  startDemo,
  startReceiver,
  type Receiver,
} from './webhook-helpers';

const iso = (ms: number): string => new Date(ms).toISOString();
const MINUTE = 60_000;
const messages = (receiver: Receiver): WireWebhookMessage[] =>
  receiver.received.map((r) => r.json as WireWebhookMessage);

describe('CalibrationFinished and SicFinished', () => {
  it('are sent when the action finishes, with the result the status endpoints give', async () => {
    const { app, webhooks, clock } = startDemo();
    const fleet = await fleetOf(app);
    const noise = pick(
      fleet,
      'online noise instrument with SIC',
      (e) => e.wire.type === 'Noise' && e.status.online && e.wire.feature.includes('SIC'),
    );
    const other = pick(
      fleet,
      'another online noise instrument',
      (e) => e.wire.type === 'Noise' && e.status.online && e.wire.serialNumber !== noise,
    );
    const [calibrations, sics, otherCalibrations] = [
      await startReceiver(),
      await startReceiver(),
      await startReceiver(),
    ];
    await addWebhook(app, { type: 'CalibrationFinished', instrument: noise, url: calibrations.url });
    await addWebhook(app, { type: 'SicFinished', instrument: noise, url: sics.url });
    await addWebhook(app, { type: 'CalibrationFinished', instrument: other, url: otherCalibrations.url });

    const started = await call(app, 'POST', `/control/instruments/${noise}/action?action=Calibration`, {
      key,
    });
    expect(await started.json()).toEqual({ action: 'Calibration', status: 'InProgress' });
    await webhooks.tick();
    await webhooks.settled();
    expect(calibrations.received).toHaveLength(0);

    clock.advance(2 * MINUTE); // Calibrations take 30–45 s.
    await webhooks.tick();
    await webhooks.settled();
    const calibration = await json<WireCalibrationStatus>(
      call(app, 'GET', `/control/instruments/${noise}/calibration`, { key }),
    );
    const [sent] = messages(calibrations);
    expect(sent).toEqual({
      type: 'CalibrationFinished',
      instrument: noise,
      time: iso(clock.now()),
      status: calibration.status === 'Success' ? 'Success' : 'Failed',
      ...(calibration.status === 'Success' ? {} : { error: expect.any(String) }),
      data: calibration,
    });

    // A read of the status settles the SIC as well: its message goes out without a check.
    await call(app, 'POST', `/control/instruments/${noise}/action?action=SIC`, { key });
    clock.advance(2 * MINUTE);
    await call(app, 'GET', `/control/instruments/${noise}/status`, { key });
    await webhooks.settled();
    const sic = await json<WireSicStatus>(call(app, 'GET', `/control/instruments/${noise}/sic`, { key }));
    expect(messages(sics)).toEqual([
      {
        type: 'SicFinished',
        instrument: noise,
        time: iso(clock.now()),
        status: sic.status === 'Success' ? 'Success' : 'Failed',
        ...(sic.status === 'Success' ? {} : { error: expect.any(String) }),
        data: sic,
      },
    ]);

    await webhooks.tick();
    await webhooks.settled();
    expect(calibrations.received).toHaveLength(1);
    expect(otherCalibrations.received).toHaveLength(0);
  });
});

describe('InstrumentStatus', () => {
  it('is sent when the instrument goes offline or comes back, to that instrument’s webhooks only', async () => {
    const { app, webhooks, clock } = startDemo();
    const fleet = await fleetOf(app);
    const [serial, otherSerial] = fleet.filter((e) => e.status.online).map((e) => e.wire.serialNumber);
    const [mine, other, events] = [await startReceiver(), await startReceiver(), await startReceiver()];
    await addWebhook(app, { type: 'InstrumentStatus', instrument: serial, url: mine.url });
    await addWebhook(app, { type: 'InstrumentStatus', instrument: otherSerial, url: other.url });
    await addWebhook(app, { type: 'NewEvent', instrument: serial, url: events.url });

    webhooks.setOnline(serial!, false);
    const status = await json<WireInstrumentStatus>(
      call(app, 'GET', `/control/instruments/${serial}/status`, { key }),
    );
    expect([status.online, status.measuring]).toEqual([false, false]);
    await webhooks.tick();
    await webhooks.tick();
    await webhooks.settled();
    expect(messages(mine)).toEqual([
      { type: 'InstrumentStatus', instrument: serial, time: iso(clock.now()), online: false },
    ]);

    clock.advance(MINUTE);
    webhooks.setOnline(serial!, true);
    await webhooks.tick();
    await webhooks.settled();
    expect(messages(mine).map((m) => m.type === 'InstrumentStatus' && m.online)).toEqual([false, true]);
    expect(messages(mine)[1]?.time).toBe(iso(clock.now()));
    expect(other.received).toHaveLength(0);
    expect(events.received).toHaveLength(0);
    expect(() => webhooks.setOnline('QT000000', false)).toThrow(/QT000000/);
  });
});

describe('NewMeasurement', () => {
  it('is sent when a measurement period closes, with the end of the newest stored measurement', async () => {
    const { app, webhooks, clock } = startDemo();
    const fleet = await fleetOf(app);
    const recording = fleet
      .filter((e) => e.wire.type === 'Noise' && e.status.measuring)
      .map((e) => e.wire.serialNumber);
    const receivers = new Map<string, Receiver>();
    for (const serial of recording) {
      const receiver = await startReceiver();
      receivers.set(serial, receiver);
      await addWebhook(app, { type: 'NewMeasurement', instrument: serial, url: receiver.url });
    }
    const startMs = clock.now(); // 12:00:00, on a period boundary
    clock.advance(14 * MINUTE);
    await webhooks.tick();
    await webhooks.settled();
    expect([...receivers.values()].every((r) => r.received.length === 0)).toBe(true);

    clock.advance(MINUTE + 1000); // 12:15:01: the 12:00–12:15 measurement is stored.
    await webhooks.tick();
    await webhooks.settled();
    let delivered = 0;
    for (const [serial, receiver] of receivers) {
      const range = `instruments=${serial}&start=${iso(startMs - 3_600_000)}&end=${iso(clock.now())}`;
      const stored = await json<Array<{ endTime: string }>>(
        call(app, 'GET', `/data/noise/measurements?${range}`, { key }),
      );
      const newest = stored.at(-1)?.endTime;
      if (newest !== iso(startMs + 15 * MINUTE)) {
        expect(receiver.received, serial).toHaveLength(0); // in an outage: nothing new
        continue;
      }
      delivered++;
      expect(messages(receiver)).toEqual([
        { type: 'NewMeasurement', instrument: serial, time: iso(clock.now()), endTime: newest },
      ]);
    }
    expect(delivered).toBeGreaterThan(0);

    // An instrument taken offline stores nothing more, so nothing more is announced.
    const [first] = [...receivers].find(([, r]) => r.received.length === 1) ?? [];
    webhooks.setOnline(first!, false);
    clock.advance(15 * MINUTE);
    await webhooks.tick();
    await webhooks.settled();
    expect(receivers.get(first!)?.received).toHaveLength(1);

    // Back online, it uploads what it stored meanwhile: the newest measurement ends now.
    webhooks.setOnline(first!, true);
    await webhooks.tick();
    await webhooks.settled();
    expect(messages(receivers.get(first!)!).at(-1)).toEqual({
      type: 'NewMeasurement',
      instrument: first,
      time: iso(clock.now()),
      endTime: iso(startMs + 30 * MINUTE),
    });
  });
});

describe('NewEvent', () => {
  it('is sent when new events are stored, with the start of the newest', async () => {
    const { app, webhooks, clock } = startDemo();
    const fleet = await fleetOf(app);
    const serial = pick(
      fleet,
      'recording noise instrument',
      (e) => e.wire.type === 'Noise' && e.status.measuring,
    );
    const receiver = await startReceiver();
    const createdMs = clock.now();
    await addWebhook(app, { type: 'NewEvent', instrument: serial, url: receiver.url });
    await webhooks.tick();
    await webhooks.settled();
    expect(receiver.received).toHaveLength(0);

    // Events are stored in batches as 15-minute intervals close: step until one arrives.
    for (let step = 0; step < 24 && receiver.received.length === 0; step++) {
      clock.advance(15 * MINUTE);
      await webhooks.tick();
      await webhooks.settled();
    }
    const range = `instruments=${serial}&start=${iso(createdMs - 86_400_000)}&end=${iso(clock.now())}`;
    const stored = await json<Array<{ startTime: string }>>(
      call(app, 'GET', `/data/events?${range}`, { key }),
    );
    expect(messages(receiver)).toEqual([
      { type: 'NewEvent', instrument: serial, time: iso(clock.now()), eventTime: stored.at(-1)?.startTime },
    ]);
    expect(Date.parse(stored.at(-1)?.startTime ?? '')).toBeGreaterThanOrEqual(createdMs - 15 * MINUTE);

    await webhooks.tick();
    await webhooks.settled();
    expect(receiver.received).toHaveLength(1);
  });
});

describe('the periodic check', () => {
  it('runs by itself while a webhook exists', async () => {
    const { app, webhooks } = startDemo({ webhookTiming: { checkIntervalMs: 10 } });
    const serial = pick(await fleetOf(app), 'online instrument', (e) => e.status.online);
    const receiver = await startReceiver();
    await addWebhook(app, { type: 'InstrumentStatus', instrument: serial, url: receiver.url });
    webhooks.setOnline(serial, false);
    const [got] = await receiver.receivedCount(1);
    expect(got?.json).toMatchObject({ type: 'InstrumentStatus', instrument: serial, online: false });
  });
});
