// ESLint for correctness, not style (layout is Prettier's: `npm run format`).
// The recommended rules of ESLint and typescript-eslint that the codebase
// keeps; a rule is off or narrowed here only with the reason beside it.
// Layer order is dependency-cruiser's (.dependency-cruiser.cjs), unused
// exports and files knip's (knip.json); `npm run lint` runs all three.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'docs-site/**', 'node_modules/**', '.tmp/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      // `_`-prefixed names and rest siblings are how the code drops a field
      // from an object (`const { secret: _s, ...rest } = x`) on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // The language forbids U+0000 and other controls in places, so the
      // code matches control characters in regular expressions deliberately.
      'no-control-regex': 'off',
      // The builder's type-level code needs `any` to erase a generic
      // (`Filter<any, any>` accepts every filter; `unknown` breaks variance)
      // and `{}` as the identity of an intersection of mapped types.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
    },
  },
  {
    files: ['**/*.cjs', 'editors/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['docs/playground/**/*.js', 'docs/playground/**/*.mjs', 'bench/editors.bench.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Type tests declare values only to read their types and write
    // expressions only for the compiler to check.
    files: ['test/types/**'],
    rules: { '@typescript-eslint/no-unused-vars': 'off', '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
