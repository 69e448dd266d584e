// The node-llama-cpp runtime's process: `node server-main.js --runtime DIR --model FILE --port N --ctx N --threads N
// --alias NAME`. It runs apart from the worker, so a crash of the model code ends this process, never the worker
// (which starts it again on the same port). It listens at once and answers /health 503 until the model is loaded.
import { parseArgs } from 'node:util';
import { loadChatEngine } from './chat-engine.js';
import { createChatServer } from './chat-http.js';

const { values } = parseArgs({
  options: {
    runtime: { type: 'string' },
    model: { type: 'string' },
    port: { type: 'string' },
    ctx: { type: 'string' },
    threads: { type: 'string' },
    alias: { type: 'string' },
  },
});
const log = (line: string) => console.error(`[${new Date().toISOString()}] ${line}`);
const required = (name: keyof typeof values): string => {
  const value = values[name];
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
};

const started = Date.now();
const engine = loadChatEngine({
  runtimeDir: required('runtime'),
  model: required('model'),
  contextSize: Number(required('ctx')),
  threads: Number(required('threads')),
});
engine.then(
  (loaded) => log(`model loaded in ${Date.now() - started} ms: ${required('model')}, n_ctx ${loaded.contextSize}`),
  (error: unknown) => {
    // Nothing can be served: the owner sees the exit and the log says why.
    log(`could not load the model: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
const server = createChatServer({ alias: required('alias'), engine, log });
server.listen(Number(required('port')), '127.0.0.1', () => log(`listening on 127.0.0.1:${required('port')}`));
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    log(`stopping (${signal})`);
    process.exit(0);
  });
