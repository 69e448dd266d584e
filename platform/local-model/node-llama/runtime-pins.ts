// node-llama-cpp, the default local runtime: the npm version taskloop pins and the one package of prebuilt CPU binaries
// this platform needs (its other optional packages carry CUDA, Vulkan and other platforms' builds, 650 MB more).
import path from 'node:path';
import { localModelCacheDir } from '../pins.js';

/** Tested here: 3.21.1 loads Qwen2.5-Coder's GGUF with its prebuilt CPU binary and renders nothing of its own. */
export const NODE_LLAMA_CPP_VERSION = '3.21.1';

/** The prebuilt CPU binary package for each platform node-llama-cpp publishes one for (`@node-llama-cpp/<name>`). */
const binaryPackages: Record<string, string> = {
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'linux-arm': 'linux-armv7l',
  'darwin-arm64': 'mac-arm64-metal',
  'darwin-x64': 'mac-x64',
  'win32-x64': 'win-x64',
  'win32-arm64': 'win-arm64',
};

/** The binary package for `platform`/`arch`, or undefined where node-llama-cpp publishes none. */
export function binaryPackageFor(platform: string = process.platform, arch: string = process.arch): string | undefined {
  const name = binaryPackages[`${platform}-${arch}`];
  return name === undefined ? undefined : `@node-llama-cpp/${name}`;
}

/** `<cache>/node-llama-cpp-<version>/`: a folder of its own with its package.json and node_modules. */
export function nodeLlamaRuntimeDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(localModelCacheDir(env), `node-llama-cpp-${NODE_LLAMA_CPP_VERSION}`);
}
