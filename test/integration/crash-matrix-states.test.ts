// The crash matrix, part 2: crashes in states rather than nodes (paused, a second attempt, twice in a row, during
// a hanging test) and a restart as another host (the first one never comes back).
import { afterAll, afterEach, describe, it } from 'vitest';
import { calcFiles, fixTurns, wrongTurns } from '../support/calc-project.js';
import { pauseSignal, resumeSignal } from '../../workflows/messages.js';
import { CrashRun, recordRecovery, recoveries, TEST_HOST_LOST_AFTER_MS } from './support/crash-run.js';
import { eventually, useTestClient } from './support/temporal.js';

const slowFiles = { ...calcFiles, 'tests/test_slow.py': 'import time\n\n\ndef test_slow():\n    time.sleep(4)\n' };

describe('a worker crash in each state of a task', () => {
  const t = useTestClient();
  afterEach(() => CrashRun.stopAll());
  afterAll(() => console.log(recoveries.join('\n')));

  it('while paused (worker kill): resumes after the restart and completes', async () => {
    const run = await CrashRun.start(t.client, { files: slowFiles, coder: fixTurns() });
    await run.handle.signal(pauseSignal);
    await run.waitFor('paused', (state) => state.status === 'PAUSED');
    await run.crash('worker');
    await run.handle.signal(resumeSignal);
    recordRecovery('while paused (worker kill)', await run.finish('COMPLETED'));
  });

  it('in attempt 2 (group kill): the second attempt completes with one commit', async () => {
    const run = await CrashRun.start(t.client, {
      files: slowFiles,
      coder: [...wrongTurns(), ...fixTurns()],
      spec: { maxRetries: 1 },
    });
    await run.waitFor('attempt 2 testing', (state) => state.attempt === 2 && state.phase === 'test');
    await run.crash('group');
    recordRecovery('attempt 2 (group kill)', await run.finish('COMPLETED'));
  });

  it('twice in a row during the tests (worker kill, then group kill): completes', async () => {
    const run = await CrashRun.start(t.client, { files: slowFiles, coder: fixTurns() });
    await run.waitFor('testing', (state) => state.phase === 'test');
    await run.crash('worker');
    // The second kill lands once the restarted worker runs the retried tests.
    await eventually('the retried test run', async () => ((await run.workerHasChildren()) ? true : undefined), 120_000);
    await run.crash('group');
    recordRecovery('double crash (worker, then group kill)', await run.finish('COMPLETED'));
  }, 300_000);

  it('during a hanging test (worker kill): the test times out, the task fails, no test process is left', async () => {
    const hanging = { ...calcFiles, 'tests/test_hang.py': 'import time\n\n\ndef test_hang():\n    time.sleep(3600)\n' };
    const run = await CrashRun.start(t.client, {
      files: hanging,
      coder: fixTurns(),
      spec: { maxRetries: 0, testTimeoutMs: 5_000, envRetryLimit: 0 },
    });
    await run.waitFor('testing', (state) => state.phase === 'test');
    // The kill lands once the hanging test runs (the worker has a child), not after a fixed while.
    await eventually('the hanging test run', async () => ((await run.workerHasChildren()) ? true : undefined), 120_000);
    await run.crash('worker');
    recordRecovery('hanging test (worker kill)', await run.finish('FAILED'));
  });

  it('restarted as another host (group kill during the tests): finishes on the new host', async () => {
    // The lost host takes the coder's change with it: the attempt claimed on the new host codes again.
    const run = await CrashRun.start(t.client, {
      files: slowFiles,
      coder: [...fixTurns(), ...fixTurns()],
      spec: { hostLostAfterMs: TEST_HOST_LOST_AFTER_MS },
    });
    await run.waitFor('testing', (state) => state.phase === 'test');
    await run.crash('group', 'other');
    recordRecovery('lost host, restart as another host (group kill)', await run.finish('COMPLETED'));
  }, 180_000);
});
