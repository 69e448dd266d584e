// Path rules for a change: which files are tests, and which paths a task may touch. Paths are repo-relative, `/`-separated.
import picomatch from 'picomatch';

/**
 * Normalises a repo-relative path (`./a//b/../c` -> `a/c`); undefined for an absolute path or one that
 * climbs out of the repository.
 */
export function normalizeRepoPath(path: string): string | undefined {
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) return undefined;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return segments.join('/');
}

/** True for pytest test files: under a `tests/` or `test/` directory, `test_*.py`, `*_test.py`, or `conftest.py`. */
export function isTestFile(path: string): boolean {
  const segments = (normalizeRepoPath(path) ?? path).split('/');
  const name = segments[segments.length - 1] ?? '';
  const dirs = segments.slice(0, -1);
  return (
    dirs.some((dir) => dir === 'tests' || dir === 'test') ||
    /^test_.*\.py$/.test(name) ||
    /.+_test\.py$/.test(name) ||
    name === 'conftest.py'
  );
}

/**
 * True when the task may change `path`. An empty list allows every path in the repository. Entries are directory
 * prefixes (`src/`, `src`), exact files, or picomatch globs (`*` within a segment, `**` any depth, `?`, `[ab]`,
 * `{a,b}`); a glob that matches a directory allows what is under it. Paths outside the repo are never allowed.
 */
export function isPathAllowed(path: string, allowedPaths: string[]): boolean {
  const normalized = normalizeRepoPath(path);
  if (normalized === undefined) return false;
  if (allowedPaths.length === 0) return true;
  return allowedPaths.some((entry) => matchesEntry(normalized, entry));
}

function matchesEntry(path: string, entry: string): boolean {
  const prefix = normalizeRepoPath(entry);
  if (prefix === undefined) return false;
  if (prefix === '') return true; // `.` or `./` names the whole repository
  if (!picomatch.scan(prefix).isGlob) return path === prefix || path.startsWith(`${prefix}/`);
  const matches = picomatch(prefix, { dot: true, windows: false });
  const segments = path.split('/');
  // The path itself or any directory above it.
  return segments.some((_, index) => matches(segments.slice(0, index + 1).join('/')));
}
