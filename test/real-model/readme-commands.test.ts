// The local-model commands of docs/models.md, run as written (the block after `<!-- local-model-commands -->`): only the
// port 8080 becomes a free one (this machine is shared), and Temporal, the queue and $REPO come from the test.
import { execa, type ResultPromise } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../platform/paths.js';
import { findFreePort } from '../../platform/server/ports.js';
import { makeCalcProject } from '../support/calc-project.js';
import { documentedCommands, exportedVariables, waitForText } from '../support/documented-commands.js';
import { taskOutcome } from '../integration/support/tasks.js';
import { eventually, uniqueId, useTestClient, workerProcessEnv } from '../integration/support/temporal.js';
import { expectNothingLeft, expectTruthfulEnd, isAlive, recordOutcome } from './support.js';

/** What a long-running command prints once it is ready. */
const readyTexts: [RegExp, string][] = [
  [/taskloop model serve/, 'export OPENAI_BASE_URL='],
  [/taskloop worker/, 'serving task queues'],
];

const background: ResultPromise[] = [];
const testClient = useTestClient();

afterAll(async () => {
  // Each background command is its own process group (sh, npx, node, the server): stopped whole.
  for (const child of background) if (child.pid) process.kill(-child.pid, 'SIGTERM');
  await Promise.all(background.map((child) => child.catch(() => undefined)));
});

describe('the local-model commands of docs/models.md', () => {
  it('install, serve, a worker pointed at the server and a task run work as written', async () => {
    const port = await findFreePort();
    const project = await makeCalcProject({});
    const env: NodeJS.ProcessEnv = { ...(await workerProcessEnv(uniqueId('readme-model'))), REPO: project.repo };
    const lines = (await documentedCommands('docs/models.md', 'local-model-commands')).map((line) =>
      line.replaceAll('8080', String(port)),
    );
    let serverPid: number | undefined;
    let runOutput = '';
    const started = Date.now();

    for (const line of lines) {
      const exported = exportedVariables(line);
      if (exported) {
        for (const [name, value] of exported) env[name] = value;
        continue;
      }
      if (line.endsWith('&')) {
        const command = line.slice(0, -1).trim();
        const readyText = readyTexts.find(([pattern]) => pattern.test(command))?.[1];
        if (!readyText) throw new Error(`no ready text known for the documented background command: ${command}`);
        const child = execa('sh', ['-c', command], { cwd: projectRoot, env, all: true, reject: false, detached: true });
        background.push(child);
        const output = await waitForText(child, readyText, 120_000);
        serverPid ??= Number(/serving \S+ at \S+ \(pid (\d+)/.exec(output)?.[1]) || undefined;
        continue;
      }
      const result = await execa('sh', ['-c', line], { cwd: projectRoot, env, all: true, reject: false });
      if (/taskloop run /.test(line)) {
        // The task may fail (a 270M model); the command's exit says which: 0 COMPLETED, 1 FAILED.
        expect([0, 1], result.all).toContain(result.exitCode);
        runOutput = result.all ?? '';
      } else expect(result.exitCode, `${line}\n${result.all}`).toBe(0);
    }

    expect(serverPid, 'model serve printed its pid').toBeGreaterThan(0);
    expect(isAlive(serverPid as number)).toBe(true);
    const workflowId = /started (task-\S+)/.exec(runOutput)?.[1];
    expect(workflowId, runOutput).toBeDefined();
    const outcome = await taskOutcome(testClient.client.workflow.getHandle(workflowId as string));
    await recordOutcome('documented local-model commands', outcome, Date.now() - started);
    expectTruthfulEnd(outcome);
    expect(outcome.budget?.spent.modelCalls).toBeGreaterThan(0);
    expect(outcome.budget?.spent.inputTokens).toBeGreaterThan(0);
    await expectNothingLeft(project.repo, outcome);

    for (const child of background.splice(0)) {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      await child;
    }
    await eventually('llama-server to stop with model serve', async () =>
      isAlive(serverPid as number) ? undefined : true,
    );
  });
});
