// Worker Deployment Versioning: a task started on version A stays on A while version B (with changed workflow
// code) becomes current; a task started after that runs on B.
import type { WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { TaskOutcome } from '../../domain/task-state.js';
import { pauseSignal, resumeSignal } from '../../workflows/messages.js';
import { fixTurns, makeCalcProject } from '../support/calc-project.js';
import { startTestTask, taskSpec, waitForState } from './support/tasks.js';
import { uniqueId, useTestClient } from './support/temporal.js';
import { startVersion } from './support/versions.js';

const noop = () => undefined;
const quiet = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop };

async function versionOf(handle: WorkflowHandle) {
  const description = await handle.describe();
  const info = description.raw.workflowExecutionInfo?.versioningInfo;
  return { buildId: info?.deploymentVersion?.buildId, behavior: info?.behavior };
}

async function ranVersionBCode(handle: WorkflowHandle): Promise<boolean> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).some((event) => event.timerStartedEventAttributes);
}

describe('upgrading workers while tasks run', () => {
  const t = useTestClient();
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  it('keeps a running task on version A while version B becomes current; new tasks run on B', async () => {
    const queue = uniqueId('versions');
    const deploymentName = uniqueId('taskloop-itest');
    const a = await startVersion(queue, deploymentName, 'A', { codePath: inject('workflowBundlePath') });
    stops.push(a.stop);
    expect(a.current).toBe(true);

    const first = await makeCalcProject({ coder: fixTurns() });
    const running = await startTestTask(
      t.client,
      queue,
      taskSpec({ repo: first.repo, goal: 'Fix add in calc.py', models: { coder: `scripted:${first.scriptFile}` } }),
    );
    await running.signal(pauseSignal);
    await waitForState(running, 'the first task paused on A', (state) => state.status === 'PAUSED');

    const bPath = fileURLToPath(new URL('./support/workflows-version-b.ts', import.meta.url));
    const { code } = await bundleWorkflowCode({ workflowsPath: bPath, logger: quiet });
    const b = await startVersion(queue, deploymentName, 'B', { code });
    stops.push(b.stop);
    expect(b.current).toBe(true);

    await running.signal(resumeSignal);
    expect(((await running.result()) as TaskOutcome).status).toBe('COMPLETED');
    expect(await versionOf(running)).toEqual({ buildId: 'A', behavior: 1 });
    expect(await ranVersionBCode(running)).toBe(false);

    const second = await makeCalcProject({ coder: fixTurns() });
    const fresh = await startTestTask(
      t.client,
      queue,
      taskSpec({ repo: second.repo, goal: 'Fix add in calc.py', models: { coder: `scripted:${second.scriptFile}` } }),
    );
    expect(((await fresh.result()) as TaskOutcome).status).toBe('COMPLETED');
    expect(await versionOf(fresh)).toEqual({ buildId: 'B', behavior: 1 });
    expect(await ranVersionBCode(fresh)).toBe(true);
  });
});
