import type { Client, Connection } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSkillsFor } from '../../activities/learning/load-skills.js';
import { reportFailure } from '../../activities/learning/report-failure.js';
import { signalFailure } from '../../activities/learning/signal-failure.js';
import { parseSkill } from '../../domain/learning/skills.js';
import type { FailureEventInput } from '../../domain/learning/failure-event.js';
import {
  learningQuery,
  learningStateQuery,
  learningWorkflowId,
  type LearningStateView,
} from '../../workflows/learning/messages.js';
import type { LearningWorkflowInput } from '../../workflows/learning/learning-workflow.js';
import { connectTestClient, eventually, startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';

const draft = (whenItApplies: string) => ({
  content: JSON.stringify({ whenItApplies, whatToDo: 'Read the module the failing test imports before editing.' }),
});
const cacheGoal = (n: number) => `Fix the cache key ignored by the fetcher module, case ${n}`;

describe('the learning workflow on a real server', () => {
  let client: Client;
  let connection: Connection;
  let host: TestWorkerHost;
  let dir: string;
  const started: string[] = [];

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    host = await startTestWorkers({ taskQueue: uniqueId('learning') });
    dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-learning-'));
  });

  afterAll(async () => {
    // Learning workflows run until stopped.
    for (const id of started)
      await client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined);
    await host?.stop();
    await connection?.close();
  });

  async function setUp(skillWriter: { content: string }[], overrides: Partial<LearningWorkflowInput> = {}) {
    const project = uniqueId('p');
    // The skill writer's host mirrors each skill into its own work folder.
    const skillsDir = path.join(host.workDir, 'skills', project);
    const scriptFile = path.join(dir, `${project}.json`);
    await writeFile(scriptFile, JSON.stringify({ skillWriter }));
    const workflow: LearningWorkflowInput = {
      project,
      role: 'coder',
      skillWriterModel: `scripted:${scriptFile}`,
      learning: { enabled: true, roles: ['coder'] },
      ...overrides,
    };
    started.push(learningWorkflowId(project, workflow.role));
    let sent = 0;
    const send = async (description: string, extra: Partial<FailureEventInput> = {}) => {
      sent++;
      const event = {
        workflowId: `task-${project}-t${sent}`,
        taskId: `t${sent}`,
        attempt: 1,
        description,
        failureClass: 'context_problem',
        pattern: 'cross_dep',
        reason: 'tests failed',
        evidence: 'E   ImportError: cannot import name helper',
        ...extra,
      };
      return signalFailure(client, { taskQueue: host.taskQueue, workflow, event });
    };
    const handle = client.workflow.getHandle(learningWorkflowId(project, workflow.role));
    const stateWhen = (what: string, check: (state: LearningStateView) => boolean) =>
      eventually(what, async () => {
        const state = await handle.query(learningStateQuery).catch(() => undefined);
        return state !== undefined && check(state) ? state : undefined;
      });
    return { project, skillsDir, send, handle, stateWhen };
  }

  const skillFiles = async (skillsDir: string) =>
    (await readdir(skillsDir).catch(() => [] as string[])).filter((name) => name.endsWith('.md'));

  it('writes exactly one skill with provenance from two similar failures, clears them, and offers it to a later similar task', async () => {
    const { skillsDir, send, stateWhen, project, handle } = await setUp([
      draft('Fixing the cache key the fetcher module ignores'),
    ]);
    await send(cacheGoal(1));
    await send(cacheGoal(2));

    const state = await stateWhen('a skill written', (s) => s.skills.length === 1);
    expect(state.buffer).toEqual([]);
    expect(state.errors).toEqual([]);
    const files = await skillFiles(skillsDir);
    expect(files).toHaveLength(1);
    const skill = parseSkill(await readFile(path.join(skillsDir, files[0]!), 'utf8'));
    expect(skill.success && skill.data).toMatchObject({
      pattern: 'cross_dep',
      sourceWorkflowIds: [`task-${project}-t1`, `task-${project}-t2`],
    });
    expect(state.skills[0]).toMatchObject({
      id: files[0]!.replace(/\.md$/, ''),
      path: path.join(skillsDir, files[0]!),
      sourceWorkflowIds: [`task-${project}-t1`, `task-${project}-t2`],
    });

    // What it learned holds the skill itself (the file is a mirror) and both failures in the history.
    const learned = await handle.query(learningQuery);
    expect(learned.skills).toEqual([skill.success && skill.data]);
    expect(learned.history.map((record) => record.taskId)).toEqual(['t1', 't2']);
    const offered = findSkillsFor(learned.skills, 'The fetcher module ignores the cache key');
    expect(offered.map((s) => s.id)).toEqual([state.skills[0]!.id]);

    // The cleared pattern does not fire again on one more similar failure.
    await send(cacheGoal(3));
    const after = await stateWhen('the third failure handled', (s) => s.received === 3 && s.pending === 0);
    expect(after.buffer.map((f) => f.taskId)).toEqual(['t3']);
    expect(after.skillWriterCalls).toBe(1);
    expect(await skillFiles(skillsDir)).toHaveLength(1);
  });

  it('writes no skill from two dissimilar failures and keeps both buffered', async () => {
    const { skillsDir, send, stateWhen } = await setUp([draft('unused')]);
    await send(cacheGoal(1));
    await send('Add a divide command to the calculator CLI');

    const state = await stateWhen('both failures handled', (s) => s.received === 2 && s.pending === 0);
    expect(state.buffer.map((f) => f.taskId)).toEqual(['t1', 't2']);
    expect(state.skills).toEqual([]);
    expect(state.skillWriterCalls).toBe(0);
    expect(await skillFiles(skillsDir)).toEqual([]);
  });

  it('only counts failures of a role the learning gate refuses', async () => {
    const { skillsDir, send, stateWhen } = await setUp([draft('Fixing the cache key')], {
      learning: { enabled: true, roles: ['reviewer'] },
    });
    await send(cacheGoal(1));
    await send(cacheGoal(2));

    const state = await stateWhen('both failures handled', (s) => s.received === 2 && s.pending === 0);
    expect(state.ignored).toBe(2);
    expect(state.buffer).toEqual([]);
    expect(state.skills).toEqual([]);
    expect(await skillFiles(skillsDir)).toEqual([]);
  });

  it('distils a skill when the skill writer fails, keeps running, and a model-written skill replaces it when the pattern recurs', async () => {
    const { skillsDir, send, stateWhen, handle } = await setUp([
      { content: 'I think you should be careful.' },
      draft('Fixing the cache key the fetcher module ignores'),
    ]);
    await send(cacheGoal(1));
    await send(cacheGoal(1));
    const distilled = await stateWhen('a distilled skill written', (s) => s.skills.length === 1);
    expect(distilled.skills[0]).toMatchObject({
      writtenBy: 'distilled',
      distilledBecause: expect.stringContaining('skill writer reply is not JSON'),
    });
    expect(distilled.errors).toEqual([]);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    const [file] = await skillFiles(skillsDir);
    expect(await readFile(path.join(skillsDir, file!), 'utf8')).toContain('written_by: distilled');

    await send(cacheGoal(1));
    await send(cacheGoal(1));
    const replaced = await stateWhen('a model-written skill', (s) => s.skills.length === 2);
    expect(replaced.skills[1]).toMatchObject({ id: distilled.skills[0]!.id, writtenBy: 'model' });
    expect(await skillFiles(skillsDir)).toEqual([file]);
    const skill = parseSkill(await readFile(path.join(skillsDir, file!), 'utf8'));
    expect(skill.success && skill.data).toMatchObject({
      writtenBy: 'model',
      sourceWorkflowIds: expect.arrayContaining([expect.stringMatching(/-t1$/), expect.stringMatching(/-t4$/)]),
    });
  });

  it('continues as new and keeps the buffer, so a pair split across runs still makes a skill', async () => {
    const { skillsDir, send, stateWhen, handle } = await setUp([draft('Fixing the cache key the fetcher ignores')], {
      continueAsNewAfter: 1,
    });
    const first = await send(cacheGoal(1));
    const carried = await stateWhen('the first run continued as new', (s) => s.continuedAsNew >= 1);
    expect(carried.buffer.map((f) => f.taskId)).toEqual(['t1']);
    expect((await client.workflow.getHandle(handle.workflowId, first.signaledRunId).describe()).status.name).toBe(
      'CONTINUED_AS_NEW',
    );

    await send(cacheGoal(2));
    const state = await stateWhen('a skill written', (s) => s.skills.length === 1);
    expect(state.buffer).toEqual([]);
    expect(await skillFiles(skillsDir)).toHaveLength(1);
  });

  it('is reached through the reportFailure activity, which starts the workflow on its own queue', async () => {
    const project = uniqueId('p');
    const env = new MockActivityEnvironment({ taskQueue: host.taskQueue }, { client });
    const event = {
      workflowId: `task-${project}-a`,
      taskId: 'a',
      attempt: 2,
      description: cacheGoal(1),
      failureClass: 'context_problem',
    };
    const { workflowId } = (await env.run(reportFailure, { project, role: 'coder', event }, { workDir: dir })) as {
      workflowId: string;
    };
    started.push(workflowId);

    expect(workflowId).toBe(`learning-${project}-coder`);
    const state = await eventually('the failure buffered', async () => {
      const s = await client.workflow
        .getHandle(workflowId)
        .query(learningStateQuery)
        .catch(() => undefined);
      return s?.buffer.length === 1 ? s : undefined;
    });
    expect(state.buffer[0]).toMatchObject({ id: `task-${project}-a#2`, attempt: 2 });
  });
});
