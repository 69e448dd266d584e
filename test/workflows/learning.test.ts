// The learning workflow on stub activities: similar failures that recur get a skill written once (and the pattern
// cleared), a dissimilar one does not, a re-sent signal is not counted twice, a refused role is only counted,
// and a failed skill writer is recorded, not thrown.
import { describe, expect, it } from 'vitest';
import type { FailureEventInput } from '../../domain/learning/failure-event.js';
import {
  failureSignal,
  learningStateQuery,
  learningWorkflowId,
  type LearningStateView,
} from '../../workflows/learning/messages.js';
import type { learningWorkflow } from '../../workflows/learning/learning-workflow.js';
import { useStubServer, type StubRun } from './support/environment.js';
import { activityFails, type StubScript } from './support/stubs.js';

const failure = (run: StubRun, n: number, description: string): FailureEventInput => ({
  workflowId: `task-${run.project}-t${n}`,
  taskId: `t${n}`,
  attempt: 1,
  description,
  failureClass: 'code_defect',
  pattern: 'wrong_constant',
  reason: 'tests failed: expected 0.2 got 0.25',
  evidence: 'assert rate == 0.2',
});

const taxGoal = 'fix the tax rate constant in billing so invoices total correctly';
const taxGoalAgain = 'fix the tax rate constant in billing so refunds total correctly';

async function startLearning(run: StubRun, roles = ['coder']) {
  return run.client.workflow.start<typeof learningWorkflow>('learningWorkflow', {
    taskQueue: run.taskQueue,
    workflowId: learningWorkflowId(run.project, 'coder'),
    args: [{ project: run.project, role: 'coder', skillsDir: '/skills', learning: { enabled: true, roles } }],
  });
}

async function stateWhen(
  handle: Awaited<ReturnType<typeof startLearning>>,
  done: (state: LearningStateView) => boolean,
): Promise<LearningStateView> {
  for (let tries = 0; tries < 300; tries++) {
    const state = await handle.query(learningStateQuery);
    if (state.pending === 0 && done(state)) return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the learning workflow never reached the expected state');
}

describe('the learning workflow', () => {
  const server = useStubServer();

  it('writes one skill when similar failures recur, and clears their pattern', async () => {
    await server.withStubs({}, async (run) => {
      const handle = await startLearning(run);
      await handle.signal(failureSignal, failure(run, 1, taxGoal));
      await handle.signal(failureSignal, failure(run, 1, taxGoal)); // re-sent: the same workflow attempt
      await handle.signal(failureSignal, failure(run, 2, 'rename the cli flag --verbose to --debug'));
      const before = await stateWhen(handle, (state) => state.received === 3);
      expect(before.duplicates).toBe(1);
      expect(run.stubs.calls.skill).toHaveLength(0);

      await handle.signal(failureSignal, failure(run, 3, taxGoalAgain));
      const after = await stateWhen(handle, (state) => state.skills.length === 1);
      expect(run.stubs.calls.skill).toHaveLength(1);
      const call = run.stubs.calls.skill[0]!;
      expect(call.sourceWorkflowIds.sort()).toEqual([`task-${run.project}-t1`, `task-${run.project}-t3`]);
      expect(call.failures).toHaveLength(2);
      // The group that got its skill leaves the buffer; the unrelated failure stays.
      expect(after.buffer.map((entry) => entry.taskId)).toEqual(['t2']);
      await handle.terminate();
    });
  });

  it('only counts the failures of a role that may not learn', async () => {
    await server.withStubs({}, async (run) => {
      const handle = await startLearning(run, ['reviewer']);
      await handle.signal(failureSignal, failure(run, 1, taxGoal));
      await handle.signal(failureSignal, failure(run, 2, taxGoalAgain));
      const state = await stateWhen(handle, (view) => view.received === 2);
      expect(state.ignored).toBe(2);
      expect(run.stubs.calls.skill).toHaveLength(0);
      await handle.terminate();
    });
  });

  it('records a failed skill writer as an error and keeps running', async () => {
    const script: StubScript = { skill: activityFails('ModelAuth', 'the skill writer key was refused') };
    await server.withStubs(script, async (run) => {
      const handle = await startLearning(run);
      await handle.signal(failureSignal, failure(run, 1, taxGoal));
      await handle.signal(failureSignal, failure(run, 2, taxGoalAgain));
      const state = await stateWhen(handle, (view) => view.errors.length === 1);
      expect(state.errors[0]?.message).toContain('ModelAuth');
      expect(state.skills).toHaveLength(0);
      expect((await handle.describe()).status.name).toBe('RUNNING');
      await handle.terminate();
    });
  });
});
