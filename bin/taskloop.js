#!/usr/bin/env node
// The `taskloop` command: runs the compiled CLI in dist/ (built by `npm run build`, which setup and `npm test`
// run). When dist/ is missing or older than the sources, it runs them through tsx instead and says so once.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './code-cache.js';
import { distIsCurrent } from './dist-state.js';

// A non-empty NO_COLOR wins over FORCE_COLOR in taskloop (client/output/style.ts); with both set, Node would print
// its own warning that it ignores NO_COLOR on every command. Dropped here, before anything asks about colours.
if ((process.env.NO_COLOR ?? '') !== '' && process.env.FORCE_COLOR !== undefined) delete process.env.FORCE_COLOR;

const root = fileURLToPath(new URL('..', import.meta.url));
const compiled = fileURLToPath(new URL('../dist/cli/cli.cjs', import.meta.url));

if (existsSync(compiled) && distIsCurrent(root)) {
  const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
  if (command === undefined || (command === 'help' && process.argv.length === 3)) {
    // The overview loads no command: the compiled modules of dist/client are smaller to load than the bundle.
    await import(new URL('../dist/client/cli.js', import.meta.url).href);
  } else {
    runWithCodeCache(compiled, /^[a-z]+$/.test(command) ? command : 'other');
  }
} else {
  process.stderr.write(
    'taskloop: dist/ is missing or older than the sources; running them through tsx (slower start). Run `npm run build` to fix.\n',
  );
  const { register } = await import('tsx/esm/api');
  register();
  await import('../client/cli.ts');
}
