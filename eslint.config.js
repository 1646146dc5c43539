import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './tsconfig.client.json'],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Layering: common knows nothing of the sides, the client never imports server code.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'The client must not import server code.' },
            // The zod schemas stay on the server: the client takes values from src/common/api.
            { group: ['**/common/contract/**'], allowTypeImports: true, message: 'Import types only from the zod contract; values come from src/common/api.' },
          ],
        },
      ],
    },
  },
  {
    // Layers of the client: common → lib and components → features → app. A feature never imports
    // another feature; what two features need moves down to lib or components.
    files: ['src/client/**/*.{ts,tsx}', 'src/common/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      'boundaries/elements': [
        { type: 'common', pattern: 'src/common' },
        { type: 'lib', pattern: 'src/client/lib' },
        { type: 'components', pattern: 'src/client/components' },
        { type: 'test-support', pattern: 'src/client/test' },
        { type: 'feature', pattern: 'src/client/features/*', capture: ['feature'] },
        { type: 'app', pattern: 'src/client/app' },
        // Last, so it holds only what no folder above took: main.tsx.
        { type: 'entry', pattern: 'src/client' },
      ],
      'boundaries/files': [{ category: 'test', pattern: '**/*.test.{ts,tsx}' }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: { element: { type: 'common' } }, allow: { to: { element: { type: 'common' } } } },
            {
              from: { element: { types: { anyOf: ['lib', 'components'] } } },
              allow: { to: { element: { types: { anyOf: ['common', 'lib', 'components'] } } } },
            },
            { from: { element: { type: 'feature' } }, allow: { to: { element: { types: { anyOf: ['common', 'lib', 'components'] } } } } },
            { from: { element: { type: 'feature' } }, allow: { to: { element: { type: 'feature', captured: { feature: '{{ from.element.captured.feature }}' } } } } },
            { from: { file: { categories: 'test' } }, allow: { to: { element: { type: 'test-support' } } } },
            { from: { element: { types: { anyOf: ['app', 'entry', 'test-support'] } } }, allow: { to: { element: { types: { anyOf: ['common', 'lib', 'components', 'feature', 'app', 'test-support'] } } } } },
          ],
        },
      ],
    },
  },
  {
    files: ['src/common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**', '**/client/**'], message: 'src/common is imported by both sides and imports neither.' }] }],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/client/**'], message: 'The server must not import client code.' }] }],
      // config.ts is the only reader of the environment.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/server/config.ts.' }],
    },
  },
  {
    files: ['src/server/config.ts', 'src/server/main.ts', 'src/server/admin-cli.ts', 'src/server/seed/demo.ts', 'src/server/db/migrate-cli.ts', 'src/server/**/*.test.ts', 'src/server/test/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
