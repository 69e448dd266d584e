// A symbolic link the change adds is committed as a link: one that leads out of the repository (an absolute target,
// or `..` past its root) or into `.git` would have later readers of the branch (a checkout, a CI job, taskloop's own
// next attempt) read or write host files and git internals through it.
import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { Finding } from '../../domain/records.js';

/** Where a link at `file` (repository-relative) leads, as a repository-relative path; undefined when it leaves. */
export function linkTargetInRepo(file: string, target: string): string | undefined {
  if (path.isAbsolute(target)) return undefined;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
  return resolved === '..' || resolved.startsWith('../') ? undefined : resolved;
}

function intoGitFolder(relative: string): boolean {
  const first = relative.split('/')[0];
  return first === '.git';
}

/** The `link_out_of_repo` findings: each changed file that is a link leading outside the worktree or into `.git`. */
export async function checkLinks(worktreePath: string, changedFiles: string[]): Promise<Finding[]> {
  const findings = await Promise.all(
    changedFiles.map(async (file): Promise<Finding | undefined> => {
      const full = path.join(worktreePath, file);
      const stats = await lstat(full).catch(() => undefined);
      if (!stats?.isSymbolicLink()) return undefined;
      return linkFinding(file, await readlink(full).catch(() => ''));
    }),
  );
  return findings.filter((finding): finding is Finding => finding !== undefined);
}

/** The `link_out_of_repo` finding of a link at `file` whose target text is `target`; undefined when it stays inside. */
export function linkFinding(file: string, target: string): Finding | undefined {
  const inside = linkTargetInRepo(file, target);
  if (inside !== undefined && !intoGitFolder(inside)) return undefined;
  const where = inside === undefined ? 'outside the repository' : "into the repository's .git folder";
  return {
    rule: 'link_out_of_repo',
    message: `${file} is a symbolic link leading ${where} (${target}): commit the file itself, or a link to a file of the repository`,
    file,
  };
}
