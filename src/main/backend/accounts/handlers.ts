import type { AccountCheck } from '../../../shared/accounts';
import { FieldDeskError } from '../../../shared/errors';
import type { ConnectivityService } from '../connectivity/connectivity';
import type { HandlersOf } from '../core/handler-types';
import { apiKeyRedactor } from '../core/secrets';
import type { AccountState } from './account-state';
import { DEMO_ACCOUNT_NAME, type DemoRunner } from './demo';
import { checkKey } from './key-check';
import type { ServiceAccess } from './service-access';
import type { KeyVault } from './vault';

const MESSAGES = {
  keyInName:
    "This name contains the account's API key (or part of it). Choose a name without it: names are saved as plain text, and a key must never be.",
  nameHoldsKey:
    "The account's name contains this API key (or part of it). Rename the account first: names are saved as plain text, and a key must never be.",
} as const;

export interface AccountHandlerDeps {
  accounts: AccountState;
  access: ServiceAccess;
  vault: KeyVault;
  demo: DemoRunner;
  connectivity: ConnectivityService;
  /** Removes what is cached for a removed account (best effort). */
  forgetCachedData(accountId: string): void;
  now: () => number;
}

export function accountHandlers(deps: AccountHandlerDeps): HandlersOf<'accounts'> {
  const { accounts, access, vault, demo, connectivity, now } = deps;
  const { store, saving } = accounts;
  /**
   * Refuses a name that holds `apiKey` in any spelling the redactor knows, or a long piece of it: a
   * name is written in plain text to accounts.json (and its backups), a key never is.
   */
  function refuseKeyInName(name: string, apiKey: string | undefined, field: 'name' | 'apiKey'): void {
    if (apiKey === undefined || apiKeyRedactor(apiKey)(name) === name) return;
    // The refused request is logged with the name it was given: the log must know the key first.
    access.rememberKey(apiKey);
    const message = field === 'name' ? MESSAGES.keyInName : MESSAGES.nameHoldsKey;
    throw new FieldDeskError('invalidInput', message, { field });
  }

  /** A second "Try the demo" click while the first runs joins it instead of adding a second account. */
  let tryingDemo: Promise<AccountCheck> | null = null;

  async function activate(accountId: string | null, knownOnline: boolean): Promise<void> {
    await saving(store.setActive(accountId));
    connectivity.reset(accountId, knownOnline);
  }

  async function tryDemo(): Promise<AccountCheck> {
    const running = await demo.ensure();
    const existing = store.list().find((a) => a.kind === 'demo');
    const instrumentCount = await checkKey(access, existing?.id ?? null, running);
    const checkedAt = now();
    const account =
      existing === undefined
        ? await saving(
            store.add({
              name: DEMO_ACCOUNT_NAME,
              baseUrl: running.baseUrl,
              kind: 'demo',
              createdAt: checkedAt,
              lastCheckedAt: checkedAt,
              missingScopes: [],
            }),
          )
        : ((await saving(
            store.update(existing.id, (a) => ({ ...a, baseUrl: running.baseUrl, lastCheckedAt: checkedAt })),
          )) ?? accounts.require(existing.id));
    await activate(account.id, true);
    await accounts.publish();
    return { account: await accounts.summarize(account), instrumentCount, checkedAt };
  }

  return {
    'accounts.getState': () => accounts.get(),

    'accounts.add': async ({ name, baseUrl, apiKey }) => {
      refuseKeyInName(name, apiKey, 'name');
      // Test before saving anything: a failed add leaves no trace.
      const instrumentCount = await checkKey(access, null, { baseUrl, apiKey });
      const checkedAt = now();
      const account = await saving(
        store.add({
          name,
          baseUrl,
          kind: 'service',
          createdAt: checkedAt,
          lastCheckedAt: checkedAt,
          missingScopes: [],
        }),
      );
      try {
        await vault.set(account.id, apiKey);
      } catch (error) {
        await store.remove(account.id).catch(() => undefined);
        throw new FieldDeskError('keychainUnavailable', 'FieldDesk could not keep the API key. Try again.', {
          cause: error,
        });
      }
      await activate(account.id, true);
      await accounts.publish();
      return { account: await accounts.summarize(account), instrumentCount, checkedAt };
    },

    'accounts.check': async ({ id }) => {
      const account = accounts.require(id);
      const instrumentCount = await checkKey(access, account.id, await access.credentialsFor(account));
      const checkedAt = now();
      const updated = await saving(store.update(id, (a) => ({ ...a, lastCheckedAt: checkedAt })));
      await accounts.publish();
      return {
        account: await accounts.summarize(updated ?? accounts.require(id)),
        instrumentCount,
        checkedAt,
      };
    },

    'accounts.rename': async ({ id, name }) => {
      const account = accounts.require(id);
      // The demo's key is no secret; a service account's is checked when the vault holds it.
      const held = account.kind === 'service' ? await vault.get(id) : null;
      refuseKeyInName(name, held?.key, 'name');
      const updated = await saving(store.update(id, (a) => ({ ...a, name })));
      await accounts.publish();
      return accounts.summarize(updated ?? accounts.require(id));
    },

    'accounts.replaceKey': async ({ id, apiKey }) => {
      const account = accounts.require(id);
      if (account.kind === 'demo')
        throw new FieldDeskError('invalidInput', 'The demo account needs no key.', { field: 'apiKey' });
      refuseKeyInName(account.name, apiKey, 'apiKey');
      // The old key stays until the new one has proven itself.
      const instrumentCount = await checkKey(access, null, { baseUrl: account.baseUrl, apiKey });
      await vault.set(id, apiKey);
      const checkedAt = now();
      // A new key has its own scopes: forget what was learned about the old one.
      const updated = await saving(
        store.update(id, (a) => ({ ...a, lastCheckedAt: checkedAt, missingScopes: [] })),
      );
      if (store.activeId() === id) connectivity.reset(id, true);
      await accounts.publish();
      return {
        account: await accounts.summarize(updated ?? accounts.require(id)),
        instrumentCount,
        checkedAt,
      };
    },

    'accounts.remove': async ({ id }) => {
      const account = accounts.require(id);
      const before = store.list();
      const index = before.findIndex((a) => a.id === id);
      const wasActive = store.activeId() === id;
      if (account.kind === 'service') await vault.delete(id);
      await saving(store.remove(id));
      // The removed account's cached data goes with it (best effort: the account is gone either way).
      deps.forgetCachedData(id);
      if (wasActive) {
        const remaining = before.filter((a) => a.id !== id);
        const next = remaining[index] ?? remaining[index - 1] ?? null;
        await activate(next?.id ?? null, false);
      }
      return accounts.publishAndGet();
    },

    'accounts.activate': async ({ id }) => {
      accounts.require(id);
      if (store.activeId() !== id) await activate(id, false);
      return accounts.publishAndGet();
    },

    'accounts.tryDemo': () => {
      tryingDemo ??= tryDemo().finally(() => {
        tryingDemo = null;
      });
      return tryingDemo;
    },
  };
}
