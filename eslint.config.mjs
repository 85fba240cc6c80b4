// @ts-check
import pluginVue from 'eslint-plugin-vue';
import { withVueTs, vueTsConfigs } from '@vue/eslint-config-typescript';
import prettierConfig from 'eslint-config-prettier';

const NODE_BUILTINS = [
  'node:*',
  'fs',
  'path',
  'os',
  'child_process',
  'http',
  'https',
  'net',
  'crypto',
  'url',
  'stream',
];

/** Layer rules: where code may run decides what it may import (see ARCHITECTURE.md). */
const BACKEND_PATTERNS = [
  {
    group: ['electron', '**/renderer/**', '**/preload/**', '**/harness/**'],
    message: 'The backend is plain Node: inject Electron pieces from src/main instead.',
  },
  {
    group: ['**/simulator/**'],
    message:
      'The backend never imports the demo service: the Electron entry and the harness inject how "Try the demo" starts it.',
  },
  {
    group: ['**/handlers'],
    message:
      "Only the composition root (backend.ts and its backend-*.ts parts) merges the domains' handlers; share a service instead.",
  },
];

const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default withVueTs(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  pluginVue.configs['flat/recommended'],
  vueTsConfigs.recommended,
  prettierConfig,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'vue/multi-word-component-names': 'off',
      // One way to write dates and times (ui/time.ts, ui/DateTimeField): never the browser's locale.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/][arguments.length=0]',
          message:
            "Name the locale ('en-GB') or format with ui/time.ts: the browser's default locale writes 11/28/2026, 06:38 PM.",
        },
        {
          selector: 'CallExpression[callee.property.name=/^toLocale(Date|Time)String$/]',
          message: 'Format dates and times with ui/time.ts (2026-11-28 18:38), never the locale.',
        },
      ],
      'vue/no-restricted-static-attribute': [
        'error',
        ...['date', 'datetime-local', 'time', 'month', 'week'].map((value) => ({
          key: 'type',
          value,
          message: "The browser's date field follows its locale (11/28/2026): use ui/DateTimeField.",
        })),
      ],
    },
  },
  {
    files: ['src/renderer/**'],
    rules: restrict(
      ['**/main/**', '**/simulator/**', '**/preload/**', 'electron', 'keytar', ...NODE_BUILTINS],
      'The renderer is sandboxed: it talks to the backend only through window.fielddesk.',
    ),
  },
  {
    // A rule of its own name (typescript-eslint's), so it adds to the sandbox's rather than replacing it.
    files: ['src/renderer/**'],
    ignores: ['src/renderer/src/app.ts', 'src/renderer/src/api-injection.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\.?/)+api(\\.ts)?$',
              importNames: ['api'],
              allowTypeImports: true,
              message:
                'Effects live in stores: a store takes the API with useApi() in its setup (api-injection.ts), so tests give it a fake; only app.ts hands out the real one.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**'],
    rules: restrict(
      [
        '**/main/**',
        '**/renderer/**',
        '**/simulator/**',
        '**/preload/**',
        'electron',
        'keytar',
        ...NODE_BUILTINS,
      ],
      'src/shared runs everywhere: no Node, DOM, Electron or layer imports.',
    ),
  },
  {
    files: ['src/main/backend/**'],
    ignores: ['src/main/backend/core/**', 'src/main/backend/backend.ts', 'src/main/backend/backend-*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: BACKEND_PATTERNS }] },
  },
  {
    files: ['src/main/backend/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...BACKEND_PATTERNS,
            {
              group: [
                ...['accounts', 'actions', 'cache', 'connectivity', 'data', 'history'].map(
                  (d) => `../${d}/**`,
                ),
                ...['instruments', 'operations', 'service', 'settings', 'sync'].map((d) => `../${d}/**`),
                '../backend',
              ],
              message:
                'core/ is the bottom layer of the backend: the domains use it, never the other way round.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/backend/backend.ts', 'src/main/backend/backend-*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: BACKEND_PATTERNS.slice(0, 2) }] },
  },
  {
    files: ['src/simulator/**'],
    rules: restrict(
      ['**/main/**', '**/renderer/**', '**/preload/**', '**/harness/**', 'electron', 'keytar'],
      'The demo service imports only src/shared, so it and the client are tested against each other.',
    ),
  },
  {
    files: ['src/preload/**'],
    rules: restrict(
      ['**/main/**', '**/renderer/**', '**/simulator/**', 'zod', ...NODE_BUILTINS],
      'The sandboxed preload exposes named methods built from src/shared/ipc/channels only.',
    ),
  },
);
