// Runs the bundled CLI (one CommonJS script) with a V8 code cache beside it: later starts skip parsing and compiling
// the bundle (most of it is the Temporal SDK and its protobuf definitions). Node 20 has no code cache for ES modules.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

/**
 * Runs `file` as a CommonJS module; writes its code cache at exit when there was none (or V8 refused it). One cache per
 * `key` (the command), since each holds the functions its command ran.
 */
export function runWithCodeCache(file, key) {
  const source = readFileSync(file, 'utf8');
  const cacheFile = `${file}.${process.version}.${key}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const params = 'exports, require, module, __filename, __dirname, __taskloopImport';
  const script = new vm.Script(`(function (${params}) {${source}\n})`, { filename: file, cachedData });
  if (!cachedData || script.cachedDataRejected) {
    // At exit, so the functions the command compiled lazily are in the cache too; a read-only install just goes without.
    process.once('beforeExit', () => writeCache(script, cacheFile));
  }
  const module = { exports: {} };
  // The worker, the demo and tracing import ES modules outside the bundle (see scripts/build.mjs): this module's import() does it.
  // A package name (tracing's, kept outside the bundle) resolves from the project's node_modules.
  const importFromBundle = (specifier) =>
    specifier.startsWith('.') ? import(new URL(specifier, pathToFileURL(file)).href) : import(specifier);
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file), importFromBundle);
}

function writeCache(script, cacheFile) {
  const temp = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, cacheFile);
  } catch {
    // Another start wrote it, or the folder is read-only: the next start compiles again.
  }
}
