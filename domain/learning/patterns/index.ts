export { classifyTestOutput, classifyLines, topPattern } from './classify.js';
export type { ClassifyInput } from './classify.js';
export { classifyStructured, complexFailureCount, complexPassRateBelow, importRootCauseShare } from './structured.js';
export type { TestCounts } from './structured.js';
export { lineRules, normalizeLine } from './line-rules.js';
export * from './types.js';
