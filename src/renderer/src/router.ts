/**
 * Screens, in hash history (the Electron build loads from a custom scheme without a server). The
 * first screens (welcome, the instrument list) load with the app; the others, and the chart library
 * with them, load when first opened, so the app starts fast.
 */
import { createRouter, createWebHashHistory, type Router } from 'vue-router';
import type { Pinia } from 'pinia';
import FirstRunView from './features/accounts/FirstRunView.vue';
import InstrumentsView from './features/instruments/InstrumentsView.vue';
import { useAccountsStore } from './features/accounts/store';

export function createAppRouter(pinia: Pinia): Router {
  const router = createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', redirect: { name: 'instruments' } },
      { path: '/welcome', name: 'welcome', component: FirstRunView, meta: { title: 'Welcome' } },
      {
        path: '/instruments',
        name: 'instruments',
        component: InstrumentsView,
        meta: { title: 'Instruments' },
      },
      {
        path: '/attention',
        name: 'attention',
        component: () => import('./features/attention/AttentionView.vue'),
        meta: { title: 'Needs attention' },
      },
      {
        path: '/instruments/:serial',
        name: 'instrument',
        component: () => import('./features/instruments/InstrumentDetailView.vue'),
        props: true,
        meta: { title: 'Instrument' },
      },
      {
        path: '/instruments/:serial/live',
        name: 'live',
        component: () => import('./features/live/LiveView.vue'),
        props: true,
        meta: { title: 'Live check' },
      },
      {
        path: '/instruments/:serial/data/:dataset?',
        name: 'data',
        component: () => import('./features/data/DataView.vue'),
        props: true,
        meta: { title: 'Data' },
      },
      {
        path: '/cache',
        name: 'cache',
        component: () => import('./features/cache/CacheView.vue'),
        meta: { title: 'Offline data' },
      },
      {
        path: '/assessment/:siteId?',
        name: 'assessment',
        component: () => import('./features/assessment/AssessmentView.vue'),
        props: true,
        meta: { title: 'Assessment' },
      },
      {
        path: '/visits',
        name: 'visits',
        component: () => import('./features/visits/VisitsView.vue'),
        meta: { title: 'Site visits' },
      },
      {
        path: '/visits/:id',
        name: 'visit',
        component: () => import('./features/visits/VisitView.vue'),
        props: true,
        meta: { title: 'Site visit' },
      },
      {
        path: '/webhooks',
        name: 'webhooks',
        component: () => import('./features/webhooks/WebhooksView.vue'),
        meta: { title: 'Webhooks' },
      },
      {
        path: '/calibrators',
        name: 'calibrators',
        component: () => import('./features/calibrators/CalibratorsView.vue'),
        meta: { title: 'Calibrators' },
      },
      {
        path: '/team',
        name: 'team',
        component: () => import('./features/team/TeamView.vue'),
        meta: { title: 'Team' },
      },
      {
        path: '/accounts',
        name: 'accounts',
        component: () => import('./features/accounts/AccountsView.vue'),
        meta: { title: 'Accounts' },
      },
      {
        path: '/settings',
        name: 'settings',
        component: () => import('./features/settings/SettingsView.vue'),
        meta: { title: 'Settings' },
      },
      { path: '/:unknown(.*)*', redirect: { name: 'instruments' } },
    ],
  });

  let started: Promise<void> | null = null;
  router.beforeEach(async (to) => {
    const accounts = useAccountsStore(pinia);
    started ??= accounts.start();
    await started;
    if (!accounts.loaded) return true; // The shell shows why the backend could not be read.
    if (!accounts.hasAccounts && to.name !== 'welcome') return { name: 'welcome' };
    if (accounts.hasAccounts && to.name === 'welcome') return { name: 'instruments' };
    return true;
  });
  router.afterEach((to) => {
    const title = typeof to.meta.title === 'string' ? to.meta.title : null;
    document.title = title ? `${title} — FieldDesk` : 'FieldDesk';
  });
  return router;
}
