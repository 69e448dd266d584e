// The error of a git command that exited non-zero: its message is what git printed (stderr, else stdout).
export class GitError extends Error {
  override name = 'GitError';
}
