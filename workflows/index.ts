// Every workflow a taskloop worker serves (the bundle entry point).
export { probeWorkflow } from './probe.js';
