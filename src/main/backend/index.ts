/**
 * The backend's public face: everything the Electron entry and the browser harness need.
 * Plain Node only; Electron pieces are injected through `BackendOptions`.
 */
export {
  createBackend,
  DEMO_ACCOUNT_NAME,
  type Backend,
  type BackendOptions,
  type DemoService,
} from './backend';
export {
  createKeyVault,
  createMemoryVault,
  VAULT_REASONS,
  type KeyVault,
  type KeyVaultOptions,
  type KeytarLike,
} from './vault';
export {
  createServiceClient,
  CLIENT_DEFAULTS,
  type RetryOptions,
  type ServiceClient,
  type ServiceClientOptions,
  type ServiceExchange,
} from './client';
export { openAccountStore, ACCOUNTS_FILE_NAME, type AccountStore, type StoredAccount } from './account-store';
export { openDatabase, DATABASE_FILE_NAME, MIGRATIONS, type FieldDeskDatabase, type Migration } from './db';
export { createActionHistory, type ActionHistory } from './action-history';
export {
  createPollingProgressSource,
  POLLING_DEFAULTS,
  type ActionProgressSource,
  type ProgressObservation,
  type ProgressWatchRequest,
} from './action-progress';
export { reduceAction, startActionOperation, actionTimeoutMs, CLOCK_SKEW_ALLOWANCE_MS } from './actions';
export { createOperationRegistry, KEEP_FINISHED_OPERATIONS, type OperationRegistry } from './operations';
export { openSettingsStore, SETTINGS_FILE_NAME, type SettingsStore } from './settings-store';
