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
    rules: restrict(
      ['electron', '**/renderer/**', '**/preload/**', '**/harness/**'],
      'The backend is plain Node: inject Electron pieces from src/main instead.',
    ),
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
