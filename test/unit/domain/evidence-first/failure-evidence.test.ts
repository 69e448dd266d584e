import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readFailureEvidence } from '../../../../domain/evidence-first/failure-evidence.js';

// Real pytest 9.2 output of tomli at the parents of its fixes, the fixes' tests laid over (recorded 2026-12-06).
const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/small-coder/${name}`, import.meta.url), 'utf8');
const tomliFiles = new Set(fixture('tomli-files.txt').split('\n').filter(Boolean));
const isRepoFile = (file: string) => tomliFiles.has(file);

describe('readFailureEvidence', () => {
  it('reads the failing id, the E lines and both frames of a long traceback (tomli load in text mode)', () => {
    const evidence = readFailureEvidence({ output: fixture('tomli-load-text-mode/pytest.out'), isRepoFile });
    expect(evidence.failing).toEqual(['tests/test_misc.py::TestMiscellaneous::test_incorrect_load']);
    expect(evidence.assertions).toEqual(["E       AttributeError: 'str' object has no attribute 'decode'"]);
    expect(evidence.frames).toEqual([
      { file: 'tests/test_misc.py', line: 31 },
      { file: 'src/tomli/_parser.py', line: 77 },
    ]);
  });

  it('keeps every E line of an assertion diff and the one frame of a caught exception (tomli loads of bytes)', () => {
    const evidence = readFailureEvidence({
      output: fixture('tomli-loads-typeerror/pytest.out'),
      failingIds: ['tests/test_error.py::TestError::test_type_error'],
      isRepoFile,
    });
    expect(evidence.failing).toEqual(['tests/test_error.py::TestError::test_type_error']);
    expect(evidence.assertions).toHaveLength(3);
    expect(evidence.assertions[0]).toContain('AssertionError: "a bytes-like object is required, not \'str\'"');
    expect(evidence.frames).toEqual([{ file: 'tests/test_error.py', line: 45 }]);
  });

  it('reads a collection error: frames in repository files only (not the standard library), the module as the id', () => {
    const evidence = readFailureEvidence({ output: fixture('tomli-collection-error.pytest.out'), isRepoFile });
    expect(evidence.failing).toEqual(['tests/test_error.py']);
    expect(evidence.frames.map((frame) => `${frame.file}:${frame.line}`)).toEqual([
      'tests/__init__.py:9',
      'src/tomli/__init__.py:8',
    ]);
    expect(evidence.assertions[0]).toContain("ImportError: cannot import name 'loads'");
  });

  it("reads Python's own frames, absolute under the worktree, with their function names", () => {
    const output = [
      'Traceback (most recent call last):',
      '  File "/w/tree/src/tomli/_parser.py", line 120, in loads',
      '  File "/usr/lib/python3.11/json/__init__.py", line 3, in dumps',
    ].join('\n');
    expect(readFailureEvidence({ output, isRepoFile, root: '/w/tree' }).frames).toEqual([
      { file: 'src/tomli/_parser.py', line: 120, function: 'loads' },
    ]);
  });

  it('finds nothing in a passing run', () => {
    const output = '============ 14 passed in 0.19s ============';
    expect(readFailureEvidence({ output, isRepoFile })).toEqual({ failing: [], assertions: [], frames: [] });
  });
});
