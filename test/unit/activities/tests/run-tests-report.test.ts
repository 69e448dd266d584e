// pytest's JUnit report is both the proof that tests ran and input written where repository code can reach: a run
// that removed it or emptied it is no pass, and a link, a FIFO or a swapped report folder is never read. Real pytest,
// in the worker's sandbox mode (the report folder swap only unsandboxed: bubblewrap binds that folder in place).
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../../../activities/sandbox/index.js';
import { runTests } from '../../../../activities/tests/run-tests.js';
import { removeDirs } from '../../../support/git-repo.js';
import { makePythonProject } from './python-project.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const CANARY = 'CANARY-OUTSIDE-THE-REPORT-FOLDER';

// What the code under test does to the report once pytest wrote it (at exit, after pytest's own end), chosen by
// ATTACK_KIND; a failing test, so only the forgery could make the run pass.
const reportAttack = `import atexit, os, shutil, sys

def _attack():
    report = next((a.split('=', 1)[1] for a in sys.argv if a.startswith('--junitxml=')), None)
    kind = os.environ['ATTACK_KIND']
    if report is None:
        return
    if kind == 'delete':
        os.remove(report)
    elif kind == 'empty':
        open(report, 'w').write('<?xml version="1.0"?><testsuites><testsuite tests="0"/></testsuites>')
    elif kind == 'link':
        os.remove(report)
        os.symlink(os.environ['ATTACK_TARGET'], report)
    elif kind == 'fifo':
        os.remove(report)
        os.mkfifo(report)
    elif kind == 'folder':
        shutil.rmtree(os.path.dirname(report))
        os.symlink(os.environ['ATTACK_TARGET'], os.path.dirname(report))
    os._exit(0)

atexit.register(_attack)
`;

const failingTest = 'def test_add():\n    assert 1 + 1 == 3\n';

async function attack(kind: string, options: { target?: string; sandbox?: 'none' } = {}) {
  const input = await makePythonProject({ 'conftest.py': reportAttack, 'tests/test_add.py': failingTest }, dirs);
  const sandbox = options.sandbox
    ? sandboxPolicyFor(resolveWorkerSandbox({ workDir: input.root, flag: options.sandbox }))
    : input.sandbox;
  const testEnv = { ...input.testEnv, ATTACK_KIND: kind, ...(options.target ? { ATTACK_TARGET: options.target } : {}) };
  return { input, result: await runTests({ ...input, sandbox, testEnv }) };
}

/** A folder outside every run holding a report that says a forged test passed, and the canary as a plain file. */
async function forgedFolder(): Promise<string> {
  const { root } = await makePythonProject({}, dirs);
  const folder = path.join(root, 'elsewhere');
  await mkdir(folder);
  await writeFile(path.join(folder, 'canary.txt'), `${CANARY}\n`);
  await writeFile(
    path.join(folder, 'junit.xml'),
    `<testsuites><testsuite tests="1"><testcase classname="forged" name="test_${CANARY}"/></testsuite></testsuites>`,
  );
  return folder;
}

/** Files below `dir` (links not followed) whose bytes hold `needle`. */
async function filesHolding(dir: string, needle: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  const holding = await Promise.all(files.map(async (file) => ((await readFile(file)).includes(needle) ? file : '')));
  return holding.filter(Boolean);
}

describe('the JUnit report proves a run', () => {
  it('calls a pytest run whose code deleted the report and exited 0 no pass, naming the missing report', async () => {
    const { result } = await attack('delete');
    expect(result.exitCode).toBe(0);
    expect(result.outcome).toBe('error');
    expect(result.cause).toMatchObject({ kind: 'TestRunUnproven', details: { missing: 'report' } });
    expect(result.reason).toContain('left no JUnit report');
  });

  it('calls a pytest run whose report was emptied and that exited 0 no pass, naming the missing test case', async () => {
    const { result } = await attack('empty');
    expect(result.outcome).toBe('error');
    expect(result.cause).toMatchObject({ kind: 'TestRunUnproven', details: { missing: 'test case' } });
  });
});

describe('the JUnit report is read as untrusted input', () => {
  it('never follows a link at the report path to a host file', async () => {
    const folder = await forgedFolder();
    const { input, result } = await attack('link', { target: path.join(folder, 'canary.txt') });
    expect(result).toMatchObject({ outcome: 'error', cause: { kind: 'UnsafeTestOutput' } });
    expect(result.reason).toContain('symbolic link');
    expect(JSON.stringify(result)).not.toContain(CANARY);
    expect(await filesHolding(input.artifactDir, CANARY)).toEqual([]);
  });

  it('never blocks on a FIFO at the report path', async () => {
    const { result } = await attack('fifo');
    expect(result).toMatchObject({ outcome: 'error', cause: { kind: 'UnsafeTestOutput' } });
    expect(result.reason).toContain('FIFO');
  });

  it('never reads a report through a report folder swapped for a link out (unsandboxed, where the swap works)', async () => {
    const folder = await forgedFolder();
    const { input, result } = await attack('folder', { target: folder, sandbox: 'none' });
    expect(result).toMatchObject({ outcome: 'error', cause: { kind: 'UnsafeTestOutput' } });
    expect(result.cases).toEqual([]);
    expect(JSON.stringify(result)).not.toContain(CANARY);
    expect(await filesHolding(input.artifactDir, CANARY)).toEqual([]);
    // The folder the link named is left as it was: only the link is removed.
    expect(await readFile(path.join(folder, 'canary.txt'), 'utf8')).toContain(CANARY);
  });
});
