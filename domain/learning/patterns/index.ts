export { byStrength, capPatterns, classifyTestOutput, classifyLines, maxPatterns, topPattern } from './classify.js';
export type { ClassifyInput } from './classify.js';
export { classifyStructured, complexFailureCount, complexPassRateBelow, importRootCauseShare } from './structured.js';
export type { TestCounts } from './structured.js';
export { isThirdPartyModule, lineRules, normalizeLine } from './line-rules.js';
export type { LineContext } from './line-rules.js';
export * from './types.js';
