// ESLint: type-aware rules for the TypeScript sources (typescript-eslint's project service reads
// tsconfig.node.json, which covers src, sdk, builtins, wasm, test and bench). Formatting is
// Prettier's job (npm run format), so no stylistic rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_GLOBALS = ['process', 'Buffer', 'require', '__dirname', '__filename'].map((name) => ({
  name,
  message: 'Node globals belong to the Node edge (src/node/); inject the capability instead.',
}));

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'web/dist/**',
      'node_modules/**',
      'test-results/**',
      '**/testdata/**',
      'test/e2e/cases/**',
      'test/builtins/**/fns/**',
      '**/*.mjs',
      '**/*.cjs',
      '**/*.js',
      'web/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: './tsconfig.node.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      // Plain-object interfaces (runtimes, route tables, fs adapters) hand out their methods on purpose.
      '@typescript-eslint/unbound-method': 'off',
      // The Starlark evaluator and the Go js/wasm glue throw sentinel values for control flow by design.
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/no-this-alias': 'off',
      // Flags an initialiser that a later branch overwrites; the initialisers here document the default.
      'no-useless-assignment': 'off',
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Async implementations of Promise-returning interfaces (runtimes, fs adapters) need no await.
      '@typescript-eslint/require-await': 'off',
      // The YAML, JSON and Starlark layers test for control characters on purpose.
      'no-control-regex': 'off',
      // `String(v)` of parsed, untyped data (YAML scalars, JSON values) is the intended conversion.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // Tests poke at parsed JSON and YAML data; `any` there is the data's honest type.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The browser-safe core: no Node built-ins, no Node globals.
    files: ['src/**/*.ts', 'sdk/**/*.ts', 'builtins/**/*.ts', 'wasm/**/*.ts'],
    ignores: ['src/node/**', 'wasm/node/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*'], message: 'Only src/node/ may import Node built-ins.' }] },
      ],
      'no-restricted-globals': ['error', ...NODE_GLOBALS],
    },
  },
);
