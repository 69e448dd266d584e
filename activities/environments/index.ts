export { ensureEnvironment, type EnsureEnvironmentInput, type EnvironmentRef } from './ensure.js';
export {
  environmentCacheDir,
  envDirOf,
  listEnvironments,
  readManifest,
  type EnvironmentManifest,
} from './cache-dir.js';
export { planEnvironment, repoIdentity, type EnvironmentPlan } from './plan.js';
export { removeDeadStaging } from './staging.js';
