// bench/codec: what payload encryption costs. The same calc task through the shared stack (no key) and through a
// client and worker set with a payload key on the same server, interleaved A B A B; the bytes of payloads in each
// history; and the codec alone on one task's start input.
import { Client } from '@temporalio/client';
import { defaultPayloadConverter, type Payload, type PayloadCodec } from '@temporalio/common';
import { bundleWorkflowCode, NativeConnection } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { resolveHostCodec } from '../platform/codec/host-codec.js';
import { createWorkerSet, prebuiltWorkflows, runWorkerSet, workflowsPath } from '../workers/create-workers.js';
import { quietBundler } from '../workers/ephemeral-stack.js';
import { hostTaskQueue } from '../workflows/task-queues.js';
import { ms, plusMs, reference, times } from './lib/figures.js';
import { median } from './lib/stats.js';
import type { Benchmark, BenchResult } from './lib/types.js';
import { calcProject } from './overhead/projects.js';
import { timeTaskloopRun, type TaskloopRun } from './overhead/taskloop-run.js';

const CODEC_OPS = 2_000;

/** Bytes of every payload (metadata and data) a history holds: what the codec changes in the server's store. */
export function payloadBytes(value: unknown): number {
  if (value instanceof Uint8Array) return value.length;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + payloadBytes(item), 0);
  if (value && typeof value === 'object')
    return Object.values(value).reduce((sum: number, item) => sum + payloadBytes(item), 0);
  return 0;
}

export const codecBenchmark: Benchmark = {
  name: 'codec',
  defaultRuns: 5,
  async run(context): Promise<BenchResult> {
    const stack = await context.stack();
    const host = resolveHostCodec({ TASKLOOP_CODEC_KEYS: `bench:${randomBytes(32).toString('base64')}` });
    const dataConverter = { payloadCodecs: [host.codec] };
    const keyed = new Client({ connection: stack.client.connection, dataConverter });
    const workflowBundle = prebuiltWorkflows() ?? {
      code: (await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quietBundler })).code,
    };
    const connection = await NativeConnection.connect({ address: stack.address });
    const hostId = `codec-${Date.now().toString(36)}`;
    const taskQueue = `bench-${hostId}`;
    const workers = await createWorkerSet({
      connection,
      namespace: 'default',
      host: { hostId, hostQueue: hostTaskQueue(hostId), workDir: path.join(stack.workDir, 'codec-work') },
      eventsFile: path.join(stack.workDir, 'codec-events.jsonl'),
      workflowBundle,
      taskQueue,
      shutdownGraceTime: '2s',
      dataConverter,
    });
    const running = runWorkerSet(workers);
    const project = await calcProject();
    try {
      const clear = (taskId: string) =>
        timeTaskloopRun({ client: stack.client, taskQueue: stack.taskQueue, project, taskId });
      const encrypted = (taskId: string) => timeTaskloopRun({ client: keyed, taskQueue, project, taskId });
      const prefix = `codec-${Date.now().toString(36)}`;
      context.log('codec: warm-up, one untimed run of each');
      await clear(`${prefix}-warm-clear`);
      await encrypted(`${prefix}-warm-key`);
      const runs: { clear: TaskloopRun[]; encrypted: TaskloopRun[] } = { clear: [], encrypted: [] };
      for (let index = 1; index <= context.runs; index += 1) {
        runs.clear.push(await clear(`${prefix}-${index}-clear`));
        runs.encrypted.push(await encrypted(`${prefix}-${index}-key`));
        context.log(
          `codec run ${index}/${context.runs}: no key ${ms(runs.clear.at(-1)?.ms ?? 0)}, key ${ms(runs.encrypted.at(-1)?.ms ?? 0)}`,
        );
      }
      const wall = (list: TaskloopRun[]) => median(list.map((run) => run.ms));
      const bytes = (list: TaskloopRun[]) => median(list.map((run) => payloadBytes(run.history)));
      const events = (list: TaskloopRun[]) => median(list.map((run) => run.history.length));
      const micro = await timeCodec(host.codec, runs.clear[0]?.history);
      return {
        figures: [
          reference(
            `added time per task with a payload key (median of pairwise differences), ${project.label}`,
            plusMs(median(runs.encrypted.map((run, index) => run.ms - (runs.clear[index]?.ms ?? 0)))),
          ),
          reference(
            `  task with a payload key / without (same server, interleaved), ${project.label}`,
            `${ms(wall(runs.encrypted))} / ${ms(wall(runs.clear))} = ${times(wall(runs.encrypted) / wall(runs.clear))}`,
          ),
          reference(
            `  payload bytes in the task's history, with a key / without (${events(runs.encrypted)} / ${events(runs.clear)} events)`,
            `${bytes(runs.encrypted).toLocaleString('en-US')} / ${bytes(runs.clear).toLocaleString('en-US')} B = ${times(bytes(runs.encrypted) / bytes(runs.clear))}`,
          ),
          reference(
            `  codec alone: encrypt + decrypt the task's start input (${micro.bytes.toLocaleString('en-US')} B), ${CODEC_OPS} times`,
            `${micro.microsPerOp.toFixed(1)} µs each`,
          ),
        ],
        sections: [],
      };
    } finally {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
      await project.cleanup();
    }
  },
};

/** The codec alone, encrypt then decrypt, on the start input of a recorded task (its largest usual payload). */
async function timeCodec(codec: PayloadCodec, history: TaskloopRun['history'] | undefined) {
  const input = history?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  const payload: Payload = input
    ? { metadata: input.metadata ?? {}, data: input.data ?? new Uint8Array(0) }
    : defaultPayloadConverter.toPayload({ filler: 'x'.repeat(2_000) });
  const started = performance.now();
  for (let index = 0; index < CODEC_OPS; index += 1) await codec.decode(await codec.encode([payload]));
  return { bytes: payloadBytes(payload), microsPerOp: ((performance.now() - started) * 1000) / CODEC_OPS };
}
