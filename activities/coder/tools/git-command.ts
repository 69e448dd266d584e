// Read-only git for the coder's tools: argv only, bounded output, never throws for a git error. It runs as the rest of
// taskloop's git does: the attempt's recorded git folder named explicitly (a `.git` rewritten by a test run is never
// followed), no setting that runs a program, and none of the worker's environment (its secrets).
import { execa } from 'execa';
import { gitEnv } from '../../git/git-process.js';
import { explicitGitDirArgs, safeGitConfigArgs } from '../../git/run-git.js';

const MAX_OUTPUT_BYTES = 4_000_000;

export interface GitReply {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs `git <args>` in `root` with hooks off and paths printed as they are; a failing git is a value. */
export async function runReadOnlyGit(root: string, args: string[], timeoutMs = 30_000): Promise<GitReply> {
  const result = await execa('git', [...explicitGitDirArgs(root), ...safeGitConfigArgs(), ...args], {
    cwd: root,
    reject: false,
    timeout: timeoutMs,
    maxBuffer: MAX_OUTPUT_BYTES,
    stripFinalNewline: false,
    extendEnv: false,
    env: { ...gitEnv(), GIT_OPTIONAL_LOCKS: '0' },
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? '') };
}

/** The first lines of `text` up to `maxChars`, with a note saying how to see the rest when cut. */
export function boundText(text: string, maxChars: number, more: string): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  return `${cut.slice(0, Math.max(cut.lastIndexOf('\n'), 0) || maxChars)}\n... output cut at ${maxChars} characters; ${more}`;
}
