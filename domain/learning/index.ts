export * from './patterns/index.js';
export * from './adaptations.js';
export * from './similarity.js';
export * from './sha256.js';
export * from './skills.js';
export { runTaskSchema, runTaskStatuses, countPatterns } from './run-task.js';
export type { RunTask } from './run-task.js';
export * from './lessons.js';
export * from './report-card.js';
