// A deployment upgraded across the rename loses nothing: a project whose learning workflow was started before it
// (`reflection-<project>-<role>`, type reflectionWorkflow) keeps being read and fed there while it runs; a project
// without one gets `learning-<project>-<role>`; `taskloop clean` judges both.
import { WorkflowNotFoundError, type Client, type Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProjectLearning } from '../../activities/learning/read-project-learning.js';
import { signalFailure } from '../../activities/learning/signal-failure.js';
import { findIdleLearningWorkflows } from '../../client/clean/learning.js';
import type { FailureEventInput } from '../../domain/learning/failure-event.js';
import type { LearningWorkflowInput } from '../../workflows/learning/learning-workflow.js';
import {
  failureSignal,
  learningQuery,
  learningWorkflowId,
  memoryQuery,
  reflectionWorkflowId,
} from '../../workflows/learning/messages.js';
import { connectTestClient, eventually, startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';

const workflowInput = (project: string): LearningWorkflowInput => ({
  project,
  role: 'coder',
  learning: { enabled: true, roles: ['coder'] },
});

const failure = (project: string, n: number): FailureEventInput => ({
  workflowId: `task-${project}-t${n}`,
  taskId: `t${n}`,
  attempt: 1,
  description: 'Fix the rounding of totals in the invoice module',
  failureClass: 'code_defect',
  pattern: 'wrong_constant',
  reason: 'tests failed',
  evidence: 'E   assert 10.0 == 10.5',
});

describe('learning workflows started before the rename', () => {
  let client: Client;
  let connection: Connection;
  let host: TestWorkerHost;
  const started: string[] = [];

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    host = await startTestWorkers({ taskQueue: uniqueId('before-rename') });
  });

  afterAll(async () => {
    for (const id of started)
      await client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined);
    await host?.stop();
    await connection?.close();
  });

  /** Feeds `project`'s workflow as a host of the release before the rename did: old type, old id. */
  async function startAsBeforeTheRename(project: string, failures: number[]) {
    const workflowId = reflectionWorkflowId(project, 'coder');
    started.push(workflowId);
    for (const n of failures)
      await client.workflow.signalWithStart('reflectionWorkflow', {
        workflowId,
        taskQueue: host.taskQueue,
        args: [workflowInput(project)],
        signal: failureSignal,
        signalArgs: [failure(project, n)],
      });
    return client.workflow.getHandle(workflowId);
  }

  it('reads and signals the running reflection-<project>-<role> that holds the skill, and starts no second one', async () => {
    const project = uniqueId('old');
    const old = await startAsBeforeTheRename(project, [1, 2]);
    // Two similar failures: the skill is distilled (no skill-writer model) and kept in the old workflow.
    await eventually('the skill in the old workflow', async () => {
      const learned = await old.query(memoryQuery).catch(() => undefined);
      return learned?.skills.length === 1 ? learned : undefined;
    });

    const read = await readProjectLearning(client, project);
    expect(read.skills).toHaveLength(1);
    expect(read.history.map((record) => record.taskId)).toEqual(['t1', 't2']);

    const signalled = await signalFailure(client, {
      taskQueue: host.taskQueue,
      workflow: workflowInput(project),
      event: failure(project, 3),
    });
    expect(signalled.workflowId).toBe(old.workflowId);
    await eventually('the third failure in the old workflow', async () => {
      const learned = await old.query(learningQuery).catch(() => undefined);
      return learned?.history.length === 3 ? learned : undefined;
    });
    expect((await old.describe()).type).toBe('reflectionWorkflow');
    await expect(client.workflow.getHandle(learningWorkflowId(project, 'coder')).describe()).rejects.toThrow(
      WorkflowNotFoundError,
    );
  });

  it('starts learning-<project>-<role> for a project without a running one, and answers both query names', async () => {
    const project = uniqueId('new');
    const signalled = await signalFailure(client, {
      taskQueue: host.taskQueue,
      workflow: workflowInput(project),
      event: failure(project, 1),
    });
    started.push(signalled.workflowId);
    expect(signalled.workflowId).toBe(`learning-${project}-coder`);
    expect((await signalled.describe()).type).toBe('learningWorkflow');
    const read = await eventually('the failure learned', async () => {
      const learned = await readProjectLearning(client, project);
      return learned.history.length === 1 ? learned : undefined;
    });
    // `memory` is the query's name before the rename, kept for one release: the same answer.
    expect(await signalled.query(memoryQuery)).toEqual(read);
  });

  it('goes to the new id once the old workflow has ended', async () => {
    const project = uniqueId('ended');
    const old = await startAsBeforeTheRename(project, [1]);
    await eventually('the failure in the old workflow', async () => {
      const learned = await old.query(memoryQuery).catch(() => undefined);
      return learned?.history.length === 1 ? learned : undefined;
    });
    await old.terminate('ended by the test');
    const signalled = await signalFailure(client, {
      taskQueue: host.taskQueue,
      workflow: workflowInput(project),
      event: failure(project, 2),
    });
    started.push(signalled.workflowId);
    expect(signalled.workflowId).toBe(learningWorkflowId(project, 'coder'));
  });

  it('is found by the clean under either prefix, and kept while it holds what was learned', async () => {
    const oldProject = uniqueId('clean-old');
    const newProject = uniqueId('clean-new');
    const old = await startAsBeforeTheRename(oldProject, [1]);
    const fresh = await signalFailure(client, {
      taskQueue: host.taskQueue,
      workflow: workflowInput(newProject),
      event: failure(newProject, 1),
    });
    started.push(fresh.workflowId);
    for (const handle of [old, fresh])
      await eventually(`the failure in ${handle.workflowId}`, async () => {
        const learned = await handle.query(memoryQuery).catch(() => undefined);
        return learned?.history.length === 1 ? learned : undefined;
      });
    const idle = async (project: string) =>
      findIdleLearningWorkflows(client, { project, olderThanMs: -1, nowMs: Date.now() });
    // Visibility lags a start by a moment on the dev server.
    const found = await eventually('both in the list', async () => {
      const both = [...(await idle(oldProject)), ...(await idle(newProject))];
      return both.length === 2 ? both : undefined;
    });
    expect(found.map(({ workflowId, learned }) => ({ workflowId, learned }))).toEqual([
      { workflowId: old.workflowId, learned: { skills: 0, failures: 1 } },
      { workflowId: fresh.workflowId, learned: { skills: 0, failures: 1 } },
    ]);
  });
});
