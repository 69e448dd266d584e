// A merged tree made into files for its test run: a fresh private folder written from the object store (the tree's
// entries and blobs, read with the tree git), never a worktree of the repository's and no git with a work tree.
import { chmod, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { readWholeTree } from '../git/tree-blobs.js';
import { withGitDir } from '../git/tree-git.js';

/** The largest file a merged tree may hold: a bigger one is the repository's size, not the change's. */
const MAX_FILE_BYTES = 100 * 1024 * 1024;

/**
 * Runs `step` with the files of `tree` (of the repository at `gitDir`) in a fresh folder under `parentDir` (the
 * worker's work folder), removed afterwards. A folder whose worker process died (a SIGKILL skips the removal) is
 * removed by the next run on the host: the folder's name holds the process id that made it.
 */
export async function withTreeFiles<T>(
  parentDir: string,
  gitDir: string,
  tree: string,
  step: (folder: string) => Promise<T>,
): Promise<T> {
  await mkdir(parentDir, { recursive: true, mode: 0o700 });
  await removeFoldersOfDeadProcesses(parentDir);
  const privateDir = await mkdtemp(path.join(parentDir, `run-${process.pid}-`));
  try {
    const folder = path.join(privateDir, 'tree');
    await mkdir(folder, { mode: 0o700 });
    await withGitDir(gitDir, (git) => writeTree(git, tree, folder));
    return await step(folder);
  } finally {
    await rm(privateDir, { recursive: true, force: true });
  }
}

async function removeFoldersOfDeadProcesses(parentDir: string): Promise<void> {
  for (const name of await readdir(parentDir).catch(() => [])) {
    const pid = Number(/^run-(\d+)-/.exec(name)?.[1]);
    if (pid && !isAlive(pid)) await rm(path.join(parentDir, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user holds the id: alive, not ours to judge.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function writeTree(git: Parameters<typeof readWholeTree>[0], tree: string, folder: string): Promise<void> {
  for (const file of await readWholeTree(git, tree, MAX_FILE_BYTES)) {
    if (!('bytes' in file))
      throw ApplicationFailure.create({
        type: 'LandingRefused',
        nonRetryable: true,
        message: `${file.path} in the merged tree is ${file.tooLarge} bytes, over the ${MAX_FILE_BYTES} a landing's test run takes`,
      });
    const target = path.join(folder, file.path);
    // git refuses to write such trees; a crafted object must not write outside the folder either.
    if (path.relative(folder, target).startsWith('..')) throw new Error(`unsafe path in tree ${tree}: ${file.path}`);
    await mkdir(path.dirname(target), { recursive: true });
    if (file.mode === '120000') await symlink(file.bytes.toString('utf8'), target);
    else {
      await writeFile(target, file.bytes);
      if (file.mode === '100755') await chmod(target, 0o755);
    }
  }
}
