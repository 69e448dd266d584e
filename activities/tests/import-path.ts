// How the tests import the repository's own package when they run in a built environment: the attempt's worktree (and
// its `src/` in a src layout) first on PYTHONPATH, ahead of the copy set-up may have installed from the base commit.
// An editable install cannot serve: the environment is shared, read-only, by every attempt's worktree.
import { lstatSync } from 'node:fs';
import path from 'node:path';

/** PYTHONPATH for a run in `worktree`; the task's own `testEnv.PYTHONPATH` replaces it. */
export function importPathFor(worktree: string): { PYTHONPATH: string } {
  const src = path.join(worktree, 'src');
  // lstat: a link named src (the worktree is data after code ran) is not followed, and not a src layout.
  const srcLayout = lstatSync(src, { throwIfNoEntry: false })?.isDirectory() === true;
  return { PYTHONPATH: srcLayout ? `${src}:${worktree}` : worktree };
}
