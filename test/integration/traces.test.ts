// Traces: one connected trace per task, from the client's start through the workflow and each node's activity to
// the model calls inside them, exported by a real worker through Temporal's OpenTelemetry interceptors.
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanStatusCode } from '@opentelemetry/api';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, type Worker } from '@temporalio/worker';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startTracing, tracingClientInterceptor, type Tracing } from '../../platform/tracing.js';
import { createWorkerSet, runWorkerSet, workflowsPath } from '../../workers/create-workers.js';
import { tracingWorkflowModule } from '../../workers/tracing.js';
import { hostTaskQueue } from '../../workflows/task-queues.js';
import { fixTurns, makeCalcProject } from '../support/calc-project.js';
import { startTestTask, taskSpec } from './support/tasks.js';
import { eventually, uniqueId } from './support/temporal.js';
import { documentedBlock } from '../support/documented-commands.js';
import { sampleMismatch } from '../support/sample-shape.js';

const thisFile = 'test/integration/traces.test.ts';

const verdict = (value: unknown) => ({ content: JSON.stringify(value) });
const goal = 'Fix add in calc.py: the planted goal text';

describe('traces', () => {
  const exporter = new InMemorySpanExporter();
  const taskQueue = uniqueId('traces');
  let tracing: Tracing | undefined;
  let client: Client;
  let connection: Connection;
  let workerConnection: NativeConnection;
  let running: Promise<void>;
  let workers: Worker[] = [];

  beforeAll(async () => {
    tracing = await startTracing({ serviceName: 'taskloop-test', spanProcessor: new SimpleSpanProcessor(exporter) });
    if (!tracing) throw new Error('tracing did not start');
    const bundle = await bundleWorkflowCode({
      workflowsPath: workflowsPath(),
      workflowInterceptorModules: [tracingWorkflowModule()],
      logger: new DefaultLogger('WARN'),
    });
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-traces-'));
    const hostId = uniqueId('traces');
    workerConnection = await NativeConnection.connect({ address: inject('temporalAddress') });
    workers = await createWorkerSet({
      connection: workerConnection,
      namespace: 'default',
      host: { hostId, hostQueue: hostTaskQueue(hostId), workDir },
      eventsFile: path.join(workDir, 'events.jsonl'),
      taskQueue,
      workflowBundle: { code: bundle.code },
      shutdownGraceTime: '2s',
      tracing,
    });
    running = runWorkerSet(workers);
    connection = await Connection.connect({ address: inject('temporalAddress') });
    client = new Client({ connection, interceptors: { workflow: [await tracingClientInterceptor()] } });
  }, 120_000);

  afterAll(async () => {
    for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await workerConnection?.close();
    await connection?.close();
    await tracing?.shutdown();
  });

  it('shows one connected trace per task: start, workflow, each node, and model calls inside their nodes', async () => {
    const project = await makeCalcProject({
      coder: fixTurns(),
      reviewer: [verdict({ verdict: 'pass' })],
      judge: [verdict({ verdict: 'pass' })],
    });
    const model = `scripted:${project.scriptFile}`;
    const spec = taskSpec({ repo: project.repo, goal, models: { coder: model, reviewer: model, judge: model } });
    const handle = await startTestTask(client, taskQueue, spec);
    expect((await handle.result()).status).toBe('COMPLETED');

    // The workflow's own span leaves the sandbox when the workflow completes.
    const spans = await eventually('the workflow span', async () => {
      const finished = exporter.getFinishedSpans();
      return finished.some((span) => span.name === 'RunWorkflow:taskWorkflow') ? finished : undefined;
    });
    const traceIds = new Set(spans.map((span) => span.spanContext().traceId));
    expect(traceIds.size).toBe(1);
    const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
    const parentOf = (span: ReadableSpan) => (span.parentSpanId ? byId.get(span.parentSpanId) : undefined);
    const chain = (span: ReadableSpan): string[] => {
      const parent = parentOf(span);
      return parent ? [...chain(parent), parent.name] : [];
    };
    const named = (name: string) => spans.filter((span) => span.name === name);

    const [start] = named('StartWorkflow:taskWorkflow');
    expect(start && parentOf(start)).toBeUndefined();
    for (const node of ['claim', 'code', 'test', 'review', 'judge', 'commit']) {
      const [span, ...more] = named(node);
      expect(more, `one ${node} span`).toEqual([]);
      expect(span && chain(span).slice(0, 2), `${node} under the workflow`).toEqual([
        'StartWorkflow:taskWorkflow',
        'RunWorkflow:taskWorkflow',
      ]);
      expect(span?.attributes['taskloop.node']).toBe(node);
    }
    const calls = spans.filter((span) => span.name.startsWith('chat '));
    expect(calls.map((call) => [parentOf(call)?.name, call.attributes['taskloop.role']]).sort()).toEqual([
      ['code', 'coder'],
      ['code', 'coder'],
      ['judge', 'judge'],
      ['review', 'reviewer'],
    ]);
    for (const call of calls) {
      expect(call.attributes).toMatchObject({ 'gen_ai.system': 'scripted', 'gen_ai.request.model': 'script.json' });
      expect(call.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    }
    // A task that completed leaves no error span (a viewer paints one red): no expected miss is recorded as one.
    const errors = spans.filter((span) => span.status.code === SpanStatusCode.ERROR);
    expect(errors.map((span) => [span.name, span.status.message])).toEqual([]);
    // No span carries the prompt: the goal text appears in no attribute.
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('planted goal text');

    // operating.md shows this tree: span names, children in start order (its notes after the names left out).
    const childrenOf = (parent: ReadableSpan | undefined) =>
      spans
        .filter((span) => parentOf(span) === parent)
        .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    const tree = (parent: ReadableSpan | undefined, depth: number): string[] =>
      childrenOf(parent).flatMap((span) => [`${'  '.repeat(depth)}${span.name}`, ...tree(span, depth + 1)]);
    const sample = await documentedBlock('docs/operating.md', `sample task-spans: checked by ${thisFile}`);
    const names = sample.replace(/(\S) {2,}\S.*$/gm, '$1');
    expect(sampleMismatch(tree(undefined, 0).join('\n'), names)).toBeUndefined();
  });
});
