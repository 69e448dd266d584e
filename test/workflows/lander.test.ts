// The landing queue on stub activities: changes land one at a time in the order queued, a target that moved is
// merged and tested again, and the queue continues as new with what waits carried (nothing lost, nothing twice). A
// task cancelled while its change is queued withdraws it: taken off the queue, or, in hand, never landed.
import { describe, expect, it } from 'vitest';
import type { LandingRequest } from '../../domain/landing.js';
import { enqueueSignal, landerStateQuery, type LanderView } from '../../workflows/land/messages.js';
import type { landerWorkflow } from '../../workflows/land/lander-workflow.js';
import { useStubServer, type StubRun } from './support/environment.js';
import { outcomeOf, startStubTask, stubSpec } from './support/tasks.js';

const request = (project: string, n: number, hostQueue: string): LandingRequest => ({
  taskWorkflowId: `task-${project}-t${n}`,
  taskId: `t${n}`,
  repo: '/repo',
  target: 'main',
  sha: String(n).repeat(40),
  branch: `taskloop/t${n}`,
  hostQueue,
  tests: { command: ['pytest'], testEnv: {}, timeoutMs: 60_000, secretEnvNames: [] },
  queuedAt: '2026-12-07T20:00:00.000Z',
});

const passedRun = {
  outcome: 'passed' as const,
  exitCode: 0,
  counts: { total: 1, passed: 1, failed: 0, errors: 0, skipped: 0 },
  cases: [],
  casesTruncated: false,
  stdoutExcerpt: '',
  stderrExcerpt: '',
  durationMs: 5,
};

describe('the landing queue', () => {
  const server = useStubServer();

  it('lands changes in order, merges again when the target moved, and continues as new with its queue carried', async () => {
    await server.withStubs({}, async (run) => {
      let release = (): void => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const merges: string[] = [];
      const landings: string[] = [];
      let head = 'h0';
      const activities = run.stubs.activities as unknown as Record<string, (input: never) => Promise<unknown>>;
      activities.mergeChange = async (input: { sha: string }) => {
        await gate;
        merges.push(input.sha[0]!);
        return { kind: 'merged', targetHead: head, merged: `m-${input.sha[0]}-${head}`, tree: 't', fastForward: false };
      };
      activities.testMergedTree = async () => passedRun;
      let movedOnce = false;
      activities.landChange = async (input: { sha: string; merged: string }) => {
        // Someone else lands on the target just before the first change's ref update: it must be merged again.
        if (!movedOnce) {
          movedOnce = true;
          head = 'h-other';
          return { kind: 'moved', targetHead: head };
        }
        landings.push(input.sha[0]!);
        head = input.merged;
        return { kind: 'landed', landed: input.merged, alreadyThere: false };
      };

      const handle = await run.client.workflow.start<typeof landerWorkflow>('landerWorkflow', {
        taskQueue: run.taskQueue,
        workflowId: `land-main-${run.project}`,
        args: [{ repo: '/repo', target: 'main', continueAsNewAfter: 2 }],
      });
      const firstRunId = handle.firstExecutionRunId;
      for (const n of [1, 2, 3, 4, 5]) await handle.signal(enqueueSignal, request(run.project, n, run.hostQueue));
      // The same change queued again (a retried enqueue) is one request.
      await handle.signal(enqueueSignal, request(run.project, 3, run.hostQueue));
      release();

      let state = await handle.query(landerStateQuery);
      for (let tries = 0; tries < 2400 && state.landed < 5; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        state = await handle.query(landerStateQuery);
      }
      expect(landings).toEqual(['1', '2', '3', '4', '5']);
      expect(merges).toEqual(['1', '1', '2', '3', '4', '5']);
      expect(state).toMatchObject({ landed: 5, sentBack: 0, refused: 0, waiting: [] });
      expect(state.continuedAsNew).toBeGreaterThanOrEqual(2);
      const latest = await run.client.workflow.getHandle(handle.workflowId).describe();
      expect(latest.runId).not.toBe(firstRunId);
      expect(latest.status.name).toBe('RUNNING');
      await handle.terminate('test over');
    });
  }, 180_000);

  it('a task cancelled while queued to land withdraws its change: never merged or landed, the task CANCELLED', async () => {
    await server.withStubs({}, async (run) => {
      let release = (): void => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const landerId = `land-main-${run.project}`;
      const { merged, tested, landed } = scriptQueue(run, landerId, gate);
      const spec = (name: string) => stubSpec(run, { id: name, landOn: 'main' });
      // A's change is in hand (its merge waits on the gate); B and C wait behind it.
      const a = await startStubTask(run, spec('a'));
      await eventuallyQueue(run, landerId, (view) => view.current?.taskId === 'a');
      const b = await startStubTask(run, spec('b'));
      await eventuallyQueue(run, landerId, (view) => view.waiting.length === 2);
      const c = await startStubTask(run, spec('c'));
      await eventuallyQueue(run, landerId, (view) => view.waiting.length === 3);

      // `taskloop cancel` of B (waiting) and A (in hand): a workflow cancel request each.
      await b.cancel();
      await a.cancel();
      const bOutcome = await outcomeOf(b);
      expect(bOutcome.status).toBe('CANCELLED');
      expect(bOutcome.landing).toMatchObject({ status: 'withdrawn', target: 'main', sha: 'c'.repeat(40) });
      expect(bOutcome.landing?.status === 'withdrawn' && bOutcome.landing.reason).toMatch(
        /task b was cancelled .*, while it waited/,
      );
      expect(
        (await eventuallyQueue(run, landerId, (view) => view.waiting.length === 2)).waiting.map((w) => w.taskId),
      ).toEqual(['a', 'c']);
      release();

      const aOutcome = await outcomeOf(a);
      expect(aOutcome.status).toBe('CANCELLED');
      expect(aOutcome.landing?.status === 'withdrawn' && aOutcome.landing.reason).toMatch(/before its test$/);
      expect((await outcomeOf(c)).landing).toMatchObject({ status: 'landed', landed: 'm-c' });
      // A was merged (it was in hand) but never tested or landed; B was never touched; C went through.
      expect(merged).toEqual(['a', 'c']);
      expect(tested).toEqual(['c']);
      expect(landed).toEqual(['c']);
      const view = await eventuallyQueue(run, landerId, (state) => state.landed === 1);
      expect(view).toMatchObject({ landed: 1, withdrawn: 2, sentBack: 0, refused: 0, waiting: [] });
      // The branches are kept: a cancel of a queued task removes no worktree and no branch beyond the usual.
      await run.client.workflow.getHandle(landerId).terminate('test over');
    });
  }, 180_000);
});

