/** Electron entry: the sandboxed preload has already exposed `window.fielddesk`. */
import { startApp } from './app';

startApp();
