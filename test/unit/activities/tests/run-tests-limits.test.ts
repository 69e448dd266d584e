// The written-bytes limit of a test run covers the worktree and the sandbox's /tmp together, and holds for a run that
// finished between two of the worker's looks: a run found over it at its end is no pass either. Real pytest, bwrap.
import { afterEach, describe, expect, it } from 'vitest';
import { runTests } from '../../../../activities/tests/run-tests.js';
import { removeDirs } from '../../../support/git-repo.js';
import { memoryCgroupAvailable } from '../../../integration/sandbox/memory-limit.js';
import { makePythonProject } from './python-project.js';

const canLimitMemory = await memoryCgroupAvailable();
if (!canLimitMemory)
  console.warn(
    'run-tests-limits: the OOM test is skipped: it needs root and a memory cgroup (cgroup v1 memory, or v2 with the memory controller)',
  );

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

// 12 MB in /tmp and 12 MB in the worktree, quickly: each under 16 MB, together over it.
const floodTest = `def test_write_tmp_and_worktree():
    chunk = b'x' * (1024 * 1024)
    for target in ('/tmp/flood.bin', 'flood.bin'):
        with open(target, 'wb') as handle:
            for _ in range(12):
                handle.write(chunk)
`;

describe.runIf((process.env.TASKLOOP_SANDBOX ?? 'bwrap') === 'bwrap')('the written-bytes limit of a test run', () => {
  it('counts /tmp with the worktree, and fails a run found over it at its end', async () => {
    const input = await makePythonProject({ 'tests/test_flood.py': floodTest }, dirs);
    const sandbox = { ...input.sandbox, limits: { ...input.sandbox.limits, writtenMb: 16 } };

    const result = await runTests({ ...input, sandbox });

    expect(result.counts.passed).toBe(1);
    expect(result.outcome).toBe('error');
    expect(result.cause).toMatchObject({ kind: 'ResourceLimit' });
    expect(result.reason).toContain('written bytes (over 16 MB added to the worktree and /tmp)');
  });

  it('passes the same run under a limit that holds both', async () => {
    const input = await makePythonProject({ 'tests/test_flood.py': floodTest }, dirs);
    const sandbox = { ...input.sandbox, limits: { ...input.sandbox.limits, writtenMb: 64 } };
    expect((await runTests({ ...input, sandbox })).outcome).toBe('passed');
  });
});

// Three children of 160 MB each under a 256 MB run: the kernel kills one; the test checks no child's status, so pytest
// exits 0 with its one case passed. Before issue 65 that was a pass with no cause.
const oomChildTest = `import subprocess, sys

CHILD = "b = b'x' * (160 * 1024 * 1024); import time; time.sleep(2)"

def test_children_hold_memory():
    procs = [subprocess.Popen([sys.executable, '-c', CHILD]) for _ in range(3)]
    for proc in procs:
        proc.wait()
`;

describe.runIf(canLimitMemory)('a test run whose processes the memory cgroup killed', () => {
  it('is no pass even when pytest exits 0: the cause names the memory of the whole run', async () => {
    const input = await makePythonProject({ 'tests/test_oom.py': oomChildTest }, dirs);
    const sandbox = { ...input.sandbox, limits: { ...input.sandbox.limits, memoryMb: 256 } };

    const result = await runTests({ ...input, sandbox });

    expect(result.exitCode).toBe(0);
    expect(result.counts.passed).toBe(1);
    expect(result.outcome).toBe('error');
    expect(result.cause).toMatchObject({ kind: 'ResourceLimit' });
    expect(result.reason).toContain('memory of the whole run (256 MB');
  });
});
