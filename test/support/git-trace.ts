// The git processes a step starts, read from GIT_TRACE (one `trace: built-in: git <command> ...` line per process).
import { readFile } from 'node:fs/promises';

/** The commands (`checkout`, `worktree`, `update-ref`, ...) of the git processes started while `step` runs. */
export async function tracedGitCommands(traceFile: string, step: () => Promise<unknown>): Promise<string[]> {
  process.env.GIT_TRACE = traceFile;
  try {
    await step();
  } finally {
    delete process.env.GIT_TRACE;
  }
  const trace = await readFile(traceFile, 'utf8').catch(() => '');
  return [...trace.matchAll(/ trace: built-in: git (?:-c \S+ |--\S+ )*(\S+)/g)].map((match) => match[1] as string);
}
