// Pause and cancel at every node of the task graph: a pause stops the task before the node (its activity is not
// called until resume), a cancel while paused ends it CANCELLED without running the node, and a cancel during a
// running node stops that node.
import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import type { TaskNode } from '../../domain/records.js';
import { cancelSignal, pauseSignal, resumeSignal } from '../../workflows/messages.js';
import { useStubServer, type StubRun } from './support/environment.js';
import { type NodeName, type StubScript } from './support/stubs.js';
import { outcomeOf, startStubTask, stubSpec, waitForState } from './support/tasks.js';
import { activitiesIn } from '../support/history-activities.js';

/**
 * For each node: the node that runs before its checkpoint (where a pause is sent). The claim runs as a local activity
 * in the workflow task that starts the coder, so a pause sent during the claim holds before the tests (below).
 */
const nodes: { node: TaskNode & NodeName; before?: NodeName }[] = [
  { node: 'claim' },
  { node: 'test', before: 'code' },
  { node: 'review', before: 'test' },
  { node: 'judge', before: 'review' },
  { node: 'commit', before: 'judge' },
];

/** The script that pauses the task from inside `before` (the pause lands before the next checkpoint). */
function pauseAfter(run: () => StubRun, before: NodeName | undefined): StubScript {
  if (!before) return {};
  const step = async (input: { workflowId: string }) => {
    await run().client.workflow.getHandle(input.workflowId).signal(pauseSignal);
    return run().stubs.runDefault(before, input as never);
  };
  return { [before]: step } as StubScript;
}

/**
 * Starts a task that pauses before `node`; with no activity before it, the pause is sent with the start. The task names
 * a judge model: the judge's rules run in the workflow, its model's verdict is the judge node's activity.
 */
async function startPausedAt(run: StubRun, before: NodeName | undefined) {
  const spec = stubSpec(run, { models: { coder: 'scripted:coder.json', judge: 'scripted:judge.json' } });
  if (before) return startStubTask(run, spec);
  return run.client.workflow.signalWithStart('taskWorkflow', {
    taskQueue: run.taskQueue,
    workflowId: `task-${spec.project}-${spec.id}`,
    args: [{ spec }],
    signal: pauseSignal,
    signalArgs: [],
  });
}

