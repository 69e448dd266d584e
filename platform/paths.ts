// Where taskloop keeps its local state: `.taskloop/` at the project root (or $TASKLOOP_HOME).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The taskloop checkout itself (the folder holding package.json). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Local state: the dev server's database, tools, worktrees, artifacts, events. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.TASKLOOP_HOME ?? path.join(projectRoot, '.taskloop'));
}
