/** Browser entry: installs the HTTP transport to the harness as `window.fielddesk`, then the same app. */
import { installHttpBridge, takeHarnessToken } from './transport/http-bridge';
import { fetchHere, workerAnswerFetcher } from './transport/answer-fetcher';
import { startApp } from './app';

installHttpBridge({
  // Absolute, so the worker asks the page's origin whatever its own script's address.
  baseUrl: window.location.origin,
  token: takeHarnessToken(window.location, window.sessionStorage, window.history),
  // Requests asked and answers read off the page's thread (a year's assessment is megabytes), as
  // Electron's IPC does.
  fetchAnswer: workerAnswerFetcher(
    () => new Worker(new URL('./transport/answer-fetcher.worker.ts', import.meta.url), { type: 'module' }),
    fetchHere((input, init) => fetch(input, init)),
  ),
});
startApp();
