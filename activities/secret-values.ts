// Secret values are resolved on the worker from names, so only names ever travel through workflow history.
import { isSecretEnvName } from '../domain/secrets.js';

/** Values of the named variables plus every variable whose name looks secret (API keys, tokens, passwords). */
export function resolveSecretValues(names: string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value && (names.includes(name) || isSecretEnvName(name))) values.add(value);
  }
  return [...values];
}
