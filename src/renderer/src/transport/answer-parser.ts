/**
 * Where the browser transport turns an answer's bytes into its envelope: in a worker for a large
 * answer when the page can start one, on the calling thread otherwise (a small answer, or tests in
 * Node). Either way the result is the same value, and a malformed frame says what is wrong.
 */
import { decodeFrame, FrameError } from '../../../shared/ipc/binary-frame';

export interface ParseRequest {
  id: number;
  frame: boolean;
  bytes: ArrayBuffer;
}

export type ParseAnswer =
  { id: number; ok: true; body: unknown } | { id: number; ok: false; problem: string };

/** Answers larger than this are parsed in the worker: below it the trip costs more than the parse. */
export const WORKER_PARSE_BYTES = 256 * 1024;

/** Why an answer could not be read: a frame's own words, or empty for text that is not JSON. */
export class AnswerParseError extends Error {
  constructor(readonly problem: string) {
    super(problem || 'The answer is not JSON.');
    this.name = 'AnswerParseError';
  }
}

export type AnswerParser = (bytes: ArrayBuffer, frame: boolean) => Promise<unknown>;

/** Parses on the calling thread. */
export const parseHere: AnswerParser = async (bytes, frame) => {
  try {
    return frame ? decodeFrame(bytes) : JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new AnswerParseError(error instanceof FrameError ? error.message : '');
  }
};

/**
 * Parses large answers in one worker started on first need; small ones, and every one when no
 * worker can be started (no `Worker`, or it failed to load), on the calling thread.
 */
export function workerAnswerParser(start: () => Worker): AnswerParser {
  let worker: Worker | null = null;
  let broken = false;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (body: unknown) => void; reject: (error: Error) => void }>();
  const workerOf = (): Worker | null => {
    if (worker || broken) return worker;
    try {
      worker = start();
    } catch {
      broken = true;
      return null;
    }
    worker.onmessage = ({ data }: MessageEvent<ParseAnswer>) => {
      const pending = waiting.get(data.id);
      waiting.delete(data.id);
      if (!pending) return;
      if (data.ok) pending.resolve(data.body);
      else pending.reject(new AnswerParseError(data.problem));
    };
    // A worker that cannot run (its script refused, or it crashed) leaves the parsing to this thread.
    worker.onerror = () => {
      broken = true;
      worker?.terminate();
      worker = null;
      for (const pending of waiting.values()) pending.reject(new Error('The answer parser stopped.'));
      waiting.clear();
    };
    return worker;
  };
  return async (bytes, frame) => {
    const running = bytes.byteLength >= WORKER_PARSE_BYTES ? workerOf() : null;
    if (!running) return parseHere(bytes, frame);
    const id = nextId++;
    const copy = bytes.slice(0);
    try {
      return await new Promise<unknown>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        running.postMessage({ id, frame, bytes } satisfies ParseRequest, [bytes]);
      });
    } catch (error) {
      if (error instanceof AnswerParseError) throw error;
      return parseHere(copy, frame);
    }
  };
}
