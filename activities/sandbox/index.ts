export { runSandboxed, type SandboxedRun, type SandboxedRunInput } from './run-sandboxed.js';
export { probeBwrap } from './probe.js';
export { killRecordedGroups, processRecordsDir } from './process-records.js';
export { removeDeadWorkersCgroups } from './pids-cgroup.js';
export { removeDeadWorkersMemoryCgroups } from './memory-cgroup.js';
export {
  defaultLimits,
  resolveSandboxMode,
  resolveWorkerSandbox,
  sandboxPolicyFor,
  SandboxConfigError,
  type SandboxLimits,
  type SandboxMode,
  type SandboxPolicy,
  type TaskSandboxFields,
  type WorkerSandbox,
} from './policy.js';
export type { RunCause } from './detect-cause.js';