/** The task's enqueue starts this test's lander; its steps record which task's change reached them. */
function scriptQueue(run: StubRun, landerId: string, gate: Promise<void>) {
  const merged: string[] = [];
  const tested: string[] = [];
  const landed: string[] = [];
  const taskOf = (input: { taskWorkflowId: string }) => input.taskWorkflowId.split('-').at(-1)!;
  const activities = run.stubs.activities as unknown as Record<string, (input: never) => Promise<unknown>>;
  activities.enqueueLanding = async (request: LandingRequest) => {
    await run.client.workflow.signalWithStart<typeof landerWorkflow, [LandingRequest]>('landerWorkflow', {
      workflowId: landerId,
      taskQueue: run.taskQueue,
      args: [{ repo: request.repo, target: request.target }],
      signal: enqueueSignal,
      signalArgs: [request],
    });
    return { landerId };
  };
  activities.mergeChange = async (input: { taskWorkflowId: string }) => {
    await gate;
    merged.push(taskOf(input));
    return { kind: 'merged', targetHead: 'h0', merged: `m-${taskOf(input)}`, tree: 't', fastForward: false };
  };
  activities.testMergedTree = async (input: { taskWorkflowId: string }) => {
    tested.push(taskOf(input));
    return passedRun;
  };
  activities.landChange = async (input: { taskWorkflowId: string; merged: string }) => {
    landed.push(taskOf(input));
    return { kind: 'landed', landed: input.merged, alreadyThere: false };
  };
  return { merged, tested, landed };
}

async function eventuallyQueue(run: StubRun, landerId: string, until: (view: LanderView) => boolean) {
  for (let tries = 0; tries < 1200; tries++) {
    const view = await run.client.workflow
      .getHandle(landerId)
      .query(landerStateQuery)
      .catch(() => undefined);
    if (view && until(view)) return view;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the landing queue never reached the state the test waits for');
}
