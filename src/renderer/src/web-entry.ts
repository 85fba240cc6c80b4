/** Browser entry: installs the HTTP transport to the harness as `window.fielddesk`, then the same app. */
import { installHttpBridge, takeHarnessToken } from './transport/http-bridge';
import { workerAnswerParser } from './transport/answer-parser';
import { startApp } from './app';

installHttpBridge({
  token: takeHarnessToken(window.location, window.sessionStorage, window.history),
  // Large answers (a year's assessment) are parsed off the page's thread, as Electron's IPC does.
  parseAnswer: workerAnswerParser(
    () => new Worker(new URL('./transport/answer-parser.worker.ts', import.meta.url), { type: 'module' }),
  ),
});
startApp();
