// @ts-check
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // generated/ is owned by the generator (its --check covers it); cases and fixtures are test inputs.
    ignores: ['generated/', 'node_modules/', 'test/generator/cases/', 'test/fixtures/', '.data/'],
  },
  eslint.configs.recommended,
  // Type-aware rules (floating promises, misused promises, unsafe any) are the ones that catch real
  // bugs; the whole repository lints in well under a minute with them.
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // == null is the idiom for "null or undefined"; every other comparison is strict.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A leading underscore marks a parameter or binding that is unused on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // A promise returned without await inside try escapes its catch and finally.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // '${x}' in a plain string is almost always a template literal that lost its backquotes.
      'no-template-curly-in-string': 'error',
      'no-self-compare': 'error',
      'no-unreachable-loop': 'error',
      'array-callback-return': 'error',
      // A switch over a union must name every member (or have a default) when the union grows.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-deprecated': 'error',
      // An async function without await is how a stub or adapter implements a promise-returning
      // interface, and `async` turns a synchronous throw into a rejection: both are wanted here.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read HTTP response bodies as `any` on purpose (helpers' `body: any`, expect.any()):
    // asserting their exact shape is the test, so typing every access would add nothing.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The few plain JS files (this config, bin/cadence.js) are outside tsconfig.json: no type information.
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
