/** Pushed events (core/events.ts): a failing receiver never stops the others, and is said in the log, not once per event. */
import { describe, expect, it } from 'vitest';
import { createEventHub } from '../../../src/main/backend/core/events';
import { createLogger, memoryLogWriter } from '../../../src/main/backend/core/log';

describe('the event hub', () => {
  it('keeps sending to the other receivers when one fails, logs the first failure of each channel and counts the rest', () => {
    const writer = memoryLogWriter();
    const events = createEventHub({ log: createLogger(writer, { redact: (value) => value }) });
    const received: string[] = [];
    events.subscribe(() => {
      throw new Error('window closed');
    });
    events.subscribe((channel) => received.push(channel));
    for (let i = 0; i < 5; i++) events.emit('app.noticesChanged', []);
    events.emit('instruments.urgent', { serial: 'QT1', name: 'North', reason: 'Battery 11.3 V' });

    expect(received).toEqual([...Array(5).fill('app.noticesChanged'), 'instruments.urgent']);
    expect(writer.records.map((r) => [r.message, r['channel']])).toEqual([
      ['an event receiver failed', 'app.noticesChanged'],
      ['an event receiver failed', 'instruments.urgent'],
    ]);
    expect(writer.records[0]?.['error']).toMatchObject({ message: 'window closed' });

    events.clear();
    expect(writer.records.at(-1)).toMatchObject({
      message: 'event receivers failed again',
      byChannel: { 'app.noticesChanged': 4 },
    });
  });
});
