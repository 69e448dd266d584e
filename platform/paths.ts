// Where taskloop keeps its local state: `.taskloop/` at the project root (or $TASKLOOP_HOME).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The taskloop checkout itself (the folder holding package.json), whether run from source or from dist/. */
export const projectRoot = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(dir: string): string {
  if (existsSync(path.join(dir, 'package.json'))) return dir;
  const parent = path.dirname(dir);
  return parent === dir ? dir : findPackageRoot(parent);
}

/** Local state: the dev server's database, tools, worktrees, artifacts, events. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.TASKLOOP_HOME ?? path.join(projectRoot, '.taskloop'));
}
