// Runs git without simple-git, through the spawn helper (activities/process/spawn-helper.ts): simple-git waits a
// fixed 50 ms after every command that prints nothing, whatever its `completion` option says (its completion plugin
// always defers the close), and an attempt runs several such commands (worktree prune/remove, add, commit,
// update-ref). simple-git stays for parsing (diffSummary).
import { GitError, simpleGit, type DiffResult } from 'simple-git';
import { runShortCommand } from '../process/spawn-helper.js';

/** The git client taskloop's activities use: raw commands, a replaced environment, and a parsed diff summary. */
export interface Git {
  /** Runs `git <config> <args>` in the folder; resolves with stdout, rejects with a `GitError` on a non-zero exit. */
  raw(args: string[]): Promise<string>;
  /** The same client with the child's whole environment replaced by `env` (as simple-git's `env`). */
  env(env: Record<string, string>): Git;
  /** `git diff --numstat …` parsed by simple-git (it prints output, so it pays no completion wait). */
  diffSummary(args: string[]): Promise<DiffResult>;
}

export function gitProcess(dir: string, config: string[], env?: Record<string, string>): Git {
  const configArgs = config.flatMap((setting) => ['-c', setting]);
  return {
    raw: (args) => runGitProcess(dir, [...configArgs, ...args], env),
    env: (replaced) => gitProcess(dir, config, replaced),
    diffSummary: (args) => {
      const git = simpleGit({
        baseDir: dir,
        config,
        unsafe: { allowUnsafeHooksPath: true, allowUnsafeFsMonitor: true },
      });
      return (env ? git.env(env) : git).diffSummary(args);
    },
  };
}

async function runGitProcess(dir: string, args: string[], env: Record<string, string> | undefined): Promise<string> {
  const { code, signal, stdout, stderr } = await runShortCommand({ command: 'git', args, cwd: dir, env });
  if (code === 0) return stdout.toString('utf8');
  // The message is what git printed, as simple-git's errors were: callers match git's words in it.
  const printed = Buffer.concat([stdout, stderr]).toString('utf8');
  throw new GitError(undefined, printed || `git ${args.join(' ')} exited with ${signal ?? code}`);
}
