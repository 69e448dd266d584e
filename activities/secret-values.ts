// Secret values are resolved on the worker from names, so only names ever travel through workflow history.
import { scrubText, secretValuesIn } from '../domain/secrets.js';

/** Values of the named variables plus every variable whose name looks secret (API keys, tokens, passwords). */
export function resolveSecretValues(names: string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const { declared, detected } = secretValuesIn(env, names);
  return [...declared, ...detected];
}

/** The scrubber for sinks that know no declared names (artifacts, events): secret-named values and key formats. */
export const scrubForSink = (text: string, declaredNames: string[] = []) =>
  scrubText(text, resolveSecretValues(declaredNames));
