// The entry point for the coder's in-attempt `run_tests` tool: the same sandboxed run as the test node.
import type { TestRunResult } from '../../domain/records.js';
import { runTests, type RunTestsInput } from './run-tests.js';

/** Input of the coder's test runs: like the test node's, without the review's path rules. */
export type RunTestCommandInput = Omit<RunTestsInput, 'pathPolicy'>;

/** Runs `command` in the worktree through the sandbox; a failing run is a value (see TestRunResult.cause). */
export function runTestCommand(input: RunTestCommandInput): Promise<TestRunResult> {
  return runTests(input);
}
