export { runTests, type RunTestsInput, type TestEnvironment } from './run-tests.js';
export type { PathPolicy } from './path-policy.js';
