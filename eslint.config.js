import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const host = 'packages/server/src'

export default tseslint.config(
  { ignores: ['**/dist/**', 'packages/server/generated/**', '**/node_modules/**', 'bench/results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Type-aware rules on the TypeScript sources: "never an unhandled rejection" is a
    // promise we make, so a floating or misused promise is a lint error, not a review note.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // The architecture, kept by the linter: no import cycles, and the server's layers
    // import one way only — protocol/ (both protocols' Open Inference Protocol code)
    // from neither binding, grpc/ and http/ never from each other, server/ (which
    // composes both) from none of them.
    files: ['packages/*/src/**/*.ts', 'bench/src/**/*.ts', 'tools/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript sources are parsed to follow their imports (`./x.js` is `./x.ts`).
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: `${host}/grpc`,
              from: [`${host}/http`, `${host}/server`],
              message: 'gRPC imports nothing from HTTP: code both protocols need belongs in src/protocol.',
            },
            {
              target: `${host}/http`,
              from: [`${host}/grpc`, `${host}/server`],
              message: 'HTTP imports nothing from gRPC: code both protocols need belongs in src/protocol.',
            },
            {
              target: `${host}/protocol`,
              from: [`${host}/http`, `${host}/grpc`, `${host}/server`],
              message: 'src/protocol is what both bindings share: it imports neither.',
            },
          ],
        },
      ],
    },
  },
)
