import { describe, expect, it } from 'vitest';
import { isPathAllowed, isTestFile, normalizeRepoPath } from '../../../domain/paths.js';

describe('isTestFile', () => {
  it.each([
    'tests/test_calc.py',
    'test/helpers.py',
    'pkg/tests/data/input.json',
    'test_calc.py',
    'src/calc_test.py',
    'conftest.py',
    'src/conftest.py',
    './tests/x.py',
  ])('counts %s as a test file', (path) => expect(isTestFile(path)).toBe(true));

  it.each([
    'src/calc.py',
    'src/testing.py',
    'tests',
    'contest.py',
    'src/test_data.txt',
    'latest/calc.py',
    'src/mytest.py',
  ])('does not count %s', (path) => expect(isTestFile(path)).toBe(false));
});

describe('normalizeRepoPath', () => {
  it('resolves dots and doubled slashes, and refuses escapes', () => {
    expect(normalizeRepoPath('./a//b/../c')).toBe('a/c');
    expect(normalizeRepoPath('../x')).toBeUndefined();
    expect(normalizeRepoPath('/etc/passwd')).toBeUndefined();
  });
});

describe('isPathAllowed', () => {
  it('allows everything in the repo when the list is empty', () => {
    expect(isPathAllowed('anything/at/all.py', [])).toBe(true);
  });

  it('never allows paths that leave the repository', () => {
    expect(isPathAllowed('../outside.py', [])).toBe(false);
    expect(isPathAllowed('src/../../outside.py', ['src/'])).toBe(false);
    expect(isPathAllowed('/etc/passwd', ['**'])).toBe(false);
  });

  it('treats entries as directory prefixes with or without a slash', () => {
    expect(isPathAllowed('src/a/b.py', ['src/'])).toBe(true);
    expect(isPathAllowed('src/a/b.py', ['src'])).toBe(true);
    expect(isPathAllowed('srcx/b.py', ['src'])).toBe(false);
    expect(isPathAllowed('src/../lib/b.py', ['src/'])).toBe(false);
  });

  it('matches exact files', () => {
    expect(isPathAllowed('setup.cfg', ['setup.cfg'])).toBe(true);
    expect(isPathAllowed('setup.cfg.bak', ['setup.cfg'])).toBe(false);
  });

  it('lets * span one segment and ** any depth', () => {
    expect(isPathAllowed('src/calc.py', ['src/*.py'])).toBe(true);
    expect(isPathAllowed('src/sub/calc.py', ['src/*.py'])).toBe(false);
    expect(isPathAllowed('src/sub/deep/calc.py', ['src/**/*.py'])).toBe(true);
    expect(isPathAllowed('src/calc.py', ['src/**/*.py'])).toBe(true);
    expect(isPathAllowed('lib/calc.py', ['**/calc.py'])).toBe(true);
    expect(isPathAllowed('calc.py', ['**/calc.py'])).toBe(true);
    expect(isPathAllowed('src/calc.txt', ['src/**/*.py'])).toBe(false);
  });

  it('lets a glob that matches a directory allow what is under it', () => {
    expect(isPathAllowed('pkg/core/x.py', ['pkg/*'])).toBe(true);
    expect(isPathAllowed('other/core/x.py', ['pkg/*'])).toBe(false);
  });

  it('allows a path matching any one entry', () => {
    expect(isPathAllowed('docs/readme.md', ['src/', 'docs/*.md'])).toBe(true);
  });
});

describe('isPathAllowed globs (picomatch)', () => {
  it('expands braces', () => {
    expect(isPathAllowed('src/a.py', ['src/{a,b}.py'])).toBe(true);
    expect(isPathAllowed('src/b.py', ['src/{a,b}.py'])).toBe(true);
    expect(isPathAllowed('src/c.py', ['src/{a,b}.py'])).toBe(false);
    expect(isPathAllowed('docs/x.md', ['{src,docs}/**'])).toBe(true);
  });

  it('lets ? match exactly one character within a segment', () => {
    expect(isPathAllowed('src/a1.py', ['src/a?.py'])).toBe(true);
    expect(isPathAllowed('src/a12.py', ['src/a?.py'])).toBe(false);
    expect(isPathAllowed('src/a/.py', ['src/a?.py'])).toBe(false);
  });

  it('matches character classes and ranges', () => {
    expect(isPathAllowed('src/a.py', ['src/[ab].py'])).toBe(true);
    expect(isPathAllowed('src/c.py', ['src/[ab].py'])).toBe(false);
    expect(isPathAllowed('v3/x.py', ['v[0-9]/*.py'])).toBe(true);
  });

  it('treats regex characters in a glob literally and matches dotfiles', () => {
    expect(isPathAllowed('a+b/c.py', ['a+b/*.py'])).toBe(true);
    expect(isPathAllowed('axpy', ['*.py'])).toBe(false);
    expect(isPathAllowed('src/.env.example', ['src/*'])).toBe(true);
  });

  it('matches the directory itself and all below it for a trailing **', () => {
    expect(isPathAllowed('src', ['src/**'])).toBe(true);
    expect(isPathAllowed('src/a/b', ['src/**'])).toBe(true);
    expect(isPathAllowed('srcx', ['src/**'])).toBe(false);
  });
});
