/** Browser entry: installs the HTTP transport to the harness as `window.fielddesk`, then the same app. */
import { installHttpBridge } from './transport/http-bridge';
import { startApp } from './app';

installHttpBridge();
startApp();
