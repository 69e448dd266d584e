import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveInstance } from '../../../scripts/eval/derive-instance.js';

// A real upstream-style repository: a base, then a fix that changes the code, rewrites an existing test's expected
// value (its old version now fails on the fixed code) and adds a new test. Real pytest in the worker's sandbox.
let dir: string;
let repo: string;
const git = (...args: string[]) =>
  execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-derive-test-'));
  repo = path.join(dir, 'repo');
  await mkdir(path.join(repo, 'tests'), { recursive: true });
  await writeFile(path.join(repo, 'fmt.py'), 'def fmt(x):\n    return str(x)\n\n\ndef twice(x):\n    return 2 * x\n');
  await writeFile(
    path.join(repo, 'tests', 'test_fmt.py'),
    'from fmt import fmt, twice\n\n\ndef test_fmt():\n    assert fmt(1) == "1"\n\n\ndef test_twice():\n    assert twice(2) == 4\n',
  );
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-qm', 'base');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function fix(testFile: string, body = 'return f"<{x}>"'): Promise<string> {
  await writeFile(path.join(repo, 'fmt.py'), `def fmt(x):\n    ${body}\n\n\ndef twice(x):\n    return 2 * x\n`);
  await writeFile(path.join(repo, 'tests', 'test_fmt.py'), testFile);
  await git('commit', '-qam', 'fmt wraps its value');
  return (await git('rev-parse', 'HEAD')).stdout.trim();
}

const derive = (fixCommit: string) =>
  deriveInstance({ id: 'fmt', repo, fixCommit, goal: '-' }, dir, { testCommand: ['python3', '-m', 'pytest'] });

describe('deriveInstance', () => {
  it('reports an existing test the fix rewrites whose old version fails on the fixed code', async () => {
    const sha = await fix(
      'from fmt import fmt, twice\n\n\ndef test_fmt():\n    assert fmt(1) == "<1>"\n\n\ndef test_twice():\n    assert twice(2) == 4\n\n\ndef test_fmt_str():\n    assert fmt("a") == "<a>"\n',
    );
    const derived = await derive(sha);
    expect(derived.instance.failToPass.sort()).toEqual([
      'tests/test_fmt.py::test_fmt',
      'tests/test_fmt.py::test_fmt_str',
    ]);
    expect(derived.instance.passToPass).toEqual(['tests/test_fmt.py::test_twice']);
    expect(derived.rewritten).toEqual([{ id: 'tests/test_fmt.py::test_fmt', outcome: 'failed' }]);
    expect(derived.instance.goal).toBe('fmt wraps its value');
  }, 120_000);

  it('reports nothing when the old versions of the tests it edits still pass on the fixed code', async () => {
    const sha = await fix(
      'from fmt import fmt, twice\n\n\ndef test_fmt():\n    assert fmt(1) == "1"\n    assert fmt(2) == "2"\n\n\ndef test_twice():\n    assert twice(2) == 4\n\n\ndef test_fmt_str():\n    assert fmt("a") == "<a>"\n',
      'return f"<{x}>" if isinstance(x, str) else str(x)',
    );
    // test_fmt is edited (one more assertion), but its old version still passes on the fixed code: no conflict.
    const derived = await derive(sha);
    expect(derived.instance.failToPass).toEqual(['tests/test_fmt.py::test_fmt_str']);
    expect(derived.rewritten).toEqual([]);
  }, 120_000);
});
