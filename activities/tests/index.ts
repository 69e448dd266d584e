export { runTests, type RunTestsInput, type TestEnvironment } from './run-tests.js';
export { runTestCommand, type RunTestCommandInput } from './run-test-command.js';
export type { PathPolicy } from './path-policy.js';
