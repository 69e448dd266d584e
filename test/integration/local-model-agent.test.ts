// `taskloop run --model local:qwen2.5-coder-0.5b` runs the small-model coder version and says so: the worker starts
// its local server as it would for the real model (the runtime's binary in the model cache, the model file there),
// but the binary is a small OpenAI-protocol server that answers as the model with the demo's fix.
import { chmod, mkdir, readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localModelPaths, bundledModel } from '../../platform/local-model/pins.js';
import { runTaskloop } from '../support/cli.js';
import { makeCalcProject } from '../support/calc-project.js';
import { makeTempDir } from '../support/git-repo.js';
import { uniqueId, useTestTemporal } from './support/temporal.js';

const MODEL = 'qwen2.5-coder-0.5b';

/** A llama-server stand-in: --version, /health, /props, /v1/models and chat replies as fenced JSON calls. */
const fakeServer = (requestsFile: string) => `#!/usr/bin/env node
const http = require('node:http');
const fs = require('node:fs');
const args = process.argv.slice(2);
if (args.includes('--version')) { console.log('version: 0 (stand-in)'); process.exit(0); }
const port = Number(args[args.indexOf('--port') + 1]);
const alias = args[args.indexOf('--alias') + 1];
const fence = (call) => '\`\`\`json\\n' + JSON.stringify(call) + '\\n\`\`\`';
const replies = [
  fence({ name: 'replace_in_file', arguments: { path: 'calc.py', old: 'return a - b', new: 'return a + b' } }),
  fence({ name: 'finish', arguments: { summary: 'add adds' } }),
];
let turn = 0;
const send = (res, body) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    if (req.url === '/health') return send(res, { status: 'ok' });
    if (req.url === '/props') return send(res, { n_ctx: 8192 });
    if (req.url === '/v1/models') return send(res, { object: 'list', data: [{ id: alias, object: 'model' }] });
    if (req.url === '/v1/chat/completions') {
      fs.appendFileSync(${JSON.stringify(requestsFile)}, body + '\\n');
      const content = replies[Math.min(turn++, replies.length - 1)];
      return send(res, {
        id: 'c' + turn, object: 'chat.completion', created: 0, model: alias,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      });
    }
    res.writeHead(404); res.end();
  });
}).listen(port, '127.0.0.1');
`;

describe('a local model gets the small-model coder version by default', () => {
  const saved = { cache: process.env.XDG_CACHE_HOME, runtime: process.env.TASKLOOP_LOCAL_RUNTIME };
  let requestsFile = '';
  beforeAll(async () => {
    // Set before the workers start: the worker's local provider reads them when it starts the server.
    const cache = await makeTempDir();
    process.env.XDG_CACHE_HOME = cache;
    process.env.TASKLOOP_LOCAL_RUNTIME = 'llama-server';
    const model = bundledModel(MODEL);
    if (!model) throw new Error(`${MODEL} is no bundled model`);
    const paths = localModelPaths(process.env, model);
    requestsFile = path.join(cache, 'requests.jsonl');
    await mkdir(paths.serverDir, { recursive: true });
    await writeFile(paths.serverBinary, fakeServer(requestsFile));
    await chmod(paths.serverBinary, 0o755);
    // The size is what the worker checks of a bundled model before it starts the server: a sparse file has it.
    await writeFile(paths.model, '');
    await truncate(paths.model, model.bytes);
  });
  afterAll(() => {
    for (const [key, value] of [
      ['XDG_CACHE_HOME', saved.cache],
      ['TASKLOOP_LOCAL_RUNTIME', saved.runtime],
    ] as const)
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
  });
  const t = useTestTemporal('local-agent');

  it('run records coder-small-text (default for local models), sends its requests, and status and show say so', async () => {
    const { repo } = await makeCalcProject({});
    const id = uniqueId('local-agent');
    const env = { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') };
    const run = await runTaskloop(
      [
        'run',
        '--repo',
        repo,
        '--goal',
        'Fix add in calc.py',
        '--model',
        `local:${MODEL}`,
        '--id',
        id,
        '--task-queue',
        t.host.taskQueue,
        '--max-retries',
        '0',
        '--wait',
      ],
      { env, timeout: 180_000 },
    );
    expect(run.all).toContain('coder version: coder-small-text (default for local models)');
    expect(run.exitCode, run.all).toBe(0);
    // The small-model version's requests: its prompt, and no tool list (calls travel as text).
    const first = JSON.parse((await readFile(requestsFile, 'utf8')).split('\n')[0] ?? '{}');
    expect(first.tools).toBeUndefined();
    expect(first.max_tokens).toBe(512);
    expect(JSON.stringify(first.messages)).toContain('Call one tool per reply');
    const status = await runTaskloop(['status', `task-default-${id}`, '--json'], { env });
    const outcome = JSON.parse(status.stdout).outcome;
    expect(outcome.coderAgent).toEqual({ version: 'coder-small-text', why: 'default for local models' });
    expect(outcome.attempts[0].coder.agent).toBe('coder/coder-small-text');
    const show = await runTaskloop(['show', `task-default-${id}`], { env });
    expect(show.stdout).toContain('coder version: coder-small-text (default for local models)');
  });
});
