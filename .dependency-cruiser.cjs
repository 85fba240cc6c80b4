/**
 * Layers by where code may run (see docs/architecture.md), checked over the whole import graph by
 * `npm run lint`. ESLint's import rules see one file at a time; these see cycles and every path.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const BACKEND_DOMAIN = '^src/main/backend/(?!core/)[^/]+/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment:
        'A cycle of imports that run means neither module can be loaded, tested or understood without the other (and one of them sees the other half-initialised): move what both need below them. Type-only imports are erased at build time and may point both ways.',
      from: { path: '^src/' },
      to: {
        circular: true,
        dependencyTypesNot: ['type-only'],
        viaOnly: { dependencyTypesNot: ['type-only'] },
      },
    },
    {
      name: 'core-below-domains',
      severity: 'error',
      comment: 'backend/core is the bottom layer: the domains use it, never the other way round.',
      from: { path: '^src/main/backend/core/' },
      to: { path: [BACKEND_DOMAIN, '^src/main/backend/[^/]+\\.ts$'] },
    },
    {
      name: 'domain-not-composition-root',
      severity: 'error',
      comment: 'Only the composition root builds the backend; a domain gets what it needs injected.',
      from: { path: BACKEND_DOMAIN },
      to: { path: '^src/main/backend/(backend|index)\\.ts$' },
    },
    {
      name: 'backend-plain-node',
      severity: 'error',
      comment: 'The backend is plain Node: Electron pieces and the demo service are injected by the shells.',
      from: { path: '^src/main/backend/' },
      to: { path: ['^src/(renderer|preload|harness|simulator)/', '^node_modules/electron/'] },
    },
    {
      name: 'renderer-sandboxed',
      severity: 'error',
      comment: 'The renderer is sandboxed: it talks to the backend only through window.fielddesk.',
      from: { path: '^src/renderer/' },
      to: { path: ['^src/(main|preload|harness|simulator)/', '^node_modules/(electron|keytar)/'] },
    },
    {
      name: 'renderer-no-node',
      severity: 'error',
      comment: 'The renderer runs in a sandboxed browser page: no Node built-ins.',
      from: { path: '^src/renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'components-through-stores',
      severity: 'error',
      comment:
        'A component shows a store’s state and calls its actions; effects (the API, and useApi()) live in stores, so tests inject a fake API.',
      from: { path: '^src/renderer/.*\\.vue$' },
      to: { path: '^src/renderer/src/api(-injection)?\\.ts$' },
    },
    {
      name: 'api-from-composition-only',
      severity: 'error',
      comment:
        'Only app.ts hands the real API to the pinia; stores take it with useApi() (api-injection.ts), so tests pass a fake instead of replacing a module. Types may be imported anywhere.',
      from: { path: '^src/renderer/', pathNot: '^src/renderer/src/app\\.ts$' },
      to: { path: '^src/renderer/src/api\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-runs-everywhere',
      severity: 'error',
      comment:
        'src/shared runs in Node, the browser and the demo service: no layer, Node or Electron imports.',
      from: { path: '^src/shared/' },
      to: { path: ['^src/(main|renderer|preload|harness|simulator)/', '^node_modules/(electron|keytar)/'] },
    },
    {
      name: 'shared-no-node',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'simulator-only-shared',
      severity: 'error',
      comment:
        'The demo service imports only src/shared, so it and the client are tested against each other.',
      from: { path: '^src/simulator/' },
      to: { path: '^src/(main|renderer|preload|harness)/' },
    },
    {
      name: 'preload-minimal',
      severity: 'error',
      comment: 'The sandboxed preload exposes named methods built from src/shared/ipc/channels only.',
      from: { path: '^src/preload/' },
      to: { path: ['^src/(main|renderer|simulator|harness)/', '^node_modules/zod/'] },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.vue', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
  },
};
