// What the test node is given (runTests in run-tests.ts; one run of the command in execute-test-command.ts), apart
// from both so that neither imports the other for it.
import type { SandboxPolicy } from '../sandbox/policy.js';
import type { PathPolicy } from './path-policy.js';

/** What a test run needs of a built environment (the claim's EnvironmentRef carries it). */
export interface TestEnvironment {
  key: string;
  name: string;
  hostDir: string;
  interpreter: string;
}

export interface RunTestsInput {
  worktreePath: string;
  /** argv, run without a shell, e.g. ['python', '-m', 'pytest']. */
  command: string[];
  /** The task's own variables; the sandbox builds the rest of the environment (never the worker's secrets). */
  testEnv: Record<string, string>;
  timeoutMs: number;
  secretValues: string[];
  artifactDir: string;
  hostId: string;
  /** The repository's environment (activities/environments): its interpreter is the one `python`/`pytest` finds. */
  environment?: TestEnvironment;
  /** Mode, network and limits of the run (see activities/sandbox/policy.ts). */
  sandbox: SandboxPolicy;
  /** The review's path rules, checked before anything runs (a refused test edit never executes). */
  pathPolicy?: PathPolicy;
  /** Where the running process group is recorded, so a retry or a restarted worker can kill it. */
  processDir?: string;
  heartbeat?: (details?: unknown) => void;
  signal?: AbortSignal;
  /** Most cases kept in the result (failing ones first); default 500. */
  maxCases?: number;
  /** How often to heartbeat while the command runs; default HEARTBEAT_INTERVAL_MS (1 s). */
  heartbeatIntervalMs?: number;
}
