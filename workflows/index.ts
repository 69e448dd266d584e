// Every workflow a taskloop worker serves (the bundle entry point).
export { probeWorkflow } from './probe.js';
export { taskWorkflow } from './task.js';
export { projectWorkflow } from './project.js';
export { reflectionWorkflow } from './reflection.js';
