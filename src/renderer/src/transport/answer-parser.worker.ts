/**
 * Reads a large harness answer off the page's main thread: the bytes come in (moved, not copied),
 * the envelope goes back as a structured clone — what Electron's IPC does for the desktop app, so
 * a year's 10 MB assessment costs the page a clone, not a parse (see http-bridge.ts).
 */
import { decodeFrame, FrameError } from '../../../shared/ipc/binary-frame';
import type { ParseRequest, ParseAnswer } from './answer-parser';

// A dedicated worker's global scope; the renderer's tsconfig has the DOM library, not WebWorker.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
  postMessage(message: ParseAnswer, transfer?: Transferable[]): void;
};

scope.onmessage = ({ data: { id, frame, bytes } }) => {
  try {
    const body: unknown = frame ? decodeFrame(bytes) : JSON.parse(new TextDecoder().decode(bytes));
    // A frame's typed arrays are views on `bytes`: moved back with it rather than copied.
    scope.postMessage({ id, ok: true, body }, frame ? [bytes] : []);
  } catch (error) {
    scope.postMessage({ id, ok: false, problem: error instanceof FrameError ? error.message : '' });
  }
};
