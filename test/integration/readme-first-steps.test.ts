// The README's first steps run as written: its first task on "your own repository" and its first tasks file, with
// the OpenAI provider pointed at a local chat-completions server (the test's stand-in for gpt-4o), on the test server.
// What the test substitutes: $REPO (a calc project), the server's port, and OPENAI_BASE_URL.
import { execa, type ResultPromise } from 'execa';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../../platform/paths.js';
import { makeCalcProject } from '../support/calc-project.js';
import { documentedBlock, documentedCommands, exportedVariables, waitForText } from '../support/documented-commands.js';
import {
  chatReply,
  startLocalModelServer,
  type LocalModelServer,
  type ScriptedReply,
} from '../unit/activities/models/support/local-model-server.js';
import { git, taskloopCommits, taskOutcome } from './support/tasks.js';
import { uniqueId, useTestClient, workerProcessEnv } from './support/temporal.js';

const tool = (name: string, args: Record<string, unknown>): ScriptedReply => ({
  body: chatReply('', [{ name, arguments: args }]),
});
const fixAdd = [
  tool('replace_in_file', { path: 'calc.py', old: 'return a - b', new: 'return a + b' }),
  tool('finish', { summary: 'add() now adds.' }),
];
const documentMul = [
  tool('replace_in_file', { path: 'calc.py', old: 'def mul(a, b):', new: 'def mul(a, b):\n    """a times b."""' }),
  tool('finish', { summary: 'documented mul().' }),
];

const background: ResultPromise[] = [];
let model: LocalModelServer | undefined;
const testClient = useTestClient();

afterAll(async () => {
  // Each background command is its own process group (sh, npx, node): stopped whole.
  for (const child of background) if (child.pid) process.kill(-child.pid, 'SIGTERM');
  await Promise.all(background.map((child) => child.catch(() => undefined)));
  await model?.close();
});

/** Runs one documented line in `sh` from the project folder, as the README says to. */
const shell = (line: string, env: NodeJS.ProcessEnv) =>
  execa('sh', ['-c', line], { cwd: projectRoot, env, all: true, reject: false });

describe("the README's first steps", () => {
  it('a first task on your own repository, then a first tasks file, work as written', async () => {
    model = await startLocalModelServer([...fixAdd, ...fixAdd, ...documentMul]);
    const project = await makeCalcProject({});
    const port = inject('temporalAddress').split(':').pop() as string;
    const env: NodeJS.ProcessEnv = {
      ...(await workerProcessEnv(uniqueId('readme-first'))),
      OPENAI_BASE_URL: `${model.url}/v1`,
    };

    // A first task.
    let runOutput = '';
    for (const line of await documentedCommands('README.md', 'first-task-commands')) {
      const exported = exportedVariables(line);
      if (exported) {
        // The reader's repository is the test's calc project.
        for (const [name, value] of exported) env[name] = name === 'REPO' ? project.repo : value;
        continue;
      }
      if (line.endsWith('&')) {
        const child = execa('sh', ['-c', line.slice(0, -1)], {
          cwd: projectRoot,
          env,
          all: true,
          reject: false,
          detached: true,
        });
        background.push(child);
        // Started from dist/ as the README's reader starts it, the worker runs the workflows as the build bundled them
        // (scripts/build.mjs), not bundled again by webpack at this start. Its banner ends with that line.
        const banner = await waitForText(child, '  workflows: ', 60_000);
        expect(banner).toContain('serving task queues');
        expect(banner).toContain(
          `workflows: bundled by the build (${path.join(projectRoot, 'dist', 'workflows', 'bundle.js')})`,
        );
        continue;
      }
      // The test's server is already up: `server --detach` on its port finds it and starts nothing.
      const result = await shell(/taskloop server/.test(line) ? `${line} --port ${port}` : line, env);
      expect(result.exitCode, `${line}\n${result.all}`).toBe(0);
      if (/taskloop server/.test(line)) expect(result.all).toContain('nothing to start');
      if (/taskloop run /.test(line)) runOutput = result.all ?? '';
    }
    const workflowId = /started (task-\S+)/.exec(runOutput)?.[1];
    expect(workflowId, runOutput).toBeDefined();
    const outcome = await taskOutcome(testClient.client.workflow.getHandle(workflowId as string));
    expect(outcome.status).toBe('COMPLETED');
    expect(await taskloopCommits(project.repo, outcome.commit?.branch as string)).toHaveLength(1);
    expect(model.requests.map((request) => request.body.model)).toEqual(['gpt-4o', 'gpt-4o']);
    expect(model.requests[0]?.headers.authorization).toBe(`Bearer ${env.OPENAI_API_KEY as string}`);

    // A first tasks file, saved at the top of the repository, started by the command below it.
    await writeFile(path.join(project.repo, 'tasks.yaml'), await documentedBlock('README.md', 'first-tasks-file'));
    const schedule = await documentedCommands('README.md', 'first-tasks-schedule');
    expect(schedule).toHaveLength(1);
    const scheduled = await shell(schedule[0] as string, env);
    expect(scheduled.exitCode, scheduled.all).toBe(0);
    for (const id of ['fix-add', 'document-mul']) {
      expect(scheduled.all).toMatch(new RegExp(`${id} +COMPLETED`));
      expect(await taskloopCommits(project.repo, `taskloop/${id}`)).toHaveLength(1);
    }
    // dependsOn ordered them: document-mul's change was made after fix-add's, each from the base commit.
    expect(await git(project.repo, 'show', 'taskloop/document-mul:calc.py')).toContain('"""a times b."""');
    expect(await git(project.repo, 'show', 'taskloop/document-mul:calc.py')).toContain('return a - b');
    expect(model.requests).toHaveLength(6);
  }, 180_000);
});
