/**
 * Where stores get the backend: the API is given to the pinia instance once, by whoever builds it
 * (app.ts gives the real `api`; a test gives the fake of test/unit/renderer/fake-api.ts), and each
 * store takes it with `useApi()` in its setup. Effects live in stores: no other module imports the
 * real `api` (eslint.config.mjs and .dependency-cruiser.cjs hold to that).
 *
 *   const pinia = provideApi(createPinia(), api);
 *
 *   export const useThingsStore = defineStore('things', () => {
 *     const api = useApi(); // in the setup, never in an action after an `await`
 *     …
 *   });
 *
 * Not a `pinia.use()` plugin: Pinia runs plugins only once the pinia is installed in an app and
 * only after a setup store's setup has run, too late for the setup to find the API.
 */
import { defineStore, type Pinia } from 'pinia';
import type { FieldDeskApi } from '../../shared/ipc/contract';

/**
 * An empty store that stands for its pinia: a store is found the way every store is (the pinia of
 * the component's app, else the active one) without asking `getActivePinia()`, which complains
 * outside a component in Node (the unit tests).
 */
const usePiniaAnchor = defineStore('fielddesk-api', () => ({}));

const apis = new WeakMap<object, FieldDeskApi>();

export const NO_API_MESSAGE =
  'No FieldDesk API was given to this pinia: build it with provideApi(createPinia(), api) ' +
  '(app.ts does; tests use fakePinia from test/unit/renderer/fake-api.ts) before using a store.';

/**
 * Gives `pinia`'s stores `api` and answers `pinia`, made the active one (as installing it in an app
 * does). Giving another API later reaches only the stores made after.
 */
export function provideApi(pinia: Pinia, api: FieldDeskApi): Pinia {
  apis.set(usePiniaAnchor(pinia), api);
  return pinia;
}

/**
 * The API given to the pinia the calling store belongs to. Call it in a store's setup (Pinia has
 * made that pinia the active one there) and keep the answer for the store's actions.
 */
export function useApi(): FieldDeskApi {
  let anchor: object;
  try {
    anchor = usePiniaAnchor();
  } catch (cause) {
    // No pinia at all (Pinia's own error says so in its words): the same advice.
    throw new Error(NO_API_MESSAGE, { cause });
  }
  const api = apis.get(anchor);
  if (api === undefined) throw new Error(NO_API_MESSAGE);
  return api;
}
