export { runTests, type RunTestsInput } from './run-tests.js';
