// `taskloop env build`: the environment a task on REPO at REF would use, built (or found) in this machine's cache the
// way the worker's environment step does it: same key, same sandbox, same manifest.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { EnvironmentSpec } from '../../domain/environment.js';
import { isRepoUrl } from '../../domain/repo-url.js';
import { ensureEnvironment, type EnvironmentRef } from '../../activities/environments/index.js';
import { fetchBase } from '../../activities/git/index.js';
import { openGit, tryGit } from '../../activities/git/run-git.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../activities/sandbox/index.js';
import { resolveHost } from '../../workers/host.js';

/** `badInput`: the flags named something the repository does not hold (exit 2, nothing built). */
export type CliBuild = { ok: true; ref: EnvironmentRef } | { ok: false; error: string; badInput?: true };

export async function buildForCli(input: {
  repo: string;
  ref: string;
  spec: EnvironmentSpec;
  cacheDir: string;
  log: (line: string) => void;
}): Promise<CliBuild> {
  const host = resolveHost(process.env);
  let repo = input.repo;
  let repoPath: string;
  let baseSha: string | undefined;
  if (isRepoUrl(repo)) {
    ({ repoPath, baseSha } = await fetchBase(repo, host.workDir, input.ref));
  } else {
    repo = path.resolve(repo);
    repoPath = repo;
    if (!existsSync(path.join(repo, '.git')))
      return { ok: false, error: `${input.repo} is not a git repository (no .git in ${repo})` };
    baseSha = (await tryGit(openGit(repo), ['rev-parse', '--verify', `${input.ref}^{commit}`]))?.trim();
  }
  if (!baseSha) return { ok: false, badInput: true, error: `--ref ${input.ref} names no commit of ${input.repo}` };
  // A file that keys the environment must be there: a key made of an absent file would build, and match, anything.
  for (const file of input.spec === 'auto' ? [] : (input.spec.files ?? []))
    if ((await tryGit(openGit(repoPath), ['cat-file', '-e', `${baseSha}:${file}`])) === undefined)
      return {
        ok: false,
        badInput: true,
        error: `--file ${file} is not in ${input.repo} at ${input.ref} (${baseSha.slice(0, 12)}); name a file that commit holds (e.g. --file requirements.txt), or leave --file out to key on the dependency files found`,
      };
  const sandbox = resolveWorkerSandbox({ workDir: host.workDir });
  try {
    const ref = await ensureEnvironment({
      repo,
      repoPath,
      baseSha,
      spec: input.spec,
      cacheDir: input.cacheDir,
      policy: sandboxPolicyFor(sandbox),
      hostId: host.hostId,
      log: input.log,
    });
    return { ok: true, ref };
  } catch (error) {
    if (error instanceof ApplicationFailure) return { ok: false, error: error.message };
    throw error;
  }
}
