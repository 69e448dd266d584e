// The landing queue on stub activities: changes land one at a time in the order queued, a target that moved is
// merged and tested again, and the queue continues as new with what waits carried (nothing lost, nothing twice).
import { describe, expect, it } from 'vitest';
import type { LandingRequest } from '../../domain/landing.js';
import { enqueueSignal, landerStateQuery } from '../../workflows/land/messages.js';
import type { landerWorkflow } from '../../workflows/land/lander-workflow.js';
import { useStubServer } from './support/environment.js';

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
});
