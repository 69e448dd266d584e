import { describe, expect, it } from 'vitest';
import { readRunSites, regressionNotes } from '../../../../domain/evidence-first/regressions.js';

// pytest's long traceback for fix-median at the base (the even case fails at line 19) and after an edit that fixed it
// and broke the odd case (line 18), as the demo's run_tests saw them.
const longAt = (marked: string, line: number, got: string) => `F                                          [100%]
=================================== FAILURES ===================================
_________________________________ test_median __________________________________

    def test_median():
${line === 19 ? '        assert median([3, 1, 2]) == 2\n' : ''}>       ${marked}
E       ${got}

tests/test_calc.py:${line}: AssertionError
=========================== short test summary info ============================
FAILED tests/test_calc.py::test_median - ${got}
1 failed in 0.02s`;
const median = [{ id: 'tests/test_calc.py::test_median', outcome: 'failed' }];
const base = readRunSites(longAt('assert median([1, 2]) == 1.5', 19, 'assert 2 == 1.5'), median);
const after = readRunSites(longAt('assert median([3, 1, 2]) == 2', 18, 'assert 1.5 == 2'), median);

describe('readRunSites', () => {
  it("reads each failing test's line in its test file and the line pytest marked", () => {
    expect(base.sites.get('tests/test_calc.py::test_median')).toEqual({
      file: 'tests/test_calc.py',
      line: 19,
      source: 'assert median([1, 2]) == 1.5',
    });
  });

  it('keeps the test frame, not the module frame, when the error is raised in the code under test', () => {
    const output = `____ TestStats.test_mean[empty] ____

    def test_mean(self):
>       assert mean([]) == 0

tests/test_stats.py:7: 
_ _ _ _

    def mean(values):
>       return sum(values) / len(values)
E       ZeroDivisionError: division by zero

stats.py:2: ZeroDivisionError
==== short test summary info ====`;
    const sites = readRunSites(output, [{ id: 'tests/test_stats.py::TestStats::test_mean[empty]', outcome: 'failed' }]);
    expect(sites.sites.get('tests/test_stats.py::TestStats::test_mean[empty]')).toEqual({
      file: 'tests/test_stats.py',
      line: 7,
      source: 'assert mean([]) == 0',
    });
  });

  it('reads short tracebacks (no marked line)', () => {
    const output =
      '____ test_add ____\ntests/test_calc.py:4: in test_add\n    assert add(1, 2) == 3\nE   assert -1 == 3';
    expect(
      readRunSites(output, [{ id: 'tests/test_calc.py::test_add', outcome: 'failed' }]).sites.get(
        'tests/test_calc.py::test_add',
      ),
    ).toEqual({ file: 'tests/test_calc.py', line: 4 });
  });
});

describe('regressionNotes', () => {
  it('says a test now stops at a line the base got past, and where the base stopped', () => {
    expect(regressionNotes(base, after)).toEqual([
      'compared with the base (before any change):',
      '- tests/test_calc.py::test_median now fails at tests/test_calc.py:18 (`assert median([3, 1, 2]) == 2`), a line the tests got past before your change (at the base it failed later, at tests/test_calc.py:19 (`assert median([1, 2]) == 1.5`)): the code must make both hold.',
    ]);
  });

  it('says nothing when the test fails where it did, or later (progress)', () => {
    expect(regressionNotes(base, base)).toEqual([]);
    expect(regressionNotes(after, base)).toEqual([]);
  });

  it('names a test that passed at the base and fails now', () => {
    const before = readRunSites('', [
      { id: 'tests/test_calc.py::test_add', outcome: 'passed' },
      { id: 'tests/test_calc.py::test_median', outcome: 'failed' },
    ]);
    const now = readRunSites('', [
      { id: 'tests/test_calc.py::test_add', outcome: 'failed' },
      { id: 'tests/test_calc.py::test_median', outcome: 'passed' },
    ]);
    expect(regressionNotes(before, now)).toEqual([
      'compared with the base (before any change):',
      '- tests/test_calc.py::test_add passed before your change and fails now: your change broke it; keep it passing.',
    ]);
  });
});
