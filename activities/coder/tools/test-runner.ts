// The one place run_tests reaches the test node's runner: the same sandboxed runner as the test node.
import type { TestRunResult } from '../../../domain/records.js';
import type { SandboxPolicy } from '../../sandbox/index.js';
import { runTests, type TestEnvironment } from '../../tests/index.js';

/** How the coder's in-attempt test runs run: the task's command, environment and limits. */
export interface InAttemptTests {
  /** The task's test command (argv). */
  command: string[];
  /** The task's own test variables; the sandbox builds the rest of the environment. */
  testEnv: Record<string, string>;
  /** The same isolation as the test node (mode, network, limits). */
  sandbox: SandboxPolicy;
  /** The attempt's environment, as the test node uses it. */
  environment?: TestEnvironment;
  /** Where running process groups are recorded, so a retry or a restarted worker can kill them. */
  processDir?: string;
  timeoutMs: number;
  secretValues: string[];
  /** Each run's logs go to `<artifactDir>/coder-tests/run-<n>`. */
  artifactDir: string;
  hostId: string;
  /** Most runs in one attempt. */
  maxRuns: number;
  /** Epoch ms when the task's wall-time budget ends: a run never goes past it. */
  deadlineAt?: number;
  heartbeat?: (details?: unknown) => void;
  signal?: AbortSignal;
}

/** Runs `argv` in the worktree through the test node's runner (timeout, process tree killed, scrubbed environment). */
export async function runTaskTests(
  tests: InAttemptTests,
  input: { worktreePath: string; argv: string[]; artifactDir: string; timeoutMs: number },
): Promise<TestRunResult> {
  // No path policy: the coder's runs see its worktree as it is (the test node's run checks the review's rules).
  return runTests({
    worktreePath: input.worktreePath,
    command: input.argv,
    testEnv: tests.testEnv,
    sandbox: tests.sandbox,
    environment: tests.environment,
    processDir: tests.processDir,
    timeoutMs: input.timeoutMs,
    secretValues: tests.secretValues,
    artifactDir: input.artifactDir,
    hostId: tests.hostId,
    maxCases: 50,
    heartbeat: tests.heartbeat,
    signal: tests.signal,
  });
}
