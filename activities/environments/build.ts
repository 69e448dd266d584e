// Builds one environment in the sandbox tests run in, with egress to the outside (to reach the package index; never the
// host: activities/sandbox/egress-network.ts) and nothing else more: a copy of the base commit as its working folder,
// the environment at ENV_MOUNT, written bytes bounded by the run's limits, no host secrets and no state folder. Each
// set-up line is its own run, so a failure names the line and its output's tail.
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { scrubText } from '../../domain/secrets.js';
import { openGit } from '../git/run-git.js';
import { readTail } from '../sandbox/output-files.js';
import { ENV_MOUNT } from '../sandbox/environment-mount.js';
import type { SandboxPolicy } from '../sandbox/policy.js';
import { runSandboxed, type SandboxedRun } from '../sandbox/run-sandboxed.js';
import { setupFailure, type EnvironmentPlan } from './plan.js';

const TAIL_CHARS = 2_000;
// Where the worker trusts certificates (a company proxy's among them): set-up reaches the index as the worker would.
// Paths, never credentials; an index URL (which may hold a token) is not passed: name it in the set-up line.
const certificateNames = ['SSL_CERT_FILE', 'SSL_CERT_DIR', 'PIP_CERT', 'REQUESTS_CA_BUNDLE'];

function setupVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const certificates = certificateNames.flatMap((name) => (env[name] ? [[name, env[name]] as const] : []));
  return {
    ...Object.fromEntries(certificates),
    UV_NATIVE_TLS: '1',
    UV_PYTHON_DOWNLOADS: 'never',
    UV_LINK_MODE: 'copy',
    UV_NO_PROGRESS: '1',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
  };
}
const ARCHIVE = '.taskloop-source.tar';

export interface BuildInput {
  plan: EnvironmentPlan;
  /** The staging folder: `env/` and `src/` are made in it. */
  stagingDir: string;
  uv: string;
  policy: SandboxPolicy;
  timeoutMs: number;
  secretValues?: string[];
  heartbeat?: (details?: unknown) => void;
  signal?: AbortSignal;
}

/** Runs the set-up; returns `uv pip freeze` of the result. Throws EnvironmentSetupFailed naming the failing line. */
export async function buildEnvironment(input: BuildInput): Promise<string[]> {
  const { plan, stagingDir } = input;
  const envDir = path.join(stagingDir, 'env');
  const srcDir = path.join(stagingDir, 'src');
  await Promise.all([mkdir(envDir, { recursive: true }), mkdir(srcDir, { recursive: true })]);
  // The base commit's files, from the object store (git reads no filter or setting of the repository's files); unpacked
  // inside the sandbox, so an archive's links cannot lead the unpacking outside its folder.
  await openGit(plan.repoPath).raw(['archive', '--format=tar', '-o', path.join(srcDir, ARCHIVE), plan.baseSha]);
  const deadline = Date.now() + input.timeoutMs;
  const policy: SandboxPolicy = { ...input.policy, mode: 'bwrap', network: 'egress' };
  const run = async (name: string, line: string): Promise<SandboxedRun> => {
    const logDir = path.join(stagingDir, 'logs', name);
    const result = await runSandboxed({
      argv: ['sh', '-c', line],
      worktree: srcDir,
      testEnv: setupVariables(process.env),
      policy,
      timeoutMs: Math.max(1_000, deadline - Date.now()),
      logDir,
      environment: { hostDir: envDir, interpreter: plan.interpreter.path, writable: true },
      toolDirs: [path.dirname(input.uv)],
      heartbeat: input.heartbeat,
      signal: input.signal,
    });
    if (result.cancelled) throw input.signal?.reason ?? new Error('environment set-up cancelled');
    if (result.exitCode === 0 && !result.cause) return result;
    const tail = `${await readTail(result.stdoutFile, TAIL_CHARS)}\n${await readTail(result.stderrFile, TAIL_CHARS)}`;
    const how = result.cause?.message ?? (result.timedOut ? 'timed out' : `exited ${result.exitCode ?? result.signal}`);
    throw setupFailure(
      scrubText(
        `environment set-up failed: \`${line}\` ${how}; ${tail.trim() ? `its output ends:\n${tail.trim().slice(-TAIL_CHARS)}` : 'it printed nothing'}`,
        input.secretValues ?? [],
      ),
    );
  };
  await run(
    'prepare',
    `tar -xf ${ARCHIVE} && rm -f ${ARCHIVE} && uv venv --quiet --seed --python '${plan.interpreter.path}' ${ENV_MOUNT}`,
  );
  for (const [index, line] of plan.setup.entries()) await run(`setup-${index + 1}`, line);
  const freeze = await run('freeze', 'uv pip freeze');
  // A package installed from the repository's files names the copy set-up ran on, removed below: the manifest names
  // the repository's own folder instead (the file as the base commit holds it).
  const packages = (await readFile(freeze.stdoutFile, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(srcDir).join(path.resolve(plan.repoPath)));
  await Promise.all([
    rm(srcDir, { recursive: true, force: true }),
    rm(path.join(stagingDir, 'logs'), { recursive: true, force: true }),
  ]);
  return packages;
}
