// The names of the programs that can serve a local model, apart from how each is started (runtime.ts), so the
// installer can name them without importing the starter that imports it.
export const localRuntimes = ['node-llama-cpp', 'llama-server'] as const;
export type LocalRuntime = (typeof localRuntimes)[number];
export const DEFAULT_LOCAL_RUNTIME: LocalRuntime = 'node-llama-cpp';
