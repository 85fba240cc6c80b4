/**
 * The backend's public face: what the Electron entry and the browser harness need, nothing more.
 * Plain Node only; Electron pieces are injected through `BackendOptions`. Tests import the modules
 * of each domain directly.
 */
export { createBackend, type Backend, type BackendOptions } from './backend';
export { DEMO_ACCOUNT_NAME, type DemoService } from './accounts/demo';
export { createKeyVault, type KeyVault } from './accounts/vault';
