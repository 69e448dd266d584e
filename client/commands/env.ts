// `taskloop env build | list | clean`: the repositories' environments in this machine's cache (the one the local
// worker uses): build one ahead of the tasks that need it, see what is there and what each holds, remove them.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseFlags } from '../args.js';
import { UsageError, WorkFailed } from '../cli-errors.js';
import type { Command } from './command.js';
import { localEnvironmentCacheDir } from '../env/environment-by-name.js';

const help = `Usage: taskloop env build REPO [--ref REF] [--setup LINE]... [--python P] [--file F]... [--json]
       taskloop env list [--json]
       taskloop env clean [NAME]... [--all] [--json]

A repository's environment holds the Python packages its tests need; the tasks file's field \`environment\`
declares it, and the worker builds it once per repository, set-up, dependency files and interpreter (see
docs/environments.md). These commands act on this machine's cache: TASKLOOP_ENV_CACHE, else the environments
folder of the worker's work folder (TASKLOOP_WORK_DIR, default .taskloop/work).

build   builds the environment of REPO (a path or a git URL) at REF (default HEAD) as a task would, in the
        sandbox with the network allowed; prints its name and whether it was built or already there
list    every environment in the cache: name, repository, interpreter, packages, set-up time
clean   removes the named environments, or every one with --all (a task that needs one builds it again)

  --ref REF       the commit whose dependency files key the environment (default HEAD)
  --setup LINE    a set-up line, run by sh in a copy of the commit (repeat for several); none: auto
  --python P      the interpreter to make it from (default TASKLOOP_PYTHON or python3)
  --file F        a file whose contents key it (repeat; default the dependency files found)
  --all           clean: every environment
  --json          one JSON object: build {name, key, built, setupMs, dir}; list [manifest...]; clean {removed}

Exit codes: 0 done, 1 the set-up failed (its command and output's tail are printed), 2 a bad flag or argument.`;

export const envCommand: Command = {
  summary: "build, list or remove repositories' environments in this machine's cache",
  help,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === 'build') return build(rest);
    if (sub === 'list') return list(rest);
    if (sub === 'clean') return clean(rest);
    throw new UsageError(
      `taskloop env: the subcommand is ${sub === undefined ? 'missing' : JSON.stringify(sub)}; use taskloop env build, list or clean (see taskloop env --help)`,
    );
  },
};

const cacheDir = () => localEnvironmentCacheDir('env');

async function build(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    'env build',
    argv,
    {
      ref: { type: 'string' },
      setup: { type: 'string', multiple: true },
      python: { type: 'string' },
      file: { type: 'string', multiple: true },
      json: { type: 'boolean' },
    },
    true,
  );
  const [repo, ...extra] = positionals;
  if (repo === undefined || extra.length > 0)
    throw new UsageError(
      `taskloop env build: name one repository (a path or a git URL), got ${positionals.length === 0 ? 'none' : JSON.stringify(positionals)}`,
    );
  const { environmentSpecSchema } = await import('../../domain/environment.js');
  const fields = {
    ...(values.setup ? { setup: values.setup } : {}),
    ...(values.python ? { python: values.python } : {}),
    ...(values.file ? { files: values.file } : {}),
  };
  const spec = environmentSpecSchema.safeParse(Object.keys(fields).length > 0 ? fields : 'auto');
  if (!spec.success) throw new UsageError(`taskloop env build: ${flagProblem(spec.error.issues[0], fields)}`);
  const { buildForCli } = await import('../env/build-for-cli.js');
  const result = await buildForCli({
    repo,
    ref: values.ref ?? 'HEAD',
    spec: spec.data,
    cacheDir: await cacheDir(),
    log: (line) => console.error(`[env] ${line}`),
  });
  if (!result.ok && result.badInput) throw new UsageError(`taskloop env build: ${result.error}`);
  if (!result.ok) throw new WorkFailed(`taskloop env build: ${result.error}`);
  const ref = result.ref;
  if (values.json) {
    const { name, key, built, setupMs, hostDir } = ref;
    console.log(JSON.stringify({ name, key, built, setupMs, dir: path.dirname(hostDir) }));
  } else {
    const how = ref.built ? `built in ${(ref.setupMs / 1000).toFixed(1)} s` : 'already built';
    console.log(`${ref.name}: ${how} (${path.dirname(ref.hostDir)})`);
  }
  return 0;
}

/** The spec field each flag fills, and a value that would do. */
const flagOfField: Record<string, { flag: string; example: string }> = {
  setup: { flag: '--setup', example: '--setup "uv pip install -r requirements.txt"' },
  files: { flag: '--file', example: '--file requirements.txt' },
  python: { flag: '--python', example: '--python python3.12' },
};

/** A schema issue said as the flag and the value that caused it, with one that would do. */
function flagProblem(
  issue: { path: PropertyKey[]; message: string } | undefined,
  fields: Record<string, unknown>,
): string {
  const [field, index] = issue?.path ?? [];
  const known = typeof field === 'string' ? flagOfField[field] : undefined;
  if (!issue || !known) return issue?.message ?? 'bad flags';
  const given = fields[field as string];
  const value = Array.isArray(given) && typeof index === 'number' ? given[index] : given;
  return `${known.flag} ${JSON.stringify(value)}: ${issue.message}; e.g. ${known.example}`;
}

async function list(argv: string[]): Promise<number> {
  const { values } = parseFlags('env list', argv, { json: { type: 'boolean' } });
  const { listEnvironments } = await import('../../activities/environments/index.js');
  const entries = listEnvironments(await cacheDir());
  if (values.json) {
    console.log(JSON.stringify(entries));
    return 0;
  }
  if (entries.length === 0) console.log('no environments built on this machine');
  for (const entry of entries) {
    console.log(
      `${entry.name}  ${entry.repo}  python ${entry.interpreter.version}  ${entry.packages.length} packages  ` +
        `set-up ${(entry.setupMs / 1000).toFixed(1)} s  built ${entry.builtAt}`,
    );
  }
  return 0;
}

async function clean(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    'env clean',
    argv,
    { all: { type: 'boolean' }, json: { type: 'boolean' } },
    true,
  );
  if (Boolean(values.all) === positionals.length > 0)
    throw new UsageError('taskloop env clean: name the environments to remove (see taskloop env list), or pass --all');
  const dir = await cacheDir();
  const { listEnvironments, removeDeadStaging } = await import('../../activities/environments/index.js');
  const names = new Set(listEnvironments(dir).map((entry) => entry.name));
  const unknown = positionals.filter((name) => !names.has(name));
  if (unknown.length > 0)
    throw new UsageError(
      `taskloop env clean: no environment ${JSON.stringify(unknown[0])} in ${dir}; see taskloop env list`,
    );
  const removed = values.all ? [...names] : positionals;
  // A task using one keeps its open files; a later task builds it again.
  for (const name of removed) await rm(path.join(dir, name), { recursive: true, force: true });
  // And what killed builds left: their staging folders (a live build's stays).
  const staging = await removeDeadStaging(dir);
  if (values.json) console.log(JSON.stringify({ removed, ...(staging.length > 0 && { stagingRemoved: staging }) }));
  else {
    for (const name of removed) console.log(`removed ${name}`);
    for (const name of staging) console.log(`removed ${name} (the staging folder of a build that was killed)`);
  }
  return 0;
}
