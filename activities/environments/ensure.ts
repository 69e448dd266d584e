// The environment a task's tests use: found in the cache by its key, or built once (one builder per key, built in a
// staging folder renamed into place whole, so a reader never sees half an environment) and recorded in a manifest.
import { existsSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_SETUP_TIMEOUT_MS, type EnvironmentSpec } from '../../domain/environment.js';
import { ensureUv, UV_VERSION, UvMissing } from '../../platform/uv.js';
import { findSlirp4netns } from '../sandbox/egress-network.js';
import type { SandboxPolicy } from '../sandbox/policy.js';
import { buildEnvironment } from './build.js';
import { envDirOf, MANIFEST_NAME, readManifest, type EnvironmentManifest } from './cache-dir.js';
import { lockEntry } from './lock.js';
import { planEnvironment, setupFailure, type EnvironmentPlan } from './plan.js';
import { makeStagingDir, removeDeadStaging, STAGING_OWNER } from './staging.js';

/** What a test run needs to use an environment, and what its record says about it. Small: it travels in history. */
export interface EnvironmentRef {
  key: string;
  name: string;
  /** The environment's folder on the host that built or found it. */
  hostDir: string;
  interpreter: string;
  /** True when this call built it; false when it was found (or another builder made it meanwhile). */
  built: boolean;
  /** The set-up time this call spent: building, or waiting for another builder. */
  setupMs: number;
}

export interface EnsureEnvironmentInput {
  repo: string;
  repoPath: string;
  baseSha: string;
  spec: EnvironmentSpec;
  cacheDir: string;
  /** The worker's sandbox policy for the task (limits); set-up adds the network. */
  policy: SandboxPolicy;
  hostId: string;
  secretValues?: string[];
  heartbeat?: (details?: unknown) => void;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

const refOf = (manifest: EnvironmentManifest, entryDir: string, built: boolean, setupMs: number): EnvironmentRef => ({
  key: manifest.key,
  name: manifest.name,
  hostDir: envDirOf(entryDir),
  interpreter: manifest.interpreter.path,
  built,
  setupMs,
});

export async function ensureEnvironment(input: EnsureEnvironmentInput): Promise<EnvironmentRef> {
  const started = Date.now();
  if (input.policy.mode !== 'bwrap') {
    throw setupFailure(
      'environments are built and shown in the bwrap sandbox, and this run has sandbox none: drop the task field ' +
        '`environment` (the worker’s own Python is used), or run the worker with TASKLOOP_SANDBOX=bwrap',
    );
  }
  const installer = `uv ${UV_VERSION}`;
  const plan = await planEnvironment({ ...input, installer, defaultPython: process.env.TASKLOOP_PYTHON });
  const entryDir = path.join(input.cacheDir, plan.name);
  const found = readManifest(entryDir);
  if (found) return refOf(found, entryDir, false, Date.now() - started);

  const timeoutMs = plan.timeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS;
  const lock = await lockEntry({
    entryDir,
    done: () => existsSync(path.join(entryDir, MANIFEST_NAME)),
    staleAfterMs: timeoutMs + 5 * 60_000,
    onWait: () => input.heartbeat?.({ environment: plan.name, step: 'waiting', waitingFor: plan.name }),
    signal: input.signal,
  });
  if (lock.kind === 'done') {
    const made = readManifest(entryDir);
    if (made) return refOf(made, entryDir, false, Date.now() - started);
  }
  // What builders killed mid-build left (their staging folders) goes first: no one else would remove it.
  await removeDeadStaging(input.cacheDir);
  let staging: string | undefined;
  // Every heartbeat of the build names it, so `taskloop status` and the board say "environment: building NAME".
  const heartbeat = (details?: unknown) =>
    input.heartbeat?.({ ...(isObject(details) ? details : {}), environment: plan.name, step: 'building' });
  heartbeat();
  try {
    input.log?.(`building environment ${plan.name}: ${plan.setup.length} set-up line(s)`);
    const uv = await ensureUv().catch((error: unknown) => {
      throw error instanceof UvMissing ? setupFailure(error.message) : error;
    });
    // Set-up never falls back to the host's network: without slirp4netns it is refused, saying what to install.
    findSlirp4netns();
    staging = await makeStagingDir(input.cacheDir, plan.name);
    const packages = await buildEnvironment({
      plan,
      stagingDir: staging,
      uv,
      policy: input.policy,
      timeoutMs,
      secretValues: input.secretValues,
      heartbeat,
      signal: input.signal,
    });
    const manifest = await placeBuilt({ plan, staging, entryDir, packages, started, hostId: input.hostId });
    input.log?.(`built environment ${plan.name} in ${manifest.setupMs} ms (${packages.length} packages)`);
    return refOf(manifest, entryDir, true, manifest.setupMs);
  } finally {
    if (staging) await rm(staging, { recursive: true, force: true });
    if (lock.kind === 'acquired') await lock.release();
  }
}

/** Writes the manifest into the staging folder, then renames the folder into place whole. */
async function placeBuilt(input: {
  plan: EnvironmentPlan;
  staging: string;
  entryDir: string;
  packages: string[];
  started: number;
  hostId: string;
}): Promise<EnvironmentManifest> {
  const { plan } = input;
  const manifest: EnvironmentManifest = {
    key: plan.key,
    name: plan.name,
    repo: plan.repo,
    baseSha: plan.baseSha,
    setup: plan.setup,
    files: plan.files,
    interpreter: plan.interpreter,
    installer: plan.installer,
    // `uv pip freeze` names a package installed from the repository's files by its staging path: the folder it is in
    // once the staging folder is renamed into place is the one that exists.
    packages: atFinalPath(input.packages, input.staging, input.entryDir),
    setupMs: Date.now() - input.started,
    builtAt: new Date().toISOString(),
    hostId: input.hostId,
  };
  await rm(path.join(input.staging, STAGING_OWNER), { force: true });
  await writeFile(path.join(input.staging, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
  // An entry without a manifest is a broken leftover (the manifest is written before the rename): it goes.
  if (existsSync(input.entryDir) && !readManifest(input.entryDir))
    await rm(input.entryDir, { recursive: true, force: true });
  await rename(input.staging, input.entryDir);
  return manifest;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The package lines with the staging folder's path (plain or in a file: URL) replaced by the entry's. */
export function atFinalPath(packages: readonly string[], staging: string, entryDir: string): string[] {
  return packages.map((line) => line.split(staging).join(entryDir));
}
