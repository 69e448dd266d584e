// The retry's warmer sampling as the coder activity wires it (samplingForAttempt over the previous attempts): the
// request a retry sends differs from the first attempt's, through createCoderActivity and a model server.
import { MockActivityEnvironment } from '@temporalio/testing';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCoderActivity } from '../../../../activities/coder-activity.js';
import { resolveWorkerSandbox } from '../../../../activities/sandbox/index.js';
import type { CoderInput } from '../../../../activities/task-activity-types.js';
import { makeRepo, makeTempDir, removeDirs } from '../../../support/git-repo.js';
import { chatReply, startLocalModelServer, type LocalModelServer } from '../models/support/local-model-server.js';

const dirs: string[] = [];
let server: LocalModelServer;
beforeEach(async () => {
  server = await startLocalModelServer();
  process.env.OPENAI_BASE_URL = `${server.url}/v1`;
});
afterEach(async () => {
  delete process.env.OPENAI_BASE_URL;
  await server.close();
  await removeDirs(dirs);
});

async function runCoderOnce(attempt: number): Promise<void> {
  const worktreePath = await makeRepo({ 'calc.py': 'def add(a, b):\n    return a - b\n' });
  const workDir = await makeTempDir();
  dirs.push(worktreePath, workDir);
  const activity = createCoderActivity({
    hostId: 'host-sampling',
    workDir,
    workerSandbox: resolveWorkerSandbox({ workDir }),
    artifactDir: (ref) => path.join(workDir, 'artifacts', `${ref.attempt}`),
  });
  const earlier = Array.from({ length: attempt - 1 }, (_, i) => ({
    attempt: i + 1,
    status: 'failed',
    reviewFindings: [],
    judgeFindings: [],
  }));
  const input: CoderInput = {
    workflowId: 'wf-sampling',
    attempt,
    worktreePath,
    goal: 'Fix add',
    modelSpec: 'openai:qwen2.5-coder-0.5b',
    maxSteps: 1,
    startTurn: 0,
    previousAttempts: earlier,
    secretEnvNames: [],
    skills: [],
  };
  await new MockActivityEnvironment().run(activity.runCoder, input).catch(() => undefined);
}

describe('the coder activity samples a retry warmer', () => {
  it('sends the first attempt as the version says, and a retry warmer with a seed', async () => {
    server.push({ body: chatReply('looking') }, { body: chatReply('looking') });
    await runCoderOnce(1);
    await runCoderOnce(2);
    expect(server.requests).toHaveLength(2);
    const [first, retry] = server.requests.map((request) => request.body);
    expect(first?.seed).toBeUndefined();
    expect(retry?.seed).toEqual(expect.any(Number));
    expect(retry?.temperature).toBeGreaterThan((first?.temperature as number | undefined) ?? 0);
  });
});
