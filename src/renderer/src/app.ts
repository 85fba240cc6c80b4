/** Starts the one renderer app; the Electron and browser entries differ only in the transport. */
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { createAppRouter } from './router';
import './styles/theme.css';

export function startApp(selector = '#app'): void {
  const pinia = createPinia();
  const app = createApp(App);
  app.use(pinia);
  app.use(createAppRouter(pinia));
  app.mount(selector);
}
