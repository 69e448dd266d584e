// One real Temporal server for the whole run and one workflow bundle: the dev server (in memory, headless, free
// port), or with TASKLOOP_TEST_SERVER=cluster (`npm run test:cluster`) the self-hosted stack of docs/deploying.md:
// Temporal built from Go modules on PostgreSQL with SQL visibility, in a data folder of the run's own.
import { bundleWorkflowCode } from '@temporalio/worker';
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDevServerOnFreePort, type RunningDevServer } from '../../platform/server/dev-server.js';
import { ensureTemporalCli } from '../../platform/server/temporal-cli.js';
import { workflowsPath } from '../../workers/create-workers.js';
import { quietBundler } from '../../workers/ephemeral-stack.js';
import { projectRoot } from '../../platform/paths.js';
import { startCluster, type RunningCluster } from '../../platform/cluster/cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    temporalCli: string;
    workflowBundlePath: string;
  }
}

let server: RunningDevServer | RunningCluster | undefined;

// A version that stops being current is found drained after the grace period, then at each refresh (3 min each by
// default): seconds here, so upgrade-learning.test.ts sees it drain.
const drainageSettings = {
  'matching.wv.VersionDrainageStatusVisibilityGracePeriod': '2s',
  'matching.wv.VersionDrainageStatusRefreshInterval': '2s',
};

async function startTestCluster(): Promise<RunningCluster> {
  // PostgreSQL runs as the postgres user when the tests run as root: the run's temporaries must let it through.
  await chmod(os.tmpdir(), 0o711);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-cluster-'));
  await chmod(dataDir, 0o711);
  return startCluster({ dataDir, dynamicConfig: drainageSettings, log: (line) => console.log(line) });
}

export async function setup(project: TestProject): Promise<void> {
  // The tests run the real bin, which runs dist/: build it from the sources as they are now (unless it already is).
  execFileSync(process.execPath, [path.join(projectRoot, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
  const cliPath = await ensureTemporalCli({ log: (line) => console.log(line) });
  const logDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-server-'));
  if (process.env.TASKLOOP_TEST_SERVER === 'cluster') {
    server = await startTestCluster();
    console.log(`cluster tests: Temporal on PostgreSQL at ${server.address} (log: ${server.serverLog})`);
  } else {
    server = await startDevServerOnFreePort({
      cliPath,
      headless: true,
      readyTimeoutMs: 90_000,
      logFile: path.join(logDir, 'server.log'),
      dynamicConfig: drainageSettings,
    });
    console.log(`integration tests: Temporal dev server at ${server.address} (log: ${logDir}/server.log)`);
  }
  const bundle = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quietBundler });
  const bundlePath = path.join(await mkdtemp(path.join(os.tmpdir(), 'taskloop-bundle-')), 'workflows.js');
  await writeFile(bundlePath, bundle.code);
  project.provide('temporalAddress', server.address);
  project.provide('temporalCli', cliPath);
  project.provide('workflowBundlePath', bundlePath);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
