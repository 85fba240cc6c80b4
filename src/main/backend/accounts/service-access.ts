/**
 * How every domain reaches the service for an account: the address and key (the demo's own for
 * the demo account), a client whose every answer feeds connectivity and the scopes learned about
 * the key, and the data client the cache and site sync read through.
 */
import { FieldDeskError } from '../../../shared/errors';
import type { ConnectivityService } from '../connectivity/connectivity';
import type { SecretRegistry } from '../core/secrets';
import {
  createServiceClient,
  type ServiceClient,
  type ServiceClientOptions,
  type ServiceExchange,
} from '../service/client';
import { createDataClient } from '../service/data-client';
import type { DataSource } from '../service/data-source';
import type { StoredAccount } from './account-store';
import type { AccountState } from './account-state';
import type { DemoRunner } from './demo';
import { learnScopes } from './scope-learning';
import type { KeyVault } from './vault';

export interface Credentials {
  baseUrl: string;
  apiKey: string;
}

export interface ServiceAccessOptions {
  accounts: AccountState;
  vault: KeyVault;
  demo: DemoRunner;
  connectivity: ConnectivityService;
  fetch?: typeof fetch;
  /** Tests shorten time limits, retries and answer limits. */
  clientOptions?: Partial<Pick<ServiceClientOptions, 'timeoutMs' | 'retry' | 'answerLimits'>>;
  /** Makes the data client of an account (default `createDataClient`); tests inject fakes. */
  createDataSource?: (options: ServiceClientOptions) => DataSource;
  /** Learns every key a client is made with, so events, the log and diagnostics never show it. */
  secrets?: SecretRegistry;
}

export interface ServiceAccess {
  /** The address and key to use for an account; starts the demo service for the demo account. */
  credentialsFor(account: StoredAccount): Promise<Credentials>;
  /**
   * Runs service calls for an account (or for a key not yet saved when `accountId` is null),
   * feeding connectivity as answers arrive and scope learning once the work is done.
   */
  withClient<T>(
    accountId: string | null,
    credentials: Credentials,
    work: (client: ServiceClient) => Promise<T>,
  ): Promise<T>;
  /** `withClient` for a saved account. */
  withAccount<T>(account: StoredAccount, work: (client: ServiceClient) => Promise<T>): Promise<T>;
  /** A client for long-running work (a watched action): answers feed connectivity and scopes as they come. */
  watchingClient(account: StoredAccount): Promise<ServiceClient>;
  /** The data client of an account, watching like `watchingClient`. */
  dataSourceFor(account: StoredAccount): Promise<DataSource>;
  /**
   * How to make requests for an account outside the clients (a streaming audio download): its
   * address, key, fetch, time limit and retries, and the report that feeds connectivity and scopes.
   */
  serviceOptionsFor(account: StoredAccount): Promise<ServiceClientOptions>;
  /** One light request without retries, to notice the service's return while offline. */
  probe(accountId: string): Promise<void>;
  /**
   * Makes a key known to the redaction of events, the log and the diagnostics before any client is
   * made with it (a request refused for it is logged with its argument).
   */
  rememberKey(apiKey: string): void;
}

export function createServiceAccess(options: ServiceAccessOptions): ServiceAccess {
  const { accounts, vault, demo, connectivity } = options;
  const store = accounts.store;

  async function credentialsFor(account: StoredAccount): Promise<Credentials> {
    if (account.kind === 'demo') {
      const running = await demo.ensure();
      if (account.baseUrl !== running.baseUrl) {
        // The demo listens on a new port each run.
        await accounts.saving(store.update(account.id, (a) => ({ ...a, baseUrl: running.baseUrl })));
      }
      return { baseUrl: running.baseUrl, apiKey: running.apiKey };
    }
    const held = await vault.get(account.id);
    if (held !== null) return { baseUrl: account.baseUrl, apiKey: held.key };
    if (vault.status().storage === 'memory') {
      throw new FieldDeskError(
        'keychainUnavailable',
        `The API key of “${account.name}” is not available because the system keychain cannot be used. ` +
          'Enter the key again to use this account until FieldDesk closes.',
      );
    }
    throw new FieldDeskError(
      'unauthorized',
      `FieldDesk has no API key stored for “${account.name}”. Enter the key again to use this account.`,
      { retryable: false },
    );
  }

  function clientOptions(
    credentials: Credentials,
    onExchange: (exchange: ServiceExchange) => void,
  ): ServiceClientOptions {
    options.secrets?.add(credentials.apiKey, 'API key');
    return {
      ...options.clientOptions,
      ...credentials,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      onExchange,
    };
  }

  async function applyScopeLearning(accountId: string, exchanges: readonly ServiceExchange[]): Promise<void> {
    const account = store.get(accountId);
    if (account === undefined || exchanges.length === 0) return;
    const learned = learnScopes(account.missingScopes, exchanges);
    if (learned === null) return;
    await store.update(accountId, (a) => ({ ...a, missingScopes: learned }));
    await accounts.publish();
  }

  async function withClient<T>(
    accountId: string | null,
    credentials: Credentials,
    work: (client: ServiceClient) => Promise<T>,
  ): Promise<T> {
    const exchanges: ServiceExchange[] = [];
    const client = createServiceClient(
      clientOptions(credentials, (exchange) => {
        exchanges.push(exchange);
        if (accountId !== null) connectivity.note(accountId, exchange.error);
      }),
    );
    try {
      return await work(client);
    } finally {
      // Learned scopes are a hint: failing to save them must not hide the real outcome.
      if (accountId !== null) await applyScopeLearning(accountId, exchanges).catch(() => undefined);
    }
  }

  async function watchingOptions(account: StoredAccount): Promise<ServiceClientOptions> {
    return clientOptions(await credentialsFor(account), (exchange) => {
      connectivity.note(account.id, exchange.error);
      void applyScopeLearning(account.id, [exchange]).catch(() => undefined);
    });
  }

  return {
    credentialsFor,
    withClient,
    withAccount: async (account, work) => withClient(account.id, await credentialsFor(account), work),
    watchingClient: async (account) => createServiceClient(await watchingOptions(account)),
    async dataSourceFor(account) {
      const make = options.createDataSource ?? createDataClient;
      return make(await watchingOptions(account));
    },
    serviceOptionsFor: watchingOptions,
    rememberKey: (apiKey) => options.secrets?.add(apiKey, 'API key'),
    async probe(accountId) {
      const account = store.get(accountId);
      if (account === undefined) return;
      const client = createServiceClient({
        ...clientOptions(await credentialsFor(account), (exchange) =>
          connectivity.note(account.id, exchange.error),
        ),
        retry: { ...options.clientOptions?.retry, limit: 0 },
      });
      await client.listInstruments();
    },
  };
}
