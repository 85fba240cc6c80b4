/** Browser entry: installs the HTTP transport to the harness as `window.fielddesk`, then the same app. */
import { installHttpBridge, takeHarnessToken } from './transport/http-bridge';
import { startApp } from './app';

installHttpBridge({ token: takeHarnessToken(window.location, window.sessionStorage, window.history) });
startApp();
