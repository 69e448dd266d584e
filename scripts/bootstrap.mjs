#!/usr/bin/env node
// First-run set-up behind `npm run demo` and `npm test`: installs the npm packages when they are missing or older
// than package-lock.json, checks Python with pytest, git, bubblewrap and slirp4netns, and makes sure the Temporal CLI
// is there. Plain JavaScript with no dependencies, because it runs before anything is installed. With --local-model
// (`npm run setup -- --local-model`) it then installs and caches the local model too (`taskloop model install`).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { aptGet } from './apt-get.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => console.error(`[setup] ${line}`);

function run(command, args, what) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    say(
      `${what} failed (${command} ${args.join(' ')} exited ${result.status ?? result.error?.message}); fix that and run again.`,
    );
    process.exit(1);
  }
}

const flags = process.argv.slice(2);
// `--local-model` installs the default model, `--local-model=NAME` that one (`all`: every bundled model).
const localModelFlag = flags.find((flag) => flag === '--local-model' || flag.startsWith('--local-model='));
const unknown = flags.filter((flag) => flag !== localModelFlag);
if (unknown.length > 0) {
  say(
    `unknown flag ${unknown[0]}: the only flag is --local-model[=NAME] (also build and cache the local model; NAME as taskloop model install --model takes)`,
  );
  process.exit(2);
}

const [major] = process.versions.node.split('.').map(Number);
if (major < 20) {
  say(`Node.js ${process.versions.node} is too old: taskloop needs Node.js 20 or newer.`);
  process.exit(1);
}

const lock = path.join(root, 'package-lock.json');
const installed = path.join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  say('installing npm packages (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund'], 'npm ci');
}

const python = process.env.TASKLOOP_PYTHON ?? 'python3';
const hasPytest = spawnSync(python, ['-c', 'import pytest'], { stdio: 'ignore' });
if (hasPytest.error) {
  say(`${python} was not found: install Python 3 (e.g. apt-get install python3) or set TASKLOOP_PYTHON.`);
  process.exit(1);
}
if (hasPytest.status !== 0) {
  say(`pytest is missing; installing it with ${python} -m pip install pytest`);
  run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', 'pytest'], 'installing pytest');
}

try {
  execFileSync('git', ['--version'], { stdio: 'ignore' });
} catch {
  say('git was not found: install git (e.g. apt-get install git).');
  process.exit(1);
}

// Test runs go through bubblewrap unless TASKLOOP_SANDBOX=none, and environment set-up reaches the package index
// through slirp4netns (a network of its own, never the host's); install them where we can, else say how.
const commandWorks = (program, args) => spawnSync(program, args, { stdio: 'ignore' }).status === 0;
const sandboxPackages = [
  ['bubblewrap', 'bwrap', 'the test sandbox'],
  ['slirp4netns', 'slirp4netns', 'environment set-up’s network'],
].filter(([, program]) => !commandWorks(program, ['--version']));
if (process.env.TASKLOOP_SANDBOX !== 'none' && sandboxPackages.length > 0) {
  const names = sandboxPackages.map(([name]) => name);
  const isDebian = existsSync('/etc/debian_version');
  if (isDebian && process.getuid?.() === 0) {
    say(
      `${names.join(' and ')} not found; installing with apt-get (${sandboxPackages.map(([, , why]) => why).join(', ')})`,
    );
    for (const [args, what] of [
      [['update', '-qq'], 'apt-get update'],
      [['install', '-y', '-qq', ...names], `installing ${names.join(' ')}`],
    ]) {
      const result = aptGet(args, { say });
      if (result.status === 0) continue;
      say(
        result.holder
          ? `${what} failed: another apt still holds ${result.holder.lock}${result.holder.pid ? ` (pid ${result.holder.pid})` : ''} after 5 minutes; let it finish (or stop it) and run again.`
          : `${what} failed (apt-get ${args.join(' ')} exited ${result.status}); fix that and run again.`,
      );
      process.exit(1);
    }
  } else {
    say(
      `${names.join(' and ')} not found: test runs are sandboxed with bubblewrap, and environment set-up gets its network ` +
        `through slirp4netns. Install ${names.join(' ')} (Debian/Ubuntu: sudo apt-get install ${names.join(' ')}; ` +
        `Fedora: sudo dnf install ${names.join(' ')}; Arch: sudo pacman -S ${names.join(' ')}), or opt out explicitly ` +
        'with TASKLOOP_SANDBOX=none.',
    );
    process.exit(1);
  }
}

run(
  process.execPath,
  [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(root, 'scripts', 'install-temporal.ts')],
  'finding or installing the Temporal CLI and test server',
);

// The CLI runs compiled JavaScript from dist/ (fast start); rebuild it whenever the sources changed.
run(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale'], 'building dist/ (npm run build)');

if (localModelFlag) {
  const name = localModelFlag.slice('--local-model='.length);
  const modelArgs = name === '' ? [] : ['--model', name];
  run(
    process.execPath,
    [path.join(root, 'bin', 'taskloop.js'), 'model', 'install', ...modelArgs],
    'installing the local model',
  );
}
