// Whether dist/ was built from the sources as they are now: its build stamp is newer than every source file.
// Plain JavaScript with no dependencies, so the bin can check it in a few milliseconds before loading anything.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The folders compiled into dist/ (tsconfig.build.json includes exactly these). */
export const sourceDirs = ['domain', 'workflows', 'activities', 'platform', 'workers', 'client'];
export const stampFile = path.join('dist', '.build-stamp');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** True when dist/.build-stamp is at least as new as every .ts file of the compiled folders. */
export function distIsCurrent(root) {
  let stamp;
  try {
    stamp = statSync(path.join(root, stampFile)).mtimeMs;
  } catch {
    return false;
  }
  return sourceDirs.every((dir) => newestSource(path.join(root, dir)) <= stamp);
}
