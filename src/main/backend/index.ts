/**
 * The backend's public face: what the Electron entry and the browser harness need, nothing more.
 * Plain Node only; Electron pieces are injected through `BackendOptions`. Tests import the modules
 * of each domain directly.
 */
export { createBackend, type Backend } from './backend';
export { createKeyVault } from './accounts/vault';
