/**
 * Where the browser transport asks the harness and turns the answer's bytes into its envelope: in
 * a worker when the page can start one, on the calling thread otherwise (tests in Node, or a page
 * that refused the worker). A year's assessment is megabytes: received and parsed on the page's
 * thread it held it for a quarter of a second even before the parse, so the worker does both and
 * hands back the value as a structured clone — what Electron's IPC does for the desktop app.
 * Either way the answer is the same, and a malformed frame says what is wrong.
 */
import { decodeFrame, FrameError, FRAME_CONTENT_TYPE } from '../../../shared/ipc/binary-frame';

/** One request to the harness: always a POST of a JSON body. */
export interface AnswerRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What came of a request: not reached, an answer read, or an answer that could not be read. */
export type FetchedAnswer =
  /** `problem`: why, when not that nothing answered at that address. */
  | { reached: false; problem: string | null }
  | { reached: true; status: number; readable: true; body: unknown }
  /** `problem`: a malformed frame's own words, or empty for text that is not JSON. */
  | { reached: true; status: number; readable: false; problem: string };

export type AnswerFetcher = (request: AnswerRequest) => Promise<FetchedAnswer>;

/** Messages between the page and the worker (answer-fetcher.worker.ts). */
export type ToWorker = { id: number; request: AnswerRequest };
export type FromWorker = { ready: true } | { id: number; answer: FetchedAnswer };

/**
 * Asks and reads one answer. `frame` is the bytes a frame's typed arrays are views on, so a worker
 * can move them to the page rather than copy them.
 */
export async function fetchAndRead(
  doFetch: typeof fetch,
  request: AnswerRequest,
): Promise<{ answer: FetchedAnswer; frame: ArrayBuffer | null }> {
  let response: Response;
  try {
    response = await doFetch(request.url, { method: 'POST', headers: request.headers, body: request.body });
  } catch {
    return { answer: { reached: false, problem: null }, frame: null };
  }
  const { status } = response;
  try {
    // Answers with typed arrays (time series) come as a frame; the arrays are views on its bytes.
    const isFrame = response.headers.get('Content-Type')?.startsWith(FRAME_CONTENT_TYPE) ?? false;
    const bytes = await response.arrayBuffer();
    const body: unknown = isFrame ? decodeFrame(bytes) : JSON.parse(new TextDecoder().decode(bytes));
    return { answer: { reached: true, status, readable: true, body }, frame: isFrame ? bytes : null };
  } catch (error) {
    const problem = error instanceof FrameError ? error.message : '';
    return { answer: { reached: true, status, readable: false, problem }, frame: null };
  }
}

/** Asks and reads on the calling thread. */
export const fetchHere =
  (doFetch: typeof fetch): AnswerFetcher =>
  async (request) =>
    (await fetchAndRead(doFetch, request)).answer;

/** Said when the worker stopped while a request was out: it may have been done, so it is not sent again. */
export const WORKER_STOPPED =
  'The page’s connection to FieldDesk’s backend stopped while it answered. Check the result, then try again.';

/**
 * Asks and reads in one worker started on first need. Until the worker says it runs, requests
 * wait for it; if it cannot start (no `Worker`, its script refused), they and every later one are
 * asked on the calling thread by `here` — never sent twice, since none reached the worker. A
 * worker that stops after it ran fails the requests it held (they may have been done) and the
 * next ones go through `here`.
 */
export function workerAnswerFetcher(start: () => Worker, here: AnswerFetcher): AnswerFetcher {
  let worker: Worker | null = null;
  let ready = false;
  let broken = false;
  let nextId = 0;
  /** Requests waiting for the worker to run. */
  let queued: Array<{ request: AnswerRequest; resolve: (answer: FetchedAnswer) => void }> = [];
  /** Requests the worker holds, by id. */
  const held = new Map<number, (answer: FetchedAnswer) => void>();

  const send = (request: AnswerRequest, resolve: (answer: FetchedAnswer) => void): void => {
    const id = nextId++;
    held.set(id, resolve);
    worker!.postMessage({ id, request } satisfies ToWorker);
  };

  const stop = (): void => {
    broken = true;
    worker?.terminate();
    worker = null;
    for (const { request, resolve } of queued) void here(request).then(resolve);
    queued = [];
    const stopped: FetchedAnswer = { reached: false, problem: WORKER_STOPPED };
    for (const resolve of held.values()) resolve(stopped);
    held.clear();
  };

  const workerOf = (): Worker | null => {
    if (worker || broken) return worker;
    try {
      worker = start();
    } catch {
      broken = true;
      return null;
    }
    worker.onmessage = ({ data }: MessageEvent<FromWorker>) => {
      if ('ready' in data) {
        ready = true;
        for (const { request, resolve } of queued) send(request, resolve);
        queued = [];
        return;
      }
      const resolve = held.get(data.id);
      held.delete(data.id);
      resolve?.(data.answer);
    };
    worker.onerror = stop;
    return worker;
  };

  return (request) => {
    const running = workerOf();
    if (!running) return here(request);
    return new Promise<FetchedAnswer>((resolve) => {
      if (ready) send(request, resolve);
      else queued.push({ request, resolve });
    });
  };
}
