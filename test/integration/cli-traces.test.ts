// The CLI's own spans, through the built bin (a bundle that loads tracing from outside itself): `taskloop run` with
// OTEL_EXPORTER_OTLP_ENDPOINT set exports one trace (the command's span and its start span) over OTLP/HTTP to a
// receiver, none for the polling while it waits, and the task still runs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { runTaskloop } from '../support/cli.js';
import { fixTurns, makeCalcProject } from '../support/calc-project.js';
import { uniqueId, useTestTemporal } from './support/temporal.js';

describe('taskloop run with OTEL_* set', () => {
  const t = useTestTemporal('cli-traces');
  const received: { path: string; body: string }[] = [];
  let receiver: Server;

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ path: request.url ?? '', body });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('exports the start span of the task it runs, and the task completes', async () => {
    const project = await makeCalcProject({ coder: fixTurns() });
    const { port } = receiver.address() as AddressInfo;
    const result = await runTaskloop(
      [
        'run',
        '--repo',
        project.repo,
        '--goal',
        'Fix add in calc.py',
        '--model',
        'scripted:script.json',
        '--project',
        uniqueId('traces'),
        '--task-queue',
        t.host.taskQueue,
        '--test-command',
        `python3 -m pytest -p 'no:cacheprovider' -q`,
        '--wait',
        '--json',
      ],
      {
        cwd: project.dir,
        env: {
          ...process.env,
          TEMPORAL_ADDRESS: inject('temporalAddress'),
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
          OTEL_SERVICE_NAME: 'taskloop-cli-traces-test',
        },
      },
    );

    expect(result.exitCode, result.all).toBe(0);
    expect((JSON.parse(result.stdout) as { status: string }).status).toBe('COMPLETED');
    const traces = received.filter((request) => request.path === '/v1/traces').map((request) => request.body);
    expect(traces.length).toBeGreaterThan(0);
    const exported = traces.join('\n');
    expect(exported).toContain('taskloop-cli-traces-test');
    expect(exported).toMatch(/"name":"StartWorkflow:taskWorkflow"/);
    expect(exported).not.toContain('Fix add in calc.py');
    // One trace for the whole invocation: the command's span holds the start; waiting (queries, describes) adds none.
    type Span = { traceId: string; spanId: string; parentSpanId?: string; name: string };
    const spans = traces.flatMap((body) =>
      (JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] }).resourceSpans.flatMap((resource) =>
        resource.scopeSpans.flatMap((scope) => scope.spans),
      ),
    );
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const roots = spans.filter((span) => !span.parentSpanId);
    expect(roots.map((span) => span.name)).toEqual(['taskloop run']);
    expect(spans.map((span) => span.name).sort()).toEqual(['StartWorkflow:taskWorkflow', 'taskloop run']);
  });
});
