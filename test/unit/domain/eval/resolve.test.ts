import { describe, expect, it } from 'vitest';
import { compactNodeIds } from '../../../../domain/eval/compact-ids.js';
import { decideResolved } from '../../../../domain/eval/resolve.js';

const base = { sha: 'abc', checked: 'commit' as const };

describe('decideResolved', () => {
  it('is resolved when every FAIL_TO_PASS test passes and every PASS_TO_PASS test still passes', () => {
    const verdict = decideResolved({
      ...base,
      failToPass: ['t.py::test_a'],
      passToPass: ['t.py::TestB'],
      cases: [
        { id: 't.py::test_a[1]', outcome: 'passed' },
        { id: 't.py::test_a[2]', outcome: 'passed' },
        { id: 't.py::TestB::test_x', outcome: 'passed' },
        { id: 't.py::TestB::test_y', outcome: 'skipped' },
      ],
    });
    expect(verdict).toMatchObject({
      resolved: true,
      failToPass: { total: 1, passed: 1, notPassing: {} },
      passToPass: { total: 1, passed: 1, notPassing: {} },
    });
  });

  it('is not resolved when a PASS_TO_PASS test broke, even though FAIL_TO_PASS passes', () => {
    const verdict = decideResolved({
      ...base,
      failToPass: ['t.py::test_a'],
      passToPass: ['t.py::test_b'],
      cases: [
        { id: 't.py::test_a', outcome: 'passed' },
        { id: 't.py::test_b', outcome: 'failed' },
      ],
    });
    expect(verdict.resolved).toBe(false);
    expect(verdict.reason).toBe('PASS_TO_PASS broken: t.py::test_b (failed)');
  });

  it('counts a test that never ran, or was skipped, as not passing FAIL_TO_PASS', () => {
    const verdict = decideResolved({
      ...base,
      failToPass: ['t.py::test_a', 't.py::test_c'],
      passToPass: [],
      cases: [{ id: 't.py::test_c', outcome: 'skipped' }],
    });
    expect(verdict.failToPass).toEqual({
      total: 2,
      passed: 0,
      notPassing: { 't.py::test_a': 'missing', 't.py::test_c': 'failed' },
    });
    expect(verdict.resolved).toBe(false);
  });
});

describe('compactNodeIds', () => {
  it('writes a class, file or parametrised test whose every case is listed as one id, and keeps the rest', () => {
    const all = ['a.py::C::t1', 'a.py::C::t2', 'a.py::D::t1', 'a.py::D::t2', 'b.py::t[1]', 'b.py::t[2]', 'c.py::x'];
    const chosen = ['a.py::C::t1', 'a.py::C::t2', 'a.py::D::t1', 'b.py::t[1]', 'b.py::t[2]', 'c.py::x'];
    expect(compactNodeIds(chosen, all)).toEqual(['a.py::C', 'a.py::D::t1', 'b.py', 'c.py']);
  });
});
