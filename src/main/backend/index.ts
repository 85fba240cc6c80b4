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
} from './accounts/vault';
export {
  createServiceClient,
  CLIENT_DEFAULTS,
  type RetryOptions,
  type ServiceClient,
  type ServiceClientOptions,
  type ServiceExchange,
} from './service/client';
export {
  openAccountStore,
  ACCOUNTS_FILE_NAME,
  type AccountStore,
  type StoredAccount,
} from './accounts/account-store';
export {
  openDatabase,
  DATABASE_FILE_NAME,
  MIGRATIONS,
  type FieldDeskDatabase,
  type Migration,
} from './core/database';
export { createActionHistory, type ActionHistory } from './actions/action-records';
export {
  createPollingProgressSource,
  POLLING_DEFAULTS,
  type ActionProgressSource,
  type ProgressObservation,
  type ProgressWatchRequest,
} from './actions/action-progress';
export {
  reduceAction,
  startActionOperation,
  actionTimeoutMs,
  CLOCK_SKEW_ALLOWANCE_MS,
} from './actions/action-operation';
export {
  createOperationRegistry,
  KEEP_FINISHED_OPERATIONS,
  type OperationRegistry,
} from './operations/registry';
export { openSettingsStore, SETTINGS_FILE_NAME, type SettingsStore } from './settings/settings-store';
