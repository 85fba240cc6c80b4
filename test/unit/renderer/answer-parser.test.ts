/**
 * Where the browser transport parses an answer: a large one in the worker (its bytes moved to it,
 * the same value back), a small one on the page's thread, and every one on the page's thread when
 * the worker cannot run; a malformed frame says what is wrong either way.
 */
import { describe, expect, it } from 'vitest';
import {
  AnswerParseError,
  parseHere,
  workerAnswerParser,
  WORKER_PARSE_BYTES,
  type ParseAnswer,
  type ParseRequest,
} from '../../../src/renderer/src/transport/answer-parser';
import { encodeAnswer } from '../../../src/shared/ipc/binary-frame';

const bytesOf = (text: string): ArrayBuffer => new TextEncoder().encode(text).buffer as ArrayBuffer;

/**
 * A stand-in for the page's Worker running answer-parser.worker.ts: it answers with what the
 * worker's own code path (`parseHere`) gives, asynchronously as a worker does, and counts what
 * it was sent. `failing` makes it report an error event instead, as a worker whose script the
 * page refused would.
 */
class FakeWorker {
  static started = 0;
  received: ParseRequest[] = [];
  onmessage: ((event: MessageEvent<ParseAnswer>) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  terminated = false;
  constructor(private readonly failing = false) {
    FakeWorker.started += 1;
  }
  postMessage(request: ParseRequest, transfer: Transferable[]): void {
    this.received.push(request);
    expect(transfer).toEqual([request.bytes]);
    setTimeout(() => {
      if (this.failing) return this.onerror?.(new Event('error'));
      parseHere(request.bytes, request.frame).then(
        (body) => this.onmessage?.({ data: { id: request.id, ok: true, body } } as MessageEvent<ParseAnswer>),
        (error: AnswerParseError) =>
          this.onmessage?.({
            data: { id: request.id, ok: false, problem: error.problem },
          } as MessageEvent<ParseAnswer>),
      );
    }, 0);
  }
  terminate(): void {
    this.terminated = true;
  }
}

const large = {
  ok: true,
  value: { rows: Array.from({ length: 30_000 }, (_, i) => ({ i, text: `row ${i}` })) },
};
const largeText = JSON.stringify(large);

describe('answer parser', () => {
  it('parses a large answer in the worker and a small one here', async () => {
    expect(largeText.length).toBeGreaterThan(WORKER_PARSE_BYTES);
    let worker: FakeWorker | null = null;
    const parse = workerAnswerParser(() => (worker = new FakeWorker()) as unknown as Worker);
    await expect(parse(bytesOf('{"ok":true,"value":1}'), false)).resolves.toEqual({ ok: true, value: 1 });
    expect(worker).toBeNull(); // not even started for a small answer
    await expect(parse(bytesOf(largeText), false)).resolves.toEqual(large);
    await expect(parse(bytesOf(largeText), false)).resolves.toEqual(large);
    expect(worker!.received).toHaveLength(2); // one worker for both
  });

  it('reads a large frame in the worker, and says what is wrong with a malformed one', async () => {
    const answer = encodeAnswer({ ok: true, value: { times: new Float64Array(50_000).fill(7) } });
    if (!('frame' in answer)) throw new Error('expected a frame');
    const parse = workerAnswerParser(() => new FakeWorker() as unknown as Worker);
    const body = (await parse(answer.frame.slice().buffer, true)) as { value: { times: Float64Array } };
    expect(body.value.times).toBeInstanceOf(Float64Array);
    expect(body.value.times).toHaveLength(50_000);
    const cut = answer.frame.slice(0, WORKER_PARSE_BYTES + 8).buffer;
    const failure = await parse(cut, true).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AnswerParseError);
    expect((failure as AnswerParseError).problem).toMatch(/bytes/);
  });

  it('parses here when the worker cannot run, the answer not lost', async () => {
    const started = FakeWorker.started;
    const parse = workerAnswerParser(() => new FakeWorker(true) as unknown as Worker);
    await expect(parse(bytesOf(largeText), false)).resolves.toEqual(large);
    // Broken once, never started again.
    await expect(parse(bytesOf(largeText), false)).resolves.toEqual(large);
    expect(FakeWorker.started - started).toBe(1);
    const none = workerAnswerParser(() => {
      throw new Error('Worker is not defined');
    });
    await expect(parse(bytesOf('not json'), false)).rejects.toBeInstanceOf(AnswerParseError);
    await expect(none(bytesOf(largeText), false)).resolves.toEqual(large);
  });
});
