// The floor's worker runs in a process of its own, as a user's worker would (and as the plain runner does: spawns
// from the bench process would pay its fork cost). `startFloorWorker` starts it; the child serves the workflow's
// queue and the host queue until its stdin closes.
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { quietBundler } from '../../workers/ephemeral-stack.js';
import type { PlainProject } from '../overhead/plain-run.js';
import { startPlainRunner } from '../overhead/plain-runner.js';
import { createFloorActivities, type FloorInput } from './activities.js';
import type { floorAttempt } from './workflow.js';

export interface FloorWorker {
  /** One floor attempt in `worktree`, start -> result as the bench's client sees it, in ms. */
  run(project: PlainProject, worktree: string, taskId: string): Promise<number>;
  stop(): Promise<void>;
}

export async function startFloorWorker(options: {
  client: Client;
  address: string;
  tag: string;
}): Promise<FloorWorker> {
  const queue = `floor-${options.tag}`;
  const hostQueue = `${queue}-host`;
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', options.address, queue, hostQueue],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', () => resolve());
    void exited.then(() => reject(new Error('the floor worker exited before it served its queues')));
  });
  return {
    async run(project, worktree, taskId) {
      const input: FloorInput = { project, worktree, taskId, hostQueue };
      const started = performance.now();
      await options.client.workflow.execute<typeof floorAttempt>('floorAttempt', {
        taskQueue: queue,
        workflowId: `floor-${taskId}`,
        // A floor worker that died would otherwise leave the bench waiting for ever.
        workflowExecutionTimeout: '5 minutes',
        args: [input],
      });
      return performance.now() - started;
    },
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}

/** The child's side: one worker on the workflow's queue (workflow and first activity), one on the host queue. */
async function serve(address: string, queue: string, hostQueue: string): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address });
  const workflowsPath = fileURLToPath(new URL('./workflow.ts', import.meta.url));
  const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: quietBundler });
  const runner = await startPlainRunner();
  const common = { connection, namespace: 'default', activities: createFloorActivities(runner) };
  const workers = [
    await Worker.create({ ...common, taskQueue: queue, workflowBundle }),
    await Worker.create({ ...common, taskQueue: hostQueue }),
  ];
  const running = Promise.all(workers.map((worker) => worker.run()));
  process.stdout.write('serving\n');
  process.stdin.resume().once('end', () => workers.forEach((worker) => worker.shutdown()));
  await running;
  await runner.stop();
  await connection.close();
}

const [flag, address, queue, hostQueue] = process.argv.slice(2);
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && flag === '--serve')
  await serve(address as string, queue as string, hostQueue as string);
