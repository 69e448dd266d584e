#!/usr/bin/env node
// Builds dist/ so the bin runs JavaScript and starts fast:
// 1. esbuild compiles each source file to dist/ (the worker runs these: it bundles dist/workflows from them);
// 2. esbuild bundles the CLI into one CommonJS script, dist/cli/cli.cjs, which the bin runs with a V8 code cache
//    (bin/code-cache.js), so a command neither resolves hundreds of modules nor compiles the SDK at each start (the
//    worker stays outside the bundle: it needs its own files and native SDK). The bundle has no indentation: it is
//    read at every start;
// 3. the workflows bundled once (dist/workflows/bundle.js), so a `taskloop worker` started from dist/ does not run
//    webpack over them at every start (about 2 s and 3 s of CPU here; workers/create-workers.ts);
// 4. dist/.build-stamp records when the build started; the bin compares it with the sources.
// Everything is written to a folder of its own under .taskloop/ and swapped in for dist/ at the end, so a CLI or a
// worker started while a build runs finds the previous dist/ whole (or none), never a half-written one.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const finalDist = path.join(root, 'dist');
const { distIsCurrent, sourceDirs, stampFile } = await import('../bin/dist-state.js');

// `--if-stale` (set-up steps: bootstrap, the test tiers' global set-up): nothing to do when dist/ was built after
// every source, this script and the lockfile. CI built it five times on one checkout (npm ci's prepare, then four
// set-up steps), about 3.6 s each here.
if (process.argv.includes('--if-stale') && distIsCurrent(root)) {
  const stampedAt = statSync(path.join(root, stampFile)).mtimeMs;
  const inputs = [fileURLToPath(import.meta.url), path.join(root, 'package-lock.json')].filter(existsSync);
  if (inputs.every((input) => statSync(input).mtimeMs <= stampedAt)) {
    console.log('[build] dist/ is current');
    process.exit(0);
  }
}

// A fresh folder each time: no compiled file outlives its source.
const dist = path.join(root, '.taskloop', `build-${process.pid}`);
const stamp = path.join(dist, '.build-stamp');
const startedAt = new Date();
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

function fail(what) {
  rmSync(dist, { recursive: true, force: true });
  console.error(`[build] ${what}; dist/ is left as it was (the bin runs the sources while it is older than they are)`);
  process.exit(1);
}

// esbuild comes with tsx (a dependency), so the build needs nothing more. Types are checked by `npm run typecheck`.
const { build } = await import('esbuild');
const sources = sourceDirs.flatMap((dir) => listTypeScript(path.join(root, dir)));
try {
  await build({
    entryPoints: sources,
    outdir: dist,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
} catch {
  fail('esbuild could not compile the sources');
}

const workersOutside = {
  name: 'workers-outside',
  setup(builder) {
    builder.onResolve({ filter: /\/workers\// }, (args) => ({
      path: `./${path.relative(path.join(dist, 'cli'), path.resolve(args.resolveDir, args.path)).split(path.sep).join('/')}`,
      external: true,
    }));
  },
};
const bundleOptions = {
  entryPoints: [path.join(dist, 'client', 'cli.js')],
  outfile: path.join(dist, 'cli', 'cli.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'bundle',
  // OpenTelemetry is loaded only when tracing is on, as Node loads it (some of its CommonJS defeats bundling).
  external: [
    // grpc-js requires it only for channelz and ORCA, which a client never starts; with its own protobufjs it is
    // 0.45 MB every start would read.
    '@grpc/proto-loader',
    '@temporalio/worker',
    '@temporalio/core-bridge',
    '@temporalio/interceptors-opentelemetry',
    '@opentelemetry/*',
  ],
  // Whitespace only: names stay, so stack traces and error names read as in the sources.
  minifyWhitespace: true,
  plugins: [workersOutside],
  // One CommonJS script, so the bin can run it with a V8 code cache (Node 20 has none for ES modules).
  define: { 'import.meta.url': '__taskloopModuleUrl' },
  banner: { js: "var __taskloopModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
};
try {
  await build(bundleOptions);
} catch (error) {
  fail(`esbuild failed: ${error.message.split('\n')[0]}`);
}

// The worker stays a set of ES modules: the bundle imports it through the bin's own import() (bin/code-cache.js),
// since a script run by node:vm may not import() without an experimental loader.
const bundle = path.join(dist, 'cli', 'cli.cjs');
const bundled = readFileSync(bundle, 'utf8');
const workerImport = /\bimport\((["'])\.\/\.\.\/workers\//g;
if (!workerImport.test(bundled)) fail('the bundle has no import of the worker modules to route through the bin');
// Tracing's packages stay outside the bundle too (see `external`), and are loaded the same way when tracing is on.
const tracingImport = /\bimport\((["'])(@opentelemetry\/|@temporalio\/interceptors-opentelemetry)/g;
writeFileSync(
  bundle,
  bundled.replace(workerImport, '__taskloopImport($1./../workers/').replace(tracingImport, '__taskloopImport($1$2'),
);

try {
  const { bundleWorkflowCode } = await import('@temporalio/worker');
  const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const { code } = await bundleWorkflowCode({ workflowsPath: path.join(dist, 'workflows', 'index.js'), logger: quiet });
  writeFileSync(path.join(dist, 'workflows', 'bundle.js'), code);
} catch (error) {
  fail(`the workflows could not be bundled: ${error.message.split('\n')[0]}`);
}

writeFileSync(stamp, `${startedAt.toISOString()}\n`);
// The stamp carries the time the build started: a source saved during the build still counts as newer.
utimesSync(stamp, startedAt, startedAt);

// Two renames: dist/ is missing only between them.
const previous = path.join(root, '.taskloop', `build-${process.pid}-previous`);
if (existsSync(finalDist)) renameSync(finalDist, previous);
renameSync(dist, finalDist);
rmSync(previous, { recursive: true, force: true });

function listTypeScript(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listTypeScript(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}
