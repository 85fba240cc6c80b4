/**
 * Asks the harness and reads its answers off the page's main thread: the envelope goes back as a
 * structured clone, a frame's bytes moved with it — what Electron's IPC does for the desktop app
 * (see answer-fetcher.ts). Says it runs first, so the page knows its requests reached it.
 */
import { fetchAndRead, type FromWorker, type ToWorker } from './answer-fetcher';

// A dedicated worker's global scope; the renderer's tsconfig has the DOM library, not WebWorker.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
};

scope.onmessage = ({ data: { id, request } }) => {
  void fetchAndRead((input, init) => fetch(input, init), request).then(({ answer, frame }) =>
    scope.postMessage({ id, answer }, frame ? [frame] : []),
  );
};
scope.postMessage({ ready: true });
