// Lint that guards the architecture: what may run in the workflow sandbox, and no floating promises anywhere.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Packages that perform I/O or belong outside the deterministic workflow sandbox. */
export const sideEffectPackages = [
  'simple-git',
  'execa',
  'openai',
  '@anthropic-ai/sdk',
  '@temporalio/client',
  '@temporalio/worker',
  '@temporalio/activity',
  '@temporalio/testing',
  '@temporalio/envconfig',
];

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

const sandboxMessage =
  'is not allowed here: domain/ and workflows/ must stay deterministic. Move the side effect into activities/ and call it as an activity.';

const forbidden = (names) => names.map((name) => ({ name, message: `'${name}' ${sandboxMessage}` }));

/** A layer's import of a layer above it (or beside it, where the table forbids it). */
function above(layer, layers) {
  return {
    group: layers.map((name) => `**/${name}/**`),
    message: `${layer}/ must not import ${layers.map((name) => `${name}/`).join(' or ')}: move what both need into platform/ (or domain/) or next to its user.`,
  };
}

export default tseslint.config(
  { ignores: ['node_modules/**', '.taskloop/**', 'dist/**', 'test/fixtures/**', 'examples/**/repo/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
      sourceType: 'module',
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: forbidden([...nodeBuiltins, ...sideEffectPackages]),
          patterns: [
            {
              group: ['**/activities/**', '**/workers/**', '**/client/**', '**/platform/**'],
              allowTypeImports: true,
              message:
                'workflows/ may import activities/ and platform/ only as types (import type) and never workers/ or client/.',
            },
          ],
        },
      ],
    },
  },
  // The upward arrows: client/ is only the CLI; what workers and the CLI share lives in platform/. Each layer's row of
  // the layer table in docs/architecture.md, as patterns (one rule entry per layer: a later entry would replace it).
  ...[
    {
      files: ['activities/**/*.ts'],
      patterns: [
        above('activities', ['workers', 'client']),
        {
          // Activities signal and query workflows by their messages; anything else of workflows/ only as a type.
          regex: '(^|/)workflows/(?!(.*/)?[a-z-]*messages\\.js$)',
          allowTypeImports: true,
          message:
            'activities/ may import values of workflows/ only from its messages files (signals, queries, ids): import other workflow code as types (import type).',
        },
      ],
    },
    { files: ['workers/**/*.ts'], patterns: [above('workers', ['client'])] },
    { files: ['platform/**/*.ts'], patterns: [above('platform', ['workers', 'client', 'activities'])] },
  ].map(({ files, patterns }) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } })),
  {
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: forbidden([...nodeBuiltins, ...sideEffectPackages]),
          patterns: [
            {
              group: ['**/activities/**', '**/workflows/**', '**/workers/**', '**/client/**', '**/platform/**'],
              message:
                'domain/ is pure logic: it may import other domain/ files and the pure packages zod, yaml, picomatch, @noble/hashes.',
            },
            {
              // Pure, I/O-free libraries only: zod (schemas), yaml (skill front matter), picomatch (path globs), @noble/hashes (SHA-256).
              // Node built-ins are left to the `paths` list above so each import is reported once.
              regex: `^(?!\\.|zod$|yaml$|picomatch$|@noble/hashes/|(?:node:)?(?:${builtinModules.join('|')})$)`,
              message:
                'domain/ is pure logic: it may import other domain/ files and the pure packages zod, yaml, picomatch, @noble/hashes.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'domain/ must not read the process; pass values in.' },
        { name: 'fetch', message: 'domain/ must not do I/O.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'domain/ must not read the clock; pass `now` in.' },
        { object: 'Math', property: 'random', message: 'domain/ must be deterministic; pass randomness in.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'domain/ must not read the clock; pass `now` in.',
        },
      ],
    },
  },
);
