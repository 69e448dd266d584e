// Two of the demo's tasks as a person runs them with the real `taskloop` CLI, for the Web UI screenshots: fix-add
// run to completion (scripted coder), and fix-mean paused before its first node, as an operator finds one.
import { Client, Connection } from '@temporalio/client';
import { execa, type ResultPromise } from 'execa';
import path from 'node:path';
import { exampleDir } from '../../client/demo/prepare-repo.js';
import { taskWorkflowId } from '../../domain/task-spec.js';
import { projectRoot } from '../../platform/paths.js';

const taskloopBin = path.join(projectRoot, 'bin', 'taskloop.js');

/** The demo's task definitions (examples/calc/tasks.yaml) as `taskloop run` flags. */
const demoTasks = {
  'fix-add': {
    goal: 'Fix calc.add: it subtracts instead of adding (tests/test_calc.py::test_add fails).',
    testCommand: "python3 -m pytest -q tests/test_calc.py -k 'add or mul'",
    acceptance: 'tests/test_calc.py::test_add',
  },
  'fix-mean': {
    goal: 'Fix calc.mean: it returns the wrong average of the values (tests/test_calc.py::test_mean).',
    testCommand: 'python3 -m pytest -q tests/test_calc.py::test_mean tests/test_stats.py',
    acceptance: 'tests/test_calc.py::test_mean',
  },
} as const;

export type DemoTaskId = keyof typeof demoTasks;

async function taskloop(args: string[], env: NodeJS.ProcessEnv) {
  const result = await execa('node', [taskloopBin, ...args], { env, all: true, reject: false, timeout: 240_000 });
  if (result.exitCode !== 0) throw new Error(`taskloop ${args.join(' ')} exited ${result.exitCode}:\n${result.all}`);
  return result;
}

/** `taskloop run` of one demo task with its scripted coder; with `wait`, until it ends (and it must complete). */
export async function runDemoTask(
  id: DemoTaskId,
  options: { repo: string; project: string; env: NodeJS.ProcessEnv; wait: boolean },
): Promise<string> {
  const task = demoTasks[id];
  await taskloop(
    [
      'run',
      ...['--repo', options.repo, '--project', options.project, '--id', id, '--goal', task.goal],
      ...['--model', `scripted:${path.join(exampleDir, 'scripts', `${id}.json`)}`],
      ...['--test-command', task.testCommand, '--acceptance', task.acceptance],
      ...(options.wait ? ['--wait'] : []),
    ],
    options.env,
  );
  return taskWorkflowId({ project: options.project, id });
}

export async function pauseTask(workflowId: string, env: NodeJS.ProcessEnv): Promise<void> {
  await taskloop(['pause', workflowId], env);
}

/**
 * Starts `taskloop worker` as its own process, resolved once it serves its queue. Wrapped in an object because the
 * child is a thenable that an async function's return would otherwise await to its end.
 */
export async function startWorker(env: NodeJS.ProcessEnv): Promise<{ child: ResultPromise }> {
  const child = execa('node', [taskloopBin, 'worker', '--grace', '1s'], { env, all: true, reject: false });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.all?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('serving task queues')) resolve();
    });
    void child.then(() => reject(new Error(`taskloop worker exited before serving:\n${output}`)));
  });
  return { child };
}

/**
 * The run id of a workflow once the list's search attributes say `TaskStatus = status`: what the Web UI shows is
 * visibility, which follows the workflow by a moment.
 */
export async function waitForTaskStatus(address: string, workflowId: string, status: string): Promise<string> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection });
    const query = `WorkflowId = '${workflowId}' AND TaskStatus = '${status}'`;
    for (let tries = 0; tries < 120; tries++) {
      for await (const execution of client.workflow.list({ query })) return execution.runId;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`${workflowId} did not show TaskStatus ${status} within 60 s`);
  } finally {
    await connection.close();
  }
}
