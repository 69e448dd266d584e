// The error of a git command that exited non-zero: its message is what git printed (stderr, else stdout).
export class GitError extends Error {
  override name = 'GitError';

  /** The exit code, where the caller reads it as an answer (`git grep` exits 1 for no match). */
  constructor(
    message: string,
    readonly exitCode?: number | null,
  ) {
    super(message);
  }
}
