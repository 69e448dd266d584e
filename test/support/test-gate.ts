// A test of the repository under test that waits until the test releases it, so an intermediate state (a task in
// its tests, a node running) lasts exactly until the test has seen it, however slow the machine. The sandbox shows
// the repository's .git read-only and hides the rest of /tmp: the gate file lives in the repository's .git folder,
// which the Python test finds from its worktree's `.git` pointer.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const gateFolder = 'taskloop-test-gates';

/** Longest a gated test waits before it fails, naming the gate: a test that forgot to release it fails, not hangs. */
export const GATE_WAIT_S = 150;

/** A pytest file (put it at `tests/test_gate_<name>.py`) whose one test waits for `releaseGate(repo, name)`. */
export function gatedTest(name = 'gate'): Record<string, string> {
  const source = [
    'import pathlib',
    'import time',
    '',
    '',
    'def _git_common_dir():',
    '    root = pathlib.Path(__file__).resolve().parents[1]',
    "    dot_git = root / '.git'",
    '    if dot_git.is_dir():',
    '        return dot_git',
    "    admin = pathlib.Path(dot_git.read_text().split('gitdir:', 1)[1].strip())",
    "    return (admin / (admin / 'commondir').read_text().strip()).resolve()",
    '',
    '',
    `def test_gate_${name}():`,
    `    gate = _git_common_dir() / '${gateFolder}' / '${name}'`,
    `    deadline = time.monotonic() + ${GATE_WAIT_S}`,
    '    while not gate.exists():',
    "        assert time.monotonic() < deadline, f'{gate} was never released'",
    '        time.sleep(0.05)',
    '',
  ].join('\n');
  return { [`tests/test_gate_${name}.py`]: source };
}

/** Lets every run of `gatedTest(name)` in `repo` (its worktrees' too) pass, now and later. */
export async function releaseGate(repo: string, name = 'gate'): Promise<void> {
  const folder = path.join(repo, '.git', gateFolder);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, name), '');
}
