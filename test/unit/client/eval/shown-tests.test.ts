// `taskloop eval --tests shown` on a real repository in a temp folder: a bug, then its upstream fix with a regression
// test. The shown instance starts from the base with the fix's tests committed on it; the bug is still there.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInstances } from '../../../../client/eval/resolve-instances.js';
import { showTests } from '../../../../client/eval/shown-tests.js';
import { UsageError } from '../../../../client/cli-errors.js';
import type { Suite } from '../../../../domain/eval/suite.js';
import { shownTestCommand } from '../../../../domain/eval/shown-tests.js';

let dir: string;
let upstream: string;
const git = async (cwd: string, ...args: string[]) =>
  (await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd })).stdout;

const buggy = 'def add(a, b):\n    return a - b\n';
const fixedTests = 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n';

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-shown-'));
  upstream = path.join(dir, 'upstream');
  await mkdir(path.join(upstream, 'tests'), { recursive: true });
  await writeFile(path.join(upstream, 'calc.py'), buggy);
  await writeFile(path.join(upstream, 'tests', 'test_calc.py'), 'def test_nothing():\n    assert True\n');
  await git(upstream, 'init', '-q', '-b', 'main');
  await git(upstream, 'add', '-A');
  await git(upstream, 'commit', '-qm', 'base');
  await writeFile(path.join(upstream, 'calc.py'), 'def add(a, b):\n    return a + b\n');
  await writeFile(path.join(upstream, 'tests', 'test_calc.py'), fixedTests);
  await git(upstream, 'commit', '-qam', 'fix add, with its test');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function instance() {
  const suite: Suite = {
    name: 'tiny',
    defaults: { testCommand: ['python3', '-m', 'pytest', '-q'], testEnv: { PYTHONPATH: 'src' } },
    instances: [
      {
        id: 'calc-add',
        repo: upstream,
        fixCommit: await git(upstream, 'rev-parse', 'HEAD'),
        goal: 'add subtracts.',
        passToPass: ['tests/test_calc.py::test_add', 'tests/test_other.py::test_x'],
      },
    ],
  };
  const [resolved] = await resolveInstances(suite, {
    suiteDir: dir,
    cacheDir: path.join(dir, 'cache'),
    scriptsDir: path.join(dir, 'scripts'),
  });
  return resolved!;
}

describe('eval --tests shown', () => {
  it("starts from the base with the fix's tests committed on it, runs the tests that decide, names them in the goal", async () => {
    const hidden = await instance();
    const shown = await showTests(hidden);
    expect(shown.baseSha).not.toBe(hidden.baseSha);
    expect(await git(upstream, 'rev-parse', `${shown.baseSha}^`)).toBe(hidden.baseSha);
    expect(await git(upstream, 'rev-parse', 'refs/taskloop/tests-shown/calc-add')).toBe(shown.baseSha);
    // The fix's test, not its code: the bug is still there for the coder to fix.
    expect(await git(upstream, 'show', `${shown.baseSha}:tests/test_calc.py`)).toBe(fixedTests.trimEnd());
    expect(await git(upstream, 'show', `${shown.baseSha}:calc.py`)).toBe(buggy.trimEnd());
    expect(shown.testCommand).toEqual([
      ...['python3', '-m', 'pytest', '-q'],
      ...['tests/test_calc.py::test_add', 'tests/test_other.py::test_x'],
    ]);
    expect(shown.goal).toBe(
      'add subtracts.\n\nThe tests that show the bug (they fail now and must pass after the fix): tests/test_calc.py::test_add. Run them with: PYTHONPATH=src python3 -m pytest -q tests/test_calc.py::test_add',
    );
    // Verification is unchanged: the same hidden tests laid over, the same lists checked.
    expect({ ...shown.overlay, f2p: shown.failToPass }).toEqual({ ...hidden.overlay, f2p: hidden.failToPass });
    // Running it again makes the same commit (fixed identity and date): a resumed eval finds the same base.
    expect((await showTests(hidden)).baseSha).toBe(shown.baseSha);
  });

  it('says which instance could not be shown, and the fix', async () => {
    const hidden = await instance();
    const broken = { ...hidden, overlay: { ref: 'no-such-ref', paths: ['tests/test_calc.py'] } };
    await expect(showTests(broken)).rejects.toThrow(UsageError);
    await expect(showTests(broken)).rejects.toThrow(
      /^taskloop eval --tests shown: instance calc-add: cannot lay the fix's tests \(tests\/test_calc\.py\) on [0-9a-f]{12} in .*: git diff failed; fix: run it with --tests hidden$/,
    );
  });

  it('runs each test id once', () => {
    expect(shownTestCommand(['pytest'], ['a.py::x'], ['a.py::x', 'a.py::y'])).toEqual(['pytest', 'a.py::x', 'a.py::y']);
  });
});
