// The README's first steps run as written: its first task on the demo's project, with a key and without one, how to
// look at it, its first tasks file and how to stop everything, with the OpenAI provider pointed at a local
// chat-completions server (the test's stand-in for gpt-4o, and for the key-free server), on the test server.
// What the test substitutes: $REPO (a calc project, as the demo makes it), the server's port, OPENAI_BASE_URL, the
// task id `run` printed for ID, and a temporary file for the page `show --html` writes.
import { execa, type ResultPromise } from 'execa';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../../platform/paths.js';
import { findDevServersUsing } from '../../platform/server/db-holders.js';
import { findFreePort } from '../../platform/server/ports.js';
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
let keyFreeModel: LocalModelServer | undefined;
const testClient = useTestClient();

afterAll(async () => {
  // Each background command is its own process group (sh, npx, node): stopped whole.
  for (const child of background) if (child.pid) process.kill(-child.pid, 'SIGTERM');
  await Promise.all(background.map((child) => child.catch(() => undefined)));
  await model?.close();
  await keyFreeModel?.close();
});

/** Runs one documented line in `sh` from the project folder, as the README says to. */
const shell = (line: string, env: NodeJS.ProcessEnv) =>
  execa('sh', ['-c', line], { cwd: projectRoot, env, all: true, reject: false });

/** The variables a documented `export` line sets, the reader's repository and model server being the test's. */
function applyExports(line: string, env: NodeJS.ProcessEnv, substitutes: Record<string, string>): boolean {
  const exported = exportedVariables(line);
  if (!exported) return false;
  for (const [name, value] of exported) env[name] = substitutes[name] ?? value;
  return true;
}

/** The first task's commands in `env`: the worker in the background, `server` on the test's port. Returns run's output. */
async function runFirstTask(env: NodeJS.ProcessEnv, substitutes: Record<string, string>): Promise<string> {
  const port = inject('temporalAddress').split(':').pop() as string;
  let runOutput = '';
  for (const line of await documentedCommands('README.md', 'first-task-commands')) {
    if (applyExports(line, env, substitutes)) continue;
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
  return runOutput;
}

describe("the README's first steps", () => {
  it('a first task with a key and without one, a look at it, then a first tasks file, work as written', async () => {
    model = await startLocalModelServer([...fixAdd, ...fixAdd, ...documentMul]);
    const modelUrl = `${model.url}/v1`;
    // The key-free server of its own: a 1.5B model runs the small-model coder, whose turns differ from the champion's.
    keyFreeModel = await startLocalModelServer([...fixAdd, ...fixAdd, ...fixAdd]);

    // A first task with a key: the stand-in serves as gpt-4o at OPENAI_BASE_URL.
    const project = await makeCalcProject({});
    const withKey: NodeJS.ProcessEnv = {
      ...(await workerProcessEnv(uniqueId('readme-key'))),
      OPENAI_BASE_URL: modelUrl,
    };
    for (const line of await documentedCommands('README.md', 'first-task-with-a-key')) applyExports(line, withKey, {});
    const runOutput = await runFirstTask(withKey, { REPO: project.repo });
    const workflowId = /started (task-\S+)/.exec(runOutput)?.[1];
    expect(workflowId, runOutput).toBeDefined();
    const outcome = await taskOutcome(testClient.client.workflow.getHandle(workflowId as string));
    expect(outcome.status).toBe('COMPLETED');
    expect(await taskloopCommits(project.repo, outcome.commit?.branch as string)).toHaveLength(1);
    expect(model.requests.map((request) => request.body.model)).toEqual(['gpt-4o', 'gpt-4o']);
    expect(model.requests[0]?.headers.authorization).toBe(`Bearer ${withKey.OPENAI_API_KEY as string}`);

    // How to look at it: ID is the task id run printed.
    const page = path.join(await mkdtemp(path.join(os.tmpdir(), 'taskloop-readme-page-')), 'task.html');
    const looks: Record<string, string> = {};
    for (const line of await documentedCommands('README.md', 'first-task-look')) {
      const result = await shell(line.replaceAll('ID', workflowId as string).replace('task.html', page), withKey);
      expect(result.exitCode, `${line}\n${result.all}`).toBe(0);
      looks[line] = result.all ?? '';
    }
    expect(looks['npx taskloop list']).toContain(workflowId);
    expect(looks['npx taskloop show ID']).toContain('replace_in_file');
    expect(await readFile(page, 'utf8')).toContain(workflowId);
    expect(looks['npx taskloop ui']).toContain('/namespaces/default/workflows');

    // Without a key: OPENAI_BASE_URL names the model server on this machine, and no key is set anywhere.
    const keyFree = await makeCalcProject({});
    const withoutKey: NodeJS.ProcessEnv = await workerProcessEnv(uniqueId('readme-no-key'));
    delete withoutKey.OPENAI_API_KEY;
    for (const line of await documentedCommands('README.md', 'first-task-without-a-key'))
      applyExports(line, withoutKey, { OPENAI_BASE_URL: `${keyFreeModel.url}/v1` });
    const keyFreeRun = await runFirstTask(withoutKey, { REPO: keyFree.repo });
    const keyFreeId = /started (task-\S+)/.exec(keyFreeRun)?.[1];
    expect(keyFreeId, keyFreeRun).toBeDefined();
    expect((await taskOutcome(testClient.client.workflow.getHandle(keyFreeId as string))).status).toBe('COMPLETED');
    // A model of 1.5B by its name runs the small-model coder (docs/models.md): every turn went to that model, no key.
    const keyFreeModels = keyFreeModel.requests.map((request) => request.body.model);
    expect(keyFreeModels.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keyFreeModels)).toEqual(new Set([withoutKey.MODEL?.replace(/^openai:/, '')]));
    expect(keyFreeModel.requests[0]?.headers.authorization ?? '').not.toContain('sk-');
    expect(model.requests).toHaveLength(2);

    // A first tasks file, saved at the top of the repository, started by the command below it.
    const env = withKey;
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
    // Two turns for each of the tasks file's two tasks, with the key's model.
    expect(model.requests).toHaveLength(6);
  }, 240_000);

  it('stop everything stops the server that server --detach started', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'taskloop-readme-home-'));
    const env = {
      ...process.env,
      TEMPORAL_CLI: inject('temporalCli'),
      TASKLOOP_HOME: home,
      TEMPORAL_ADDRESS: `127.0.0.1:${await findFreePort()}`,
    };
    const started = await shell('npx taskloop server --detach --headless', env);
    expect(started.exitCode, started.all).toBe(0);
    try {
      const stop = await documentedCommands('README.md', 'stop-everything');
      expect(stop).toEqual(['npx taskloop server stop']);
      const stopped = await shell(stop[0] as string, env);
      expect(stopped.exitCode, stopped.all).toBe(0);
      expect(stopped.all).toContain('Stopped the Temporal dev server');
    } finally {
      for (const server of await findDevServersUsing(path.join(home, 'temporal.db')))
        process.kill(server.pid, 'SIGTERM');
    }
  });
});
