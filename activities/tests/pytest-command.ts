// Recognising a pytest command and adding the options every run needs.
import path from 'node:path';

/** True when argv runs pytest: a `pytest`/`py.test` program or argument, or `-m pytest`. */
export function isPytestCommand(argv: string[]): boolean {
  return argv.some((arg, index) => {
    const name = path.basename(arg);
    return name === 'pytest' || name === 'py.test' || (arg === '-m' && argv[index + 1] === 'pytest');
  });
}

/** Appends the JUnit report path and disables the cache plugin, so no .pytest_cache lands in the worktree. */
export function withPytestOptions(argv: string[], junitPath: string): string[] {
  return [...argv, `--junitxml=${junitPath}`, '-p', 'no:cacheprovider'];
}
