// Reads the files most likely relevant to the goal and to earlier failures, for the coder's first message.
import { rankRelevantFiles } from '../../domain/context-budget.js';
import type { AttemptSummary } from '../../domain/records.js';
import type { ContextFile } from './context.js';
import { readConfinedFile } from '../untrusted-files.js';
import { listRepoFiles } from './repo-map.js';

const MAX_EXCERPT_CHARS = 4_000;
/** A larger file is not excerpted (a source file of the goal is far smaller; the model can still read_file it). */
const MAX_FILE_BYTES = 1024 * 1024;

/** Up to `max` files named by the goal, the hint and earlier failures (symbols in test output), with their first lines. */
export async function readRelevantFiles(input: {
  worktreePath: string;
  goal: string;
  hint?: string;
  previousAttempts: AttemptSummary[];
  max?: number;
  /** The worktree's listing (listRepoFiles), when the caller already has it. */
  files?: string[];
}): Promise<ContextFile[]> {
  const evidence = input.previousAttempts.flatMap((attempt) => [
    attempt.failureReason ?? '',
    attempt.test?.stdoutExcerpt.slice(-4000) ?? '',
  ]);
  const files = rankRelevantFiles(
    input.files ?? (await listRepoFiles(input.worktreePath)),
    [input.goal, input.hint ?? '', ...evidence],
    input.max ?? 5,
  );
  const read = await Promise.all(
    files.map(async (file) => {
      // A listed name may be a link out of the worktree or a FIFO the tests left: only regular files inside are read.
      const read = await readConfinedFile(input.worktreePath, file, MAX_FILE_BYTES);
      const text = read.ok ? read.text : undefined;
      if (text === undefined || text.includes('\0')) return undefined; // Deleted or binary: the model can list it.
      return {
        path: file,
        excerpt:
          text.length > MAX_EXCERPT_CHARS
            ? `${text.slice(0, MAX_EXCERPT_CHARS)}\n[... cut; read_file shows the rest]`
            : text,
      };
    }),
  );
  return read.filter((file): file is ContextFile => file !== undefined);
}
