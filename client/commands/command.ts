/** One CLI command: a one-line summary, its --help text, and a run that returns the exit code. */
export interface Command {
  summary: string;
  help: string;
  run(argv: string[]): Promise<number>;
}
