#!/usr/bin/env node
// Builds dist/ so the bin runs JavaScript and starts fast:
// 1. esbuild compiles each source file to dist/ (the worker runs these: it bundles dist/workflows from them);
// 2. esbuild bundles the CLI into dist/cli/ in split chunks, so a command loads one file per dependency graph
//    instead of hundreds (the worker stays outside the bundle: it needs its own files and native SDK);
// 3. dist/.build-stamp records when the build started; the bin compares it with the sources.
import { readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.build-stamp');
const startedAt = new Date();
// A fresh dist/ each time: no compiled file outlives its source.
rmSync(dist, { recursive: true, force: true });

function fail(what) {
  rmSync(stamp, { force: true });
  console.error(`[build] ${what}; dist/ is not current (the bin falls back to tsx)`);
  process.exit(1);
}

// esbuild comes with tsx (a dependency), so the build needs nothing more. Types are checked by `npm run typecheck`.
const { build } = await import('esbuild');
const { sourceDirs } = await import('../bin/dist-state.js');
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
try {
  await build({
    entryPoints: [path.join(dist, 'client', 'cli.js')],
    outdir: path.join(dist, 'cli'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'bundle',
    // OpenTelemetry is loaded only when tracing is on, as Node loads it (some of its CommonJS defeats bundling).
    external: [
      '@temporalio/worker',
      '@temporalio/core-bridge',
      '@temporalio/interceptors-opentelemetry',
      '@opentelemetry/*',
    ],
    plugins: [workersOutside],
    // Bundled CommonJS packages call require(); ESM output has none unless given one.
    banner: {
      js: "import { createRequire as __taskloopRequire } from 'node:module'; const require = __taskloopRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
} catch {
  fail('esbuild failed');
}

writeFileSync(stamp, `${startedAt.toISOString()}\n`);
// The stamp carries the time the build started: a source saved during the build still counts as newer.
utimesSync(stamp, startedAt, startedAt);

function listTypeScript(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listTypeScript(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}
