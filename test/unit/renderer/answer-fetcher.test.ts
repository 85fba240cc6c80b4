/**
 * Where the browser transport asks and reads an answer: in the worker once it runs (a frame's
 * bytes moved back, the same value as read here), on the page's thread when the worker cannot
 * start — the requests that waited for it asked once, never twice — and a worker that stops with a
 * request out fails that request rather than sending it again. A malformed frame says what is wrong.
 */
import { describe, expect, it } from 'vitest';
import {
  fetchAndRead,
  fetchHere,
  workerAnswerFetcher,
  WORKER_STOPPED,
  type AnswerRequest,
  type FromWorker,
  type ToWorker,
} from '../../../src/renderer/src/transport/answer-fetcher';
import { encodeAnswer, FRAME_CONTENT_TYPE } from '../../../src/shared/ipc/binary-frame';

/** A harness answering each POST by its URL, counting the requests it was sent. */
function fakeHarness() {
  const asked: string[] = [];
  const times = new Float64Array(50_000).fill(7);
  const doFetch = (async (input: string | URL | Request) => {
    const url = String(input);
    asked.push(url);
    if (url.endsWith('/down')) throw new TypeError('Failed to fetch');
    if (url.endsWith('/frame')) {
      const answer = encodeAnswer({ ok: true, value: { times } });
      if (!('frame' in answer)) throw new Error('expected a frame');
      return new Response(answer.frame.slice(), { headers: { 'Content-Type': FRAME_CONTENT_TYPE } });
    }
    if (url.endsWith('/cut')) {
      const answer = encodeAnswer({ ok: true, value: { times } });
      if (!('frame' in answer)) throw new Error('expected a frame');
      return new Response(answer.frame.slice(0, 1000), { headers: { 'Content-Type': FRAME_CONTENT_TYPE } });
    }
    if (url.endsWith('/page')) return new Response('<html>Bad gateway</html>', { status: 502 });
    return new Response(JSON.stringify({ ok: true, value: url }));
  }) as typeof fetch;
  return { asked, doFetch };
}

const request = (path: string): AnswerRequest => ({
  url: `http://harness${path}`,
  headers: { 'Content-Type': 'application/json' },
  body: '{}',
});

/**
 * A stand-in for the page's Worker running answer-fetcher.worker.ts over the same fake harness:
 * it says it runs (unless `refused`, when it reports an error as a worker whose script the page
 * refused would), then reads each request with the worker's own code path (`fetchAndRead`).
 */
class FakeWorker {
  static started = 0;
  received: ToWorker[] = [];
  transferred: Transferable[][] = [];
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  terminated = false;
  /** Requests taken but not answered: `hold` keeps them, as a worker that then stops would. */
  constructor(
    private readonly doFetch: typeof fetch,
    private readonly mode: 'runs' | 'refused' | 'hold' = 'runs',
  ) {
    FakeWorker.started += 1;
    setTimeout(() => {
      if (this.mode === 'refused') this.onerror?.(new Event('error'));
      else this.post({ ready: true });
    }, 0);
  }
  private post(data: FromWorker): void {
    this.onmessage?.({ data } as MessageEvent<FromWorker>);
  }
  postMessage(message: ToWorker): void {
    this.received.push(message);
    if (this.mode === 'hold') return;
    void fetchAndRead(this.doFetch, message.request).then(({ answer, frame }) => {
      this.transferred.push(frame ? [frame] : []);
      this.post({ id: message.id, answer });
    });
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('answer fetcher', () => {
  it('asks and reads in the worker once it runs, a frame’s typed arrays moved back whole', async () => {
    const { asked, doFetch } = fakeHarness();
    let worker: FakeWorker | null = null;
    const fetchAnswer = workerAnswerFetcher(
      () => (worker = new FakeWorker(doFetch)) as unknown as Worker,
      fetchHere(doFetch),
    );
    // Asked before the worker said it runs: it waits, then goes to the worker.
    const [first, second] = await Promise.all([fetchAnswer(request('/a')), fetchAnswer(request('/b'))]);
    expect(first).toEqual({
      reached: true,
      status: 200,
      readable: true,
      body: { ok: true, value: 'http://harness/a' },
    });
    expect(second).toMatchObject({ body: { value: 'http://harness/b' } });
    const frame = await fetchAnswer(request('/frame'));
    if (!frame.reached || !frame.readable) throw new Error('expected a readable answer');
    const times = (frame.body as { value: { times: Float64Array } }).value.times;
    expect(times).toBeInstanceOf(Float64Array);
    expect(times).toHaveLength(50_000);
    // One worker for all three, each asked once; the frame's bytes were moved, not copied.
    expect(worker!.received).toHaveLength(3);
    expect(asked).toHaveLength(3);
    expect(worker!.transferred[2]![0]).toBe(times.buffer);
  });

  it('says what is wrong: nothing answering, a cut frame, a page that is not JSON', async () => {
    const { doFetch } = fakeHarness();
    const here = fetchHere(doFetch);
    await expect(here(request('/down'))).resolves.toEqual({ reached: false, problem: null });
    const cut = await here(request('/cut'));
    expect(cut).toMatchObject({ reached: true, readable: false, problem: expect.stringMatching(/bytes/) });
    await expect(here(request('/page'))).resolves.toEqual({
      reached: true,
      status: 502,
      readable: false,
      problem: '',
    });
  });

  it('asks here when the worker cannot start: what waited for it asked once, and it is never started again', async () => {
    const { asked, doFetch } = fakeHarness();
    const started = FakeWorker.started;
    const fetchAnswer = workerAnswerFetcher(
      () => new FakeWorker(doFetch, 'refused') as unknown as Worker,
      fetchHere(doFetch),
    );
    const answers = await Promise.all([fetchAnswer(request('/a')), fetchAnswer(request('/b'))]);
    expect(answers.map((a) => a.reached && a.readable && a.body)).toEqual([
      { ok: true, value: 'http://harness/a' },
      { ok: true, value: 'http://harness/b' },
    ]);
    await expect(fetchAnswer(request('/c'))).resolves.toMatchObject({ body: { value: 'http://harness/c' } });
    expect(asked).toEqual(['http://harness/a', 'http://harness/b', 'http://harness/c']);
    expect(FakeWorker.started - started).toBe(1);

    const none = workerAnswerFetcher(() => {
      throw new Error('Worker is not defined');
    }, fetchHere(doFetch));
    await expect(none(request('/d'))).resolves.toMatchObject({ body: { value: 'http://harness/d' } });
  });

  it('fails a request the worker held when it stops, never asking it again', async () => {
    const { asked, doFetch } = fakeHarness();
    let worker: FakeWorker | null = null;
    const fetchAnswer = workerAnswerFetcher(
      () => (worker = new FakeWorker(doFetch, 'hold')) as unknown as Worker,
      fetchHere(doFetch),
    );
    const held = fetchAnswer(request('/save'));
    await expect.poll(() => worker?.received.length).toBe(1);
    worker!.onerror?.(new Event('error'));
    await expect(held).resolves.toEqual({ reached: false, problem: WORKER_STOPPED });
    expect(worker!.terminated).toBe(true);
    // The next request is asked here; the held one never was.
    await expect(fetchAnswer(request('/next'))).resolves.toMatchObject({
      body: { value: 'http://harness/next' },
    });
    expect(asked).toEqual(['http://harness/next']);
  });
});
