#!/usr/bin/env node
// The static checks of `npm test` (ESLint, Prettier, tsc) side by side: each is one process that mostly waits on
// its own CPU, so on 2 cores the three end in about the time of the longest instead of the sum. Each check's output
// is printed whole when it ends (never interleaved); the exit code is 1 when any failed, naming which.
import { spawn } from 'node:child_process';

const checks = [
  { name: 'lint', argv: ['eslint', '.'] },
  { name: 'format:check', argv: ['prettier', '--check', '.'] },
  { name: 'typecheck', argv: ['tsc', '--noEmit', '-p', '.'] },
];

function run({ name, argv }) {
  const started = Date.now();
  return new Promise((resolve) => {
    // npx finds the local binaries (node_modules/.bin) as `npm run` would.
    const child = spawn('npx', ['--no-install', ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: `${output}${error.message}\n`, started }));
    child.on('close', (code) => resolve({ name, code: code ?? 1, output, started }));
  }).then((result) => {
    const seconds = ((Date.now() - result.started) / 1000).toFixed(1);
    process.stdout.write(`\n> ${name}: ${argv.join(' ')} (${result.code === 0 ? 'ok' : 'FAILED'}, ${seconds} s)\n`);
    process.stdout.write(result.output);
    return result;
  });
}

const results = await Promise.all(checks.map(run));
const failed = results.filter((result) => result.code !== 0).map((result) => result.name);
if (failed.length > 0) {
  console.error(`\nchecks failed: ${failed.join(', ')} (run \`npm run ${failed[0]}\` alone to see it again)`);
  process.exit(1);
}
