// The attack suite, part five (issue 65): a change of 120,000 files, and a run whose processes the memory cgroup killed
// while pytest exited 0. The first stalled a task ~10 minutes (the review's result went over Temporal's 2 MB payload
// limit and was retried as an environment problem); the second passed with no cause.
import { describe, expect, it } from 'vitest';
import { turn } from '../../support/calc-project.js';
import { useTestTemporal } from '../support/temporal.js';
import { git } from '../support/tasks.js';
import { memoryCgroupAvailable } from './memory-limit.js';
import { causeOf, runAttack } from './attack-support.js';

const canLimitMemory = await memoryCgroupAvailable();
if (!canLimitMemory)
  console.warn('attacks-payloads: the OOM attack is skipped: it needs root and a memory cgroup (see memory-limit.ts)');

const fixedCalc = 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n';
const write = (path: string, content: string) => turn('write_file', { path, content });
const finish = turn('finish', { summary: 'done' });

// 120,000 empty files at import time, so the coder's own run_tests makes them (its run stops over 100,000 new files;
// the files it made stay in the worktree for the test node to take).
const floodFilesTest = `import os

os.makedirs('gen', exist_ok=True)
for i in range(120000):
    open(os.path.join('gen', 'f%06d.txt' % i), 'w').close()

def test_passes():
    assert True
`;

// Children holding 200 MB each under a 512 MB run: the kernel kills one; the test checks no status, pytest exits 0.
const oomChildTest = `import subprocess, sys

CHILD = "b = b'x' * (200 * 1024 * 1024); import time; time.sleep(3)"

def test_children_hold_memory():
    procs = [subprocess.Popen([sys.executable, '-c', CHILD]) for _ in range(3)]
    for proc in procs:
        proc.wait()
`;

/** The largest payload of the workflow's history, in bytes. */
async function largestPayload(t: ReturnType<typeof useTestTemporal>, workflowId: string): Promise<number> {
  const history = await t.client.workflow.getHandle(workflowId).fetchHistory();
  let largest = 0;
  JSON.stringify(history, (key, value: unknown) => {
    // A payload's data comes as base64 (attack-support.ts's historyText reads it so).
    if (key === 'data' && typeof value === 'string') largest = Math.max(largest, Buffer.from(value, 'base64').length);
    if (key === 'data' && value instanceof Uint8Array) largest = Math.max(largest, value.length);
    return value;
  });
  return largest;
}

describe('the attack suite: payloads and the memory of a run', () => {
  const t = useTestTemporal('attack-payloads');

  it('a change of 120,000 files fails at the test node with change_too_large (split the task): no retry, no large payload', async () => {
    const flood = await runAttack(t, [
      write('calc.py', fixedCalc),
      write('tests/test_flood.py', floodFilesTest),
      turn('run_tests', {}),
      finish,
    ]);

    expect(flood.outcome.status).toBe('FAILED');
    const attempt = flood.outcome.attempts[0];
    expect(attempt?.failure).toMatchObject({ node: 'test', failureClass: 'split_task' });
    expect(attempt?.failure?.cause).toMatchObject({ kind: 'ReviewFinding', rule: 'change_too_large' });
    expect(attempt?.failure?.reason).toMatch(/adds \d+ files, more than the 100000 a run may make/);
    expect(attempt?.envRetries ?? 0).toBe(0);
    expect(flood.outcome.attempts).toHaveLength(1);
    expect(flood.outcome.commit).toBeUndefined();
    expect(await git(flood.repo, 'branch', '--list', flood.branch)).toBe('');
    const largest = await largestPayload(t, flood.workflowId);
    expect(largest).toBeGreaterThan(100); // the measure reads the payloads
    expect(largest).toBeLessThan(200_000);
  }, 300_000);

  it.runIf(canLimitMemory)(
    'a run whose child the memory cgroup killed while pytest exited 0 fails with the cause: nothing committed',
    async () => {
      const oom = await runAttack(t, [write('calc.py', fixedCalc), write('tests/test_oom.py', oomChildTest), finish], {
        extra: { limits: { memoryMb: 512 } },
      });

      expect(oom.outcome.status).toBe('FAILED');
      expect(oom.outcome.attempts[0]?.test).toMatchObject({ outcome: 'error', exitCode: 0 });
      expect(causeOf(oom.outcome)).toBe('ResourceLimit');
      expect(oom.outcome.attempts[0]?.failure?.reason).toContain('memory of the whole run (512 MB');
      expect(oom.outcome.commit).toBeUndefined();
      expect(await git(oom.repo, 'branch', '--list', oom.branch)).toBe('');
    },
  );
});
