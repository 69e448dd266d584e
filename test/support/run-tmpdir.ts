// Every temporary file of a test run (repositories, worktrees, work folders, logs, and those of the workers, servers
// and tools the tests start, which inherit TMPDIR) goes into one folder, removed when the run passes: the tests'
// folders left behind took about 220 MB per full run. A failed run keeps it, and says where, for its logs.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Points TMPDIR at a fresh folder for this process and its children; removes it at exit unless the run failed. */
export function useRunTmpdir(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'taskloop-tests-'));
  process.env.TMPDIR = folder;
  process.once('exit', (code) => {
    if (code === 0 && !process.exitCode) rmSync(folder, { recursive: true, force: true });
    else process.stderr.write(`test run temporaries kept in ${folder}\n`);
  });
  return folder;
}
