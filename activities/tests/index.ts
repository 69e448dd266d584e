export { runTests, startHeldRun, TestsHeld, type HeldTestRun, type RunTestsInput } from './run-tests.js';
export { runTestCommand, type RunTestCommandInput } from './run-test-command.js';
export type { PathPolicy } from './path-policy.js';
export { testThenCommit, ruleVerdict, type JudgedTestRun, type TestThenCommitResult } from './commit-after-tests.js';
