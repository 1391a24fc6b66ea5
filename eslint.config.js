// @ts-check
import js from '@eslint/js';
import path from 'node:path';
import tseslint from 'typescript-eslint';

/**
 * The arrows of the layout (README, "Layout"), for every import at any folder depth: a relative
 * import is resolved against its file and refused when it lands in a folder the file's part may
 * not use; a package is refused by name. Static, re-export and dynamic imports alike.
 */
const BOUNDARIES = [
  {
    from: 'src/core',
    forbid: ['src/api', 'src/cli', 'src/client', 'src/formats', 'src/migrate', 'src/platform'],
  },
  {
    from: 'src/api',
    forbid: ['src/core', 'src/cli', 'src/client', 'src/formats', 'src/migrate', 'src/platform'],
  },
  { from: 'src/client', forbid: ['src/cli', 'src/formats', 'src/migrate', 'src/platform'] },
  // A format reads and writes files: it knows the wire contract's types, never a platform.
  { from: 'src/formats', forbid: ['src/cli', 'src/client', 'src/migrate', 'src/platform'] },
  { from: 'src/migrate', forbid: ['src/cli', 'src/platform'] },
  { from: 'src/platform', forbid: ['src/cli', 'src/client', 'src/formats', 'src/migrate'] },
  {
    from: 'src/platform/domain',
    forbid: ['src/platform/engine', 'src/platform/http', 'src/platform/store'],
    packages: ['better-sqlite3', 'fastify', 'undici', 'node:fs', 'node:http'],
  },
  { from: 'src/platform/store', forbid: ['src/platform/engine', 'src/platform/http'] },
  { from: 'src/platform/engine', forbid: ['src/platform/http'] },
  { from: 'src/core', packages: ['node:fs', 'node:http'] },
  { from: 'src/api', packages: ['node:fs', 'node:http'] },
];

const within = (file, folder) => file === folder || file.startsWith(`${folder}/`);

/** @type {import('eslint').Rule.RuleModule} */
const boundaries = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    const rules = BOUNDARIES.filter((rule) => within(file, rule.from));
    if (rules.length === 0) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const specifier = source.value;
      const target = specifier.startsWith('.')
        ? path
            .relative(context.cwd, path.resolve(path.dirname(context.filename), specifier))
            .split(path.sep)
            .join('/')
        : undefined;
      for (const rule of rules) {
        const folder = target && (rule.forbid ?? []).find((f) => within(target, f));
        const pkg = (rule.packages ?? []).find(
          (p) => specifier === p || specifier.startsWith(`${p}/`),
        );
        if (folder || pkg) {
          context.report({
            node: source,
            message: `${rule.from} may not import ${folder ?? pkg} ("${specifier}")`,
          });
          return;
        }
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tmp/**'] },
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
    // The command's shim is CommonJS, as the bundle's chunks it loads are (esbuild.config.mjs).
    files: ['bin/**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Only the CLI's top-level may end the process; everything else throws.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/main.ts'],
    rules: { 'no-restricted-properties': ['error', { object: 'process', property: 'exit' }] },
  },
  {
    // A command reaches the world through its CommandContext (io, clock, output), so that tests
    // can give it another.
    files: ['src/cli/commands/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit' },
        ...['env', 'stdout', 'stderr', 'stdin', 'argv'].map((property) => ({
          object: 'process',
          property,
          message: 'use the CommandContext (ctx.io, ctx.output)',
        })),
        { object: 'Date', property: 'now', message: 'use ctx.clock' },
      ],
    },
  },
  {
    // Money only through src/core/money.ts: integer cents, parsed and formatted there.
    files: ['src/**/*.ts'],
    ignores: ['src/core/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['*', '/'].flatMap((operator) =>
          ['right', 'left'].map((side) => ({
            selector: `BinaryExpression[operator='${operator}'][${side}.value=100]`,
            message: `money goes through src/core/money.ts (amountToCents, centsToAmount), not ${operator} 100`,
          })),
        ),
        {
          selector:
            "CallExpression[callee.property.name='reduce'] BinaryExpression[operator='+'] MemberExpression[property.name=/^(amount|debitAmount|creditAmount|debit|credit|balance|total)$/]",
          message: 'a float sum of amounts: add cents with addCents (src/core/money.ts)',
        },
      ],
    },
  },
  {
    // The store and the engine are asynchronous: a promise left unawaited is a write that may
    // land after its transaction, or an error no one sees.
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // The arrows point one way (BOUNDARIES above).
    files: ['src/**/*.ts'],
    plugins: { books: { rules: { boundaries } } },
    rules: { 'books/boundaries': 'error' },
  },
  {
    files: ['test/**/*.ts', 'bin/**/*.js'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