describe('pause and cancel at every node', () => {
  const server = useStubServer();

  it.each(nodes)('a pause before $node holds the node until resume', async ({ node, before }) => {
    let current: StubRun | undefined;
    const script = pauseAfter(() => current!, before);
    await server.withStubs(script, async (run) => {
      current = run;
      const handle = await startPausedAt(run, before);
      await waitForState(handle, 'paused', (state) => state.status === 'PAUSED');
      expect(run.stubs.calls[node]).toHaveLength(0);
      await handle.signal(resumeSignal);
      const outcome = await outcomeOf(handle);
      expect(outcome.status).toBe('COMPLETED');
      expect(run.stubs.calls[node]).toHaveLength(1);
    });
  });

  it.each(nodes)('a cancel while paused before $node ends the task without running it', async ({ node, before }) => {
    let current: StubRun | undefined;
    await server.withStubs(
      pauseAfter(() => current!, before),
      async (run) => {
        current = run;
        const handle = await startPausedAt(run, before);
        await waitForState(handle, 'paused', (state) => state.status === 'PAUSED');
        await handle.signal(cancelSignal, { reason: 'not needed' });
        const outcome = await outcomeOf(handle);
        expect(outcome.status).toBe('CANCELLED');
        expect(outcome.reason).toBe('not needed');
        expect(run.stubs.calls[node]).toHaveLength(0);
        expect(run.stubs.calls.commit).toHaveLength(0);
        // A claimed worktree is removed whatever ended the attempt.
        expect(run.stubs.calls.removals).toBe(before ? 1 : 0);
      },
    );
  });

  it('a pause sent while the claim runs holds the attempt before its tests', async () => {
    let current: StubRun | undefined;
    await server.withStubs(
      pauseAfter(() => current!, 'claim'),
      async (run) => {
        current = run;
        const handle = await startStubTask(run);
        await waitForState(handle, 'paused', (state) => state.status === 'PAUSED');
        // The claim is a local activity: when the pause reaches the workflow in the task that completes the claim,
        // the coder never starts; when it comes in the next one, the coder was already scheduled and runs to its end
        // (a CI run here saw both). Either way nothing runs the tests while paused.
        expect(run.stubs.calls.code.length).toBeLessThanOrEqual(1);
        expect(run.stubs.calls.test).toHaveLength(0);
        await handle.signal(resumeSignal);
        expect((await outcomeOf(handle)).status).toBe('COMPLETED');
        expect(run.stubs.calls.test).toHaveLength(1);
      },
    );
  });

  it('a cancel during the coder stops it, removes the worktree and commits nothing', async () => {
    const script: StubScript = {
      code: async (input) => {
        const { client } = current!;
        await client.workflow.getHandle(input.workflowId).signal(cancelSignal, { reason: 'stop now' });
        // A real coder heartbeats and ends when cancelled: so does this one.
        for (;;) {
          Context.current().heartbeat();
          if (Context.current().cancellationSignal.aborted) throw new CancelledFailure('coder cancelled');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
    };
    let current: StubRun | undefined;
    await server.withStubs(script, async (run) => {
      current = run;
      const outcome = await outcomeOf(await startStubTask(run));
      expect(outcome.status).toBe('CANCELLED');
      expect(outcome.attempts[0]?.status).toBe('CANCELLED');
      expect(run.stubs.calls.test).toHaveLength(0);
      expect(run.stubs.calls.removals).toBe(1);
    });
  });

  it('a workflow cancel request ends the workflow cancelled, with its outcome in the state', async () => {
    let current: StubRun | undefined;
    await server.withStubs(
      pauseAfter(() => current!, 'code'),
      async (run) => {
        current = run;
        const handle = await startStubTask(run);
        await waitForState(handle, 'paused', (state) => state.status === 'PAUSED');
        await handle.cancel();
        const outcome = await outcomeOf(handle);
        expect(outcome.status).toBe('CANCELLED');
        expect(run.stubs.calls.test).toHaveLength(0);
        expect(run.stubs.calls.commit).toHaveLength(0);
      },
    );
  });

  // `taskloop cancel` sends the signal, then the request: the signal alone may end the task first (a CI run saw the
  // workflow end Completed with a CANCELLED outcome). The task waits for the request the signal says follows.
  it('a cancel signal that says a cancel request follows waits for it: the workflow ends cancelled', async () => {
    await server.withStubs({}, async (run) => {
      const handle = await startPausedAt(run, undefined);
      await waitForState(handle, 'paused', (state) => state.status === 'PAUSED');
      await handle.signal(cancelSignal, { reason: 'not needed', requestFollows: true });
      await waitForState(handle, 'the outcome', (state) => state.status === 'CANCELLED');
      expect((await handle.describe()).status.name).toBe('RUNNING');
      await handle.cancel();
      expect(await outcomeOf(handle)).toMatchObject({ status: 'CANCELLED', reason: 'not needed' });
      expect((await handle.describe()).status.name).toBe('CANCELLED');
    });
  });

  it('a cancel signal whose request never comes ends the task CANCELLED after the wait, the workflow completed', async () => {
    await server.withStubs({}, async (run) => {
      const handle = await startPausedAt(run, undefined);
      await waitForState(handle, 'paused', (state) => state.status === 'PAUSED');
      await handle.signal(cancelSignal, { reason: 'sender died', requestFollows: true });
      expect(await outcomeOf(handle)).toMatchObject({ status: 'CANCELLED', reason: 'sender died' });
      expect((await handle.describe()).status.name).toBe('COMPLETED');
    });
  });

  it('runs each node as one activity of its own, the claim a local one, the judge without a model none: a pause sent during the tests holds before the review', async () => {
    let current: StubRun | undefined;
    await server.withStubs(
      pauseAfter(() => current!, 'test'),
      async (run) => {
        current = run;
        const handle = await startStubTask(run);
        await waitForState(handle, 'paused', (state) => state.status === 'PAUSED');
        expect(run.stubs.calls.review).toHaveLength(0);
        await handle.signal(resumeSignal);
        const outcome = await outcomeOf(handle);
        expect(outcome.status).toBe('COMPLETED');
        expect(outcome.commit).toMatchObject({ sha: 'c'.repeat(40), created: true });
        expect(outcome.attempts[0]?.judge).toMatchObject({ passed: true });
        expect(run.stubs.calls.removals).toBe(1);
        const history = (await handle.fetchHistory()).events ?? [];
        expect(activitiesIn(history).map(({ type, local }) => (local ? `${type} (local)` : type))).toEqual([
          'claimWorktree (local)',
          'runCoder',
          'runTests',
          'reviewChanges',
          'commitWorktree',
        ]);
      },
    );
  });
});
