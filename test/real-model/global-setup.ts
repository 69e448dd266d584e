// The tier needs the installed local model (`npm run test:real-model` runs `taskloop model install` first, which
// builds on a fresh machine and reuses the cache after) and, like the integration tests, one Temporal dev server.
import type { TestProject } from 'vitest/node';
import { modelLooksComplete } from '../../platform/local-model/assemble-model.js';
import { serverRuns } from '../../platform/local-model/install.js';
import { localModelPaths } from '../../platform/local-model/pins.js';
import { tierModel } from './tier-model.js';
import { setup as setupTemporal, teardown as teardownTemporal } from '../integration/global-setup.js';

export async function setup(project: TestProject): Promise<void> {
  const paths = localModelPaths(process.env, tierModel);
  if (!(await serverRuns(paths.serverBinary)) || !(await modelLooksComplete(paths.model, tierModel)))
    throw new Error(
      `the real-model tier needs the local model (${paths.serverBinary}, ${paths.model}): run taskloop model install --model ${tierModel.name}, or npm run test:real-model, which does`,
    );
  await setupTemporal(project);
}

export const teardown = teardownTemporal;
