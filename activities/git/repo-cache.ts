// Repositories by URL: each host keeps one bare clone per URL under its work folder and fetches the base ref per claim.
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { GitError } from './git-error.js';
import { isRepoUrl, redactUrls } from '../../domain/repo-url.js';
import { toSafeName } from '../artifacts.js';
import { unknownBaseRef, worktreeError } from './failures.js';
import { isDirectory, openGit, withRepoLock } from './run-git.js';

/** Where this host keeps its clone of `url`: `<workDir>/repos/<readable name>-<hash of the URL>`. */
export function cachedClonePath(workDir: string, url: string): string {
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 12);
  const name = toSafeName(path.basename(redactUrls(url)).replace(/\.git$/, '')).slice(0, 40) || 'repo';
  return path.resolve(workDir, 'repos', `${name}-${hash}`);
}

/** The local repository a task's `repo` names on this host: the path itself, or this host's clone of the URL. */
export function localRepoPath(repo: string, workDir: string): string {
  return isRepoUrl(repo) ? cachedClonePath(workDir, repo) : repo;
}

/** Credentials come from the host's git configuration or SSH agent; git must never wait for a password on a terminal. */
export const remoteEnv: Record<string, string> = {
  ...Object.fromEntries(
    ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'XDG_CONFIG_HOME', 'SSH_AUTH_SOCK', 'SSH_AGENT_PID']
      .filter((name) => process.env[name] !== undefined)
      .map((name) => [name, process.env[name] as string]),
  ),
  GIT_TERMINAL_PROMPT: '0',
};

/**
 * Makes sure this host has its clone of `url` (cloned once, bare) and fetches `baseRef` from it: one fetch per claim.
 * Returns the clone's path and the fetched commit. Claims of one URL on one host run one at a time. Throws
 * non-retryable `UnknownBaseRef` when the remote has no such ref, retryable `WorktreeError` when the remote does not
 * answer (messages carry no credentials).
 */
export async function fetchBase(
  url: string,
  workDir: string,
  baseRef: string,
): Promise<{ repoPath: string; baseSha: string }> {
  const repoPath = cachedClonePath(workDir, url);
  return withRepoLock(`fetch:${repoPath}`, async () => {
    if (!(await isDirectory(path.join(repoPath, 'refs')))) {
      await rm(repoPath, { recursive: true, force: true });
      await mkdir(path.dirname(repoPath), { recursive: true });
      await runRemote(openGit(path.dirname(repoPath)), ['clone', '--bare', '--quiet', '--no-tags', url, repoPath]);
    }
    const git = openGit(repoPath).env(remoteEnv);
    try {
      await git.raw(['fetch', '--quiet', '--no-tags', 'origin', baseRef]);
    } catch (error) {
      if (error instanceof GitError && /couldn't find remote ref|not our ref|invalid refspec/i.test(error.message))
        throw unknownBaseRef(baseRef, redactUrls(url));
      throw worktreeError('fetch', redactUrls(error instanceof Error ? error.message : String(error)));
    }
    const baseSha = (await git.raw(['rev-parse', '--verify', 'FETCH_HEAD^{commit}'])).trim();
    return { repoPath, baseSha };
  });
}

async function runRemote(git: ReturnType<typeof openGit>, args: string[]): Promise<string> {
  try {
    return await git.env(remoteEnv).raw(args);
  } catch (error) {
    throw worktreeError(args[0] ?? 'git', redactUrls(error instanceof Error ? error.message : String(error)));
  }
}
