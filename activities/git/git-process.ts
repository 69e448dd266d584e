// Runs git without simple-git: simple-git waits a fixed 50 ms after every command that prints nothing, whatever its
// `completion` option says (its completion plugin always defers the close), and an attempt runs several such
// commands (worktree prune/remove, add, commit, update-ref). Each git dies with the worker (setpriv's parent-death
// signal), as the test runs do.
import { GitError } from './git-error.js';
import { dieWithWorkerArgs } from '../process/die-with-worker.js';
import { runShortCommand } from '../process/run-short-command.js';

/** The git client taskloop's activities use: raw commands, a replaced environment, and a diff with its numstat. */
export interface Git {
  /** Runs `git <config> <args>` in the folder; resolves with stdout, rejects with a `GitError` on a non-zero exit. */
  raw(args: string[]): Promise<string>;
  /** The same client with the child's whole environment replaced by `env` (as simple-git's `env`). */
  env(env: Record<string, string>): Git;
  /**
   * `git diff --numstat --patch -z <args>` in one process: the patch (exactly as `git diff -p` prints it) and the
   * numstat parsed, each changed file with its line counts, and the totals.
   */
  diffWithNumstat(args: string[]): Promise<{ patch: string; numstat: DiffNumstat }>;
}

export interface DiffNumstat {
  /** Binary files count as changed with 0 lines, as git prints them ("-"). */
  files: { file: string; insertions: number; deletions: number; binary: boolean }[];
  insertions: number;
  deletions: number;
}

/**
 * A git client for `dir`. `globalArgs` come first (e.g. `--git-dir`), then each `config` setting as
 * `-c`. Without `env` git gets gitEnv(): never the worker's whole environment (its secrets, API keys), so nothing git
 * might run (a filter, a credential helper) could be handed them.
 */
export function gitProcess(
  dir: string,
  config: string[],
  env: Record<string, string> = gitEnv(),
  globalArgs: string[] = [],
): Git {
  const configArgs = [...globalArgs, ...config.flatMap((setting) => ['-c', setting])];
  return {
    raw: (args) => runGitProcess(dir, [...configArgs, ...args], env),
    env: (replaced) => gitProcess(dir, config, replaced, globalArgs),
    // No external diff program or textconv filter: neither may run for taskloop's own diffs.
    diffWithNumstat: async (args) =>
      splitNumstatAndPatch(
        await runGitProcess(
          dir,
          [...configArgs, 'diff', '--no-ext-diff', '--no-textconv', '--numstat', '--patch', '-z', ...args],
          env,
        ),
      ),
  };
}

// What git needs of the worker's environment to find itself, the user's own git config and a temporary folder.
const gitEnvNames = ['PATH', 'HOME', 'XDG_CONFIG_HOME', 'TMPDIR', 'GIT_EXEC_PATH', 'GIT_TRACE'];

/** The environment of taskloop's git commands: the few variables git needs, plain messages, no prompt. */
export function gitEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' };
  for (const name of gitEnvNames) {
    const value = base[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

async function runGitProcess(dir: string, args: string[], env: Record<string, string>): Promise<string> {
  const [command = 'git', ...argv] = dieWithWorkerArgs(['git', ...args]);
  const { code, signal, stdout, stderr } = await runShortCommand({ command, args: argv, cwd: dir, env });
  if (code === 0) return stdout.toString('utf8');
  // The message is what git printed, as simple-git's errors were: callers match git's words in it.
  const printed = Buffer.concat([stdout, stderr]).toString('utf8');
  throw new GitError(printed || `git ${args.join(' ')} exited with ${signal ?? code}`);
}

/**
 * With --numstat --patch -z git prints the numstat records (each ending in NUL), one more NUL, then the patch; with
 * no change it prints nothing.
 */
export function splitNumstatAndPatch(output: string): { patch: string; numstat: DiffNumstat } {
  const end = output.indexOf('\0\0');
  return end === -1
    ? { patch: '', numstat: parseNumstat(output) }
    : { patch: output.slice(end + 2), numstat: parseNumstat(output.slice(0, end + 1)) };
}

/**
 * Parses `git diff --numstat -z` without renames: "<added>\t<deleted>\t<path>\0" per file, the path unquoted.
 * (Rename pairs, which -z writes as three fields, are not expected: callers pass --no-renames.)
 */
export function parseNumstat(output: string): DiffNumstat {
  const files = output
    .split('\0')
    .filter((record) => record !== '')
    .map((record) => {
      const [added = '', deleted = '', ...path] = record.split('\t');
      const binary = added === '-' && deleted === '-';
      return {
        file: path.join('\t'),
        insertions: binary ? 0 : Number(added),
        deletions: binary ? 0 : Number(deleted),
        binary,
      };
    });
  return {
    files,
    insertions: files.reduce((sum, file) => sum + file.insertions, 0),
    deletions: files.reduce((sum, file) => sum + file.deletions, 0),
  };
}
