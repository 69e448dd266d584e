// The workflow tier: finds (or installs) the time-skipping test server and bundles the workflows once per run.
import { bundleWorkflowCode } from '@temporalio/worker';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webpack from 'webpack';
import type { TestProject } from 'vitest/node';
import { ensureTestServer } from '../../platform/server/test-server.js';
import { workflowsPath } from '../../workers/create-workers.js';
import { quietBundler } from '../../workers/ephemeral-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    testServerPath: string;
    workflowTierBundlePath: string;
  }
}

const realKeys = /[\\/]workflows[\\/]search-attributes\.[jt]s$/;
const testKeys = fileURLToPath(new URL('./support/search-attributes.ts', import.meta.url));

export async function setup(project: TestProject): Promise<void> {
  const serverPath = await ensureTestServer({ log: (line) => console.log(line) });
  const bundle = await bundleWorkflowCode({
    workflowsPath: workflowsPath(),
    logger: quietBundler,
    webpackConfigHook: (config) => ({
      ...config,
      plugins: [...(config.plugins ?? []), new webpack.NormalModuleReplacementPlugin(realKeys, testKeys)],
    }),
  });
  const bundlePath = path.join(await mkdtemp(path.join(os.tmpdir(), 'taskloop-wf-bundle-')), 'workflows.js');
  await writeFile(bundlePath, bundle.code);
  project.provide('testServerPath', serverPath);
  project.provide('workflowTierBundlePath', bundlePath);
}
