// Input refused up front: a resource limit out of its range and an acceptance id that is not a pytest node id never
// start a task (they used to start one that failed on every run, read as the change's fault).
import { describe, expect, it } from 'vitest';
import { isPytestNodeId } from '../../../domain/pytest-node-id.js';
import { limitNames, limitRanges } from '../../../domain/sandbox-limits.js';
import { parseTaskSpec } from '../../../domain/task-spec.js';

const spec = { id: 't1', repo: './repo', goal: 'fix add', models: { coder: 'scripted:turns.json' } };

describe('the task spec refuses absurd limits', () => {
  it('refuses limits.processes: 1e12, naming the field, the value and the fix', () => {
    const parsed = parseTaskSpec({ ...spec, limits: { processes: 1e12 } });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.issues).toHaveLength(1);
    expect(parsed.error).toBe(
      "limits.processes: expected a whole number of processes from 4 to 65536, got 1000000000000 (set limits.processes to e.g. 256, or leave it out for the worker's default)",
    );
  });

  it('bounds every limit field above and below, and accepts its bounds', () => {
    for (const name of limitNames) {
      const { min, max } = limitRanges[name];
      for (const bad of [max + 1, min - 1, 1e12]) {
        const parsed = parseTaskSpec({ ...spec, limits: { [name]: bad } });
        expect(parsed.success, `${name}: ${bad}`).toBe(false);
        if (!parsed.success) expect(parsed.error).toContain(`limits.${name}: expected a whole number of`);
      }
      for (const good of [min, max]) expect(parseTaskSpec({ ...spec, limits: { [name]: good } }).success).toBe(true);
    }
  });
});

describe('the task spec refuses acceptance ids that are not pytest node ids', () => {
  it('accepts files, classes, functions and parametrisations', () => {
    for (const id of [
      'tests/test_x.py',
      'test_x.py::test_y',
      'tests/unit/test_x.py::TestX::test_y',
      'tests/test_x.py::test_y[1-2]',
      'tests/test_x.py::test_y[a b::c]',
      'tests/tést_ü.py::test_ü',
    ])
      expect(isPytestNodeId(id), id).toBe(true);
  });

  it('refuses names without a file, other separators, paths out and options', () => {
    for (const id of [
      'test_add',
      'add works',
      'tests/test_x.py:test_y',
      'tests/test_x.py::',
      'tests/test_x.py::test y',
      'tests/test_x',
      'tests/',
      '/abs/tests/test_x.py::test_y',
      '../tests/test_x.py::test_y',
      'tests/./test_x.py',
      '-k test_y',
      'tests\\test_x.py::test_y',
      'tests/test_x.py[1]',
    ])
      expect(isPytestNodeId(id), id).toBe(false);
  });

  it('names the field, the value and the fix', () => {
    const parsed = parseTaskSpec({ ...spec, acceptanceTests: ['tests/test_x.py::test_y', 'test add works'] });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.error).toMatch(
      /^acceptanceTests\.1: expected a pytest node id.*got "test add works" \(write it like "tests\/test_x\.py::test_y"/,
    );
  });
});
