/**
 * Accounts: names and addresses on disk (account-store), keys in the keychain (vault), the demo
 * service, and how other domains reach the service for an account (service-access).
 */
import type { AccountsState, AccountSummary } from '../../../shared/accounts';
import { FieldDeskError } from '../../../shared/errors';
import { unsavedChange } from '../core/disk-errors';
import type { EventHub } from '../core/events';
import type { AccountStore, StoredAccount } from './account-store';
import type { KeyVault } from './vault';

const MESSAGES = {
  noAccount: 'No account is active. Add an account or try the demo.',
  unknownAccount: 'That account no longer exists. It may have been removed in another window.',
  saveFailed: 'FieldDesk could not save its account list, so the change was not made.',
} as const;

/** What every domain asks of the accounts: which one is meant, and how they look to the renderer. */
export interface AccountState {
  readonly store: AccountStore;
  /** The account with this id; `invalidInput` when it is gone. */
  require(id: string): StoredAccount;
  /** The active account; `noAccount` when there is none. */
  requireActive(): StoredAccount;
  summarize(account: StoredAccount): Promise<AccountSummary>;
  get(): Promise<AccountsState>;
  /** Pushes `accounts.changed` when anyone listens. */
  publish(): Promise<void>;
  /** Pushes `accounts.changed` and returns the state it pushed (for requests that answer it). */
  publishAndGet(): Promise<AccountsState>;
  /** Runs a write of the account file (applied only once written), turning a disk failure into a plain message. */
  saving<T>(work: Promise<T>): Promise<T>;
}

export function createAccountState(
  store: AccountStore,
  vault: KeyVault,
  events: EventHub,
  /** The data folder the account list is in, for messages. */
  dataDir: string,
): AccountState {
  async function summarize(account: StoredAccount): Promise<AccountSummary> {
    const held = account.kind === 'demo' ? null : await vault.get(account.id);
    return {
      id: account.id,
      name: account.name,
      baseUrl: account.baseUrl,
      kind: account.kind,
      keyStorage: account.kind === 'demo' ? 'demo' : (held?.storage ?? 'missing'),
      missingScopes: [...account.missingScopes],
      createdAt: account.createdAt,
      lastCheckedAt: account.lastCheckedAt,
    };
  }

  async function get(): Promise<AccountsState> {
    const accounts = await Promise.all(store.list().map(summarize));
    // Read the vault status after the keys: a failed keychain read switches it to memory.
    const state: AccountsState = { accounts, activeId: store.activeId(), vault: vault.status() };
    if (store.warning !== null) state.notice = store.warning;
    return state;
  }

  return {
    store,
    require(id) {
      const account = store.get(id);
      if (account === undefined)
        throw new FieldDeskError('invalidInput', MESSAGES.unknownAccount, { field: 'id' });
      return account;
    },
    requireActive() {
      const id = store.activeId();
      const account = id === null ? undefined : store.get(id);
      if (account === undefined) throw new FieldDeskError('noAccount', MESSAGES.noAccount);
      return account;
    },
    summarize,
    get,
    async publish() {
      if (events.hasListeners()) events.emit('accounts.changed', await get());
    },
    async publishAndGet() {
      const state = await get();
      events.emit('accounts.changed', state);
      return state;
    },
    async saving(work) {
      try {
        return await work;
      } catch (error) {
        throw unsavedChange(error, {
          folder: dataDir,
          what: 'your account list',
          advice: 'The change was not made; your accounts stay as they were.',
          otherwise: MESSAGES.saveFailed,
        });
      }
    },
  };
}
