import { describe, expect, it } from 'vitest';
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
    expect(verdict).toMatchObject({ resolved: true, failToPass: { 't.py::test_a': 'passed' } });
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
    expect(verdict.failToPass).toEqual({ 't.py::test_a': 'missing', 't.py::test_c': 'failed' });
    expect(verdict.resolved).toBe(false);
  });
});
