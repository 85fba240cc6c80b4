/** Starts the one renderer app; the Electron and browser entries differ only in the transport. */
import { createApp } from 'vue';
import { createPinia } from 'pinia';
// Tokens, then the base every screen uses, then (through App) each component's scoped styles.
import './styles/tokens.css';
import './styles/base.css';
import './styles/controls.css';
import App from './App.vue';
import { api } from './api';
import { provideApi } from './api-injection';
import { installErrorReporting } from './error-reporting';
import { createAppRouter } from './router';

export function startApp(selector = '#app'): void {
  // The one place the real API is handed out: stores take it from their pinia (api-injection.ts).
  const pinia = provideApi(createPinia(), api);
  const app = createApp(App);
  const router = createAppRouter(pinia);
  installErrorReporting(app, {
    report: (error) => api.app.reportError(error),
    where: () => router.currentRoute.value.fullPath,
  });
  app.use(pinia);
  app.use(router);
  app.mount(selector);
}
