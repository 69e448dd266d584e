// A commit made from unified diffs applied to a base, on a private index in the repository's object store (no work
// tree touched), kept by a ref of taskloop's own: SWE-bench rows' gold and test patches, a peer harness's change.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

const safe = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'protocol.ext.allow=never'];
// A fixed identity and date: the same patches on the same base give the same commit id every time.
const commitEnv = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'taskloop',
  GIT_AUTHOR_EMAIL: 'taskloop@localhost',
  GIT_COMMITTER_NAME: 'taskloop',
  GIT_COMMITTER_EMAIL: 'taskloop@localhost',
  GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z',
};

export async function gitIn(
  repo: string,
  args: string[],
  options: { input?: string; index?: string } = {},
): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  const result = await execa('git', [...safe, '-C', repo, ...args], {
    reject: false,
    env: { ...commitEnv, ...(options.index ? { GIT_INDEX_FILE: options.index } : {}) },
    ...(options.input === undefined ? {} : { input: options.input }),
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ok: !result.failed, stdout: result.stdout, stderr: result.stderr };
}

export type PatchCommit =
  { ok: true; sha: string } | { ok: false; problem: 'base' | 'apply' | 'write'; patch?: string; detail: string };

/** The commit of `base` with each named patch applied in order, kept by `ref`; says which patch did not apply. */
export async function commitPatches(input: {
  repo: string;
  base: string;
  patches: { name: string; diff: string }[];
  ref: string;
  message: string;
}): Promise<PatchCommit> {
  const { repo, base } = input;
  if (!(await gitIn(repo, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`])).ok)
    return { ok: false, problem: 'base', detail: `${base} is not a commit of ${repo}` };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-patch-'));
  const index = path.join(dir, 'index');
  try {
    await gitIn(repo, ['read-tree', base], { index });
    for (const patch of input.patches) {
      if (patch.diff.trim() === '') continue;
      const applied = await gitIn(repo, ['apply', '--cached', '--whitespace=nowarn', '-'], {
        input: patch.diff,
        index,
      });
      if (!applied.ok)
        return { ok: false, problem: 'apply', patch: patch.name, detail: applied.stderr.split('\n')[0] ?? '' };
    }
    const tree = await gitIn(repo, ['write-tree'], { index });
    const commit = tree.ok
      ? await gitIn(repo, ['commit-tree', tree.stdout.trim(), '-p', base, '-m', input.message])
      : tree;
    const sha = commit.stdout.trim();
    if (!commit.ok || !(await gitIn(repo, ['update-ref', input.ref, sha])).ok)
      return { ok: false, problem: 'write', detail: commit.stderr || 'update-ref failed' };
    return { ok: true, sha };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
