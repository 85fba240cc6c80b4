/**
 * Closing the backend lets the requests already running finish before the databases close: the
 * fleet read when FieldDesk quit is kept, and answers offline at the next start (before, the read
 * finished after the cache was closed and what it brought was lost — and in the harness its log
 * line went to a removed folder).
 */
import { describe, expect, it } from 'vitest';
import { demoBackendsWithNetwork } from './backend-helpers';

const demo = demoBackendsWithNetwork();

describe('closing the backend', () => {
  it('lets a request already running finish first, its result kept for the next start', async () => {
    let slow = false;
    const { backend, handlers } = await demo.open({
      overrides: {
        // The fleet's answer arrives a moment after FieldDesk is asked to close.
        fetch: async (input, init) => {
          const answer = await fetch(input, init);
          if (slow) await new Promise((resolve) => setTimeout(resolve, 300));
          return answer;
        },
      },
    });
    slow = true;
    const listing = handlers['instruments.list']({});
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = demo.close(backend);
    const listed = await listing;
    await closing;
    expect(listed.entries.length).toBeGreaterThan(0);
    expect(listed.lastKnown).toBeUndefined();

    demo.network.down = true;
    const again = await demo.open({ addDemo: false });
    const offline = await again.handlers['instruments.list']({});
    expect(offline.entries.map((e) => e.instrument.serialNumber)).toEqual(
      listed.entries.map((e) => e.instrument.serialNumber),
    );
  }, 60_000);
});
