// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    // Only the CLI's top-level may end the process; everything else throws.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/main.ts'],
    rules: { 'no-restricted-properties': ['error', { object: 'process', property: 'exit' }] },
  },
  {
    // The arrows point one way: the pure layers import nothing of ours above them.
    files: ['src/core/**/*.ts', 'src/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '../cli/*',
            '../client/*',
            '../migrate/*',
            '../platform/*',
            'node:fs',
            'node:http',
          ],
        },
      ],
    },
  },
  {
    files: ['src/platform/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['../store/*', '../http/*', 'better-sqlite3', 'fastify', 'node:fs', 'undici'] },
      ],
    },
  },
  {
    files: ['src/client/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../cli/*', '../platform/*'] }] },
  },
  {
    files: ['test/**/*.ts', 'bin/**/*.js'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
