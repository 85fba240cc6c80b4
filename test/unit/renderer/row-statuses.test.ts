import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import type { InstrumentStatuses } from '../../../src/shared/ipc/contract';
import { STATUS_BATCH_MAX } from '../../../src/shared/ipc/contract';
import { FieldDeskError } from '../../../src/shared/errors';
import {
  createRowStatusLoader,
  ROW_STATUS_DEFAULTS,
  type RowStatus,
  type RowStatusLoader,
} from '../../../src/renderer/src/features/instruments/row-statuses';
import { deferred, status } from './fixtures';

const { debounceMs, refreshMs, checkMs, maxInFlight } = ROW_STATUS_DEFAULTS;

const serials = (from: number, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `QT${String(from + i).padStart(6, '0')}`);

/** The backend's answer to `instruments.statuses` for `asked`, read at `fetchedAt`. */
const answerFor = (asked: readonly string[], fetchedAt: number, online = true): InstrumentStatuses => ({
  accountId: 'acc-1',
  entries: asked.map((serial) => ({ serial, status: status({ online }), statusError: null })),
  fetchedAt,
});

type Read = (serials: string[]) => Promise<InstrumentStatuses>;

describe('statuses of the rows on screen', () => {
  let read: Mock<Read>;
  let known: ReadonlyMap<string, RowStatus>;
  let visible: boolean;
  let loader: RowStatusLoader;

  /** Answers every request at once, as the backend would, on the fake clock's time. */
  const answerAtOnce = () => read.mockImplementation(async (asked) => answerFor(asked, Date.now()));

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    read = vi.fn<Read>();
    known = new Map();
    visible = true;
    loader = createRowStatusLoader({
      read,
      onChange: (statuses) => (known = statuses),
      mayRefresh: () => visible,
    });
    loader.start();
  });

  afterEach(() => {
    loader.stop();
    vi.useRealTimers();
  });

  it('asks for the rows on screen once scrolling pauses, not for rows only flown past', async () => {
    answerAtOnce();
    loader.show(serials(0, 20));
    await vi.advanceTimersByTimeAsync(debounceMs / 2);
    loader.show(serials(500, 20));
    await vi.advanceTimersByTimeAsync(debounceMs / 2);
    loader.show(serials(900, 20));
    expect(read).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(debounceMs);
    expect(read).toHaveBeenCalledTimes(1);
    expect(read).toHaveBeenCalledWith(serials(900, 20));
    expect([...known.keys()]).toEqual(serials(900, 20));
    expect(known.get('QT000900')?.status?.online).toBe(true);
  });

  it('asks at most STATUS_BATCH_MAX per request and keeps at most two requests out', async () => {
    const answers: Array<ReturnType<typeof deferred<InstrumentStatuses>>> = [];
    read.mockImplementation(() => {
      const answer = deferred<InstrumentStatuses>();
      answers.push(answer);
      return answer.promise;
    });
    loader.show(serials(0, 250));
    await vi.advanceTimersByTimeAsync(debounceMs);

    expect(read).toHaveBeenCalledTimes(maxInFlight);
    expect(read.mock.calls.map(([asked]) => asked.length)).toEqual([STATUS_BATCH_MAX, STATUS_BATCH_MAX]);
    expect(loader.inFlight).toBe(2);

    // Scrolling on while both are out: the next request is for what is on screen when one returns.
    loader.show(serials(3_000, 30));
    await vi.advanceTimersByTimeAsync(debounceMs);
    expect(read).toHaveBeenCalledTimes(2);

    answers[0]!.resolve(answerFor(read.mock.calls[0]![0], Date.now()));
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(3);
    expect(read.mock.calls[2]![0]).toEqual(serials(3_000, 30));
    // Rows 200–249 scrolled away before their turn came: never asked.
    expect(read.mock.calls.flatMap(([asked]) => asked)).not.toContain('QT000200');
    // What was answered is kept, even though those rows scrolled away: it is still true.
    expect(known.has('QT000000')).toBe(true);
  });

  it('does not ask again for a row already asked for or answered recently', async () => {
    answerAtOnce();
    loader.show(serials(0, 10));
    await vi.advanceTimersByTimeAsync(debounceMs);
    loader.show(serials(5, 10));
    await vi.advanceTimersByTimeAsync(debounceMs);
    expect(read).toHaveBeenCalledTimes(2);
    expect(read.mock.calls[1]![0]).toEqual(serials(10, 5));
  });

  it('drops an answer older than the status already shown', async () => {
    const slow = deferred<InstrumentStatuses>();
    read.mockReturnValueOnce(slow.promise);
    loader.show(['QT000001']);
    await vi.advanceTimersByTimeAsync(debounceMs);

    // Meanwhile a newer reading arrives by the Refresh button's request.
    read.mockResolvedValueOnce(answerFor(['QT000001'], 2_000_000, false));
    loader.refreshShown();
    // The row is still being asked for: the Refresh waits for that request rather than doubling it.
    await vi.advanceTimersByTimeAsync(debounceMs);
    expect(read).toHaveBeenCalledTimes(1);
    slow.resolve(answerFor(['QT000001'], 1_500_000, true));
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(2);
    expect(known.get('QT000001')?.status?.online).toBe(false);

    // An answer that took long, read before the one shown, does not overwrite it.
    const late = deferred<InstrumentStatuses>();
    read.mockReturnValueOnce(late.promise);
    loader.refreshShown();
    await vi.advanceTimersByTimeAsync(debounceMs);
    late.resolve(answerFor(['QT000001'], 1_900_000, true));
    await vi.advanceTimersByTimeAsync(0);
    expect(known.get('QT000001')?.fetchedAt).toBe(2_000_000);
    expect(known.get('QT000001')?.status?.online).toBe(false);
  });

  it('drops answers that arrive after a reset (another account)', async () => {
    const late = deferred<InstrumentStatuses>();
    read.mockReturnValueOnce(late.promise);
    loader.show(serials(0, 5));
    await vi.advanceTimersByTimeAsync(debounceMs);
    loader.reset();
    late.resolve(answerFor(serials(0, 5), Date.now()));
    await vi.advanceTimersByTimeAsync(checkMs * 2);
    expect(known.size).toBe(0);
    expect(loader.inFlight).toBe(0);
    // The reset also forgot the rows on screen: nothing of the old account is asked again.
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('asks the rows on screen again every minute, only those, and not while the window is hidden', async () => {
    answerAtOnce();
    loader.show(serials(0, 10));
    await vi.advanceTimersByTimeAsync(debounceMs);
    const firstAt = known.get('QT000000')?.receivedAt;
    loader.show(serials(10, 10));
    await vi.advanceTimersByTimeAsync(debounceMs);
    expect(read).toHaveBeenCalledTimes(2);

    await vi.advanceTimersByTimeAsync(refreshMs - 2 * debounceMs - checkMs);
    expect(read).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2 * checkMs);
    expect(read).toHaveBeenCalledTimes(3);
    expect(read.mock.calls[2]![0]).toEqual(serials(10, 10));
    // The rows that scrolled away keep their last status, not refreshed.
    expect(known.get('QT000000')?.receivedAt).toBe(firstAt);

    visible = false;
    await vi.advanceTimersByTimeAsync(refreshMs * 3);
    expect(read).toHaveBeenCalledTimes(3);
    visible = true;
    await vi.advanceTimersByTimeAsync(checkMs);
    expect(read).toHaveBeenCalledTimes(4);
  });

  it('keeps a status already shown when a refresh fails, with the reason, and does not hammer', async () => {
    answerAtOnce();
    loader.show(['QT000001', 'QT000002']);
    await vi.advanceTimersByTimeAsync(debounceMs);
    read.mockRejectedValue(new FieldDeskError('offline', 'Cannot reach the service.'));
    loader.refreshShown();
    await vi.advanceTimersByTimeAsync(debounceMs);
    expect(read).toHaveBeenCalledTimes(2);
    expect(known.get('QT000001')?.status?.online).toBe(true);
    expect(known.get('QT000001')?.statusError?.message).toBe('Cannot reach the service.');

    await vi.advanceTimersByTimeAsync(refreshMs - checkMs);
    expect(read).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2 * checkMs);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('forgets every status and stops every timer when stopped (the list is left)', async () => {
    answerAtOnce();
    loader.show(serials(0, 30));
    await vi.advanceTimersByTimeAsync(debounceMs);
    expect(known.size).toBe(30);

    loader.stop();
    expect(known.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    loader.show(serials(0, 30));
    await vi.advanceTimersByTimeAsync(refreshMs * 2);
    expect(read).toHaveBeenCalledTimes(1);

    // Shown again: asks afresh.
    loader.start();
    loader.show(serials(0, 30));
    await vi.advanceTimersByTimeAsync(debounceMs);
    expect(read).toHaveBeenCalledTimes(2);
  });
});
