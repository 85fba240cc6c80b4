/**
 * The download queue's order (download-queue.ts): bulk downloads run `concurrency` at a time in the
 * order asked; an urgent one goes before every waiting bulk one and may take one slot more, so it
 * starts at once even when bulk transfers fill every slot. Runs are held by the test (promises it
 * resolves), never by time.
 */
import { describe, expect, it } from 'vitest';
import { createDownloadQueue } from '../../../src/main/backend/audio/download-queue';

/** A queue whose runs stay running until the test finishes them, recording the order they started. */
function heldQueue(concurrency: number) {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const queue = createDownloadQueue({
    concurrency,
    run: (id) =>
      new Promise<void>((resolve) => {
        started.push(id);
        finishers.set(id, resolve);
      }),
  });
  /** Ends a running download and waits until the queue has given its slot on. */
  async function finish(id: string): Promise<void> {
    const done = finishers.get(id);
    if (done === undefined) throw new Error(`${id} is not running`);
    finishers.delete(id);
    done();
    // The slot is given on in the run's `finally`: two microtask turns after it resolves.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return { queue, started, finish };
}

describe('audio download queue', () => {
  it('runs bulk downloads two at a time, in the order asked', async () => {
    const { queue, started, finish } = heldQueue(2);
    for (const id of ['a', 'b', 'c', 'd']) queue.add(id, 'bulk');
    expect(started).toEqual(['a', 'b']);
    expect(queue.waiting()).toEqual(['c', 'd']);
    await finish('a');
    expect(started).toEqual(['a', 'b', 'c']);
    expect(queue.running().sort()).toEqual(['b', 'c']);
  });

  it('starts an urgent download at once while bulk downloads fill every slot', () => {
    const { queue, started } = heldQueue(2);
    for (const id of ['a', 'b', 'c', 'd']) queue.add(id, 'bulk');
    queue.add('play', 'urgent');
    expect(started).toEqual(['a', 'b', 'play']);
    expect(queue.waiting()).toEqual(['c', 'd']);
  });

  it('puts a second urgent download before every waiting bulk one', async () => {
    const { queue, started, finish } = heldQueue(2);
    for (const id of ['a', 'b', 'c', 'd']) queue.add(id, 'bulk');
    queue.add('play-1', 'urgent');
    queue.add('play-2', 'urgent');
    // Three run (the one extra slot is urgent work's); the second Play is next.
    expect(started).toEqual(['a', 'b', 'play-1']);
    expect(queue.waiting()).toEqual(['play-2', 'c', 'd']);
    await finish('a');
    expect(started.at(-1)).toBe('play-2');
    // Bulk work waits until it is back under its own limit.
    await finish('b');
    expect(started).toEqual(['a', 'b', 'play-1', 'play-2']);
    await finish('play-1');
    expect(started.at(-1)).toBe('c');
  });

  it('moves a waiting bulk download forward when it is asked for as urgent, and runs it once', () => {
    const { queue, started } = heldQueue(2);
    for (const id of ['a', 'b', 'c', 'd']) queue.add(id, 'bulk');
    queue.add('d', 'urgent');
    queue.add('d', 'urgent');
    queue.add('d', 'bulk');
    expect(started).toEqual(['a', 'b', 'd']);
    expect(queue.waiting()).toEqual(['c']);
  });

  it('never runs a running download twice, and clear() forgets only what waits', async () => {
    const { queue, started, finish } = heldQueue(1);
    queue.add('a', 'bulk');
    queue.add('a', 'urgent');
    queue.add('b', 'bulk');
    expect(started).toEqual(['a']);
    queue.clear();
    expect(queue.waiting()).toEqual([]);
    await finish('a');
    expect(started).toEqual(['a']);
    expect(queue.running()).toEqual([]);
  });

  it('gives the slot on when a run fails, and says which failed', async () => {
    const failures: string[] = [];
    const started: string[] = [];
    const queue = createDownloadQueue({
      concurrency: 1,
      run: async (id) => {
        started.push(id);
        if (id === 'bad') throw new Error('broken');
      },
      onError: (id) => failures.push(id),
    });
    queue.add('bad', 'bulk');
    queue.add('next', 'bulk');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(started).toEqual(['bad', 'next']);
    expect(failures).toEqual(['bad']);
  });
});
