// Before anything starts: every role that names a remote model (openai:, anthropic:) can reach it from here, by the
// same variables the worker's provider reads (activities/models/provider-env.ts; a unit test keeps the names equal):
// a key, or a base URL (a local server needs no key) that answers. Otherwise four attempts would fail on a missing
// key and a skill would be distilled from them.
import { endpointVariables, splitModelSpec, type RemoteProviderName } from '../../domain/providers.js';
import { probeAddress } from '../../platform/probe-address.js';
import { UsageError } from '../cli-errors.js';

export type Role = 'coder' | 'reviewer' | 'judge' | 'skillWriter';
export type RoleModels = Partial<Record<Role, string>>;

const rolePrefix: Record<Role, string> = {
  coder: 'CODER',
  reviewer: 'REVIEWER',
  judge: 'JUDGE',
  skillWriter: 'SKILL_WRITER',
};

/** The variables the worker reads for `role` on `provider`, most specific first. */
export function providerVariables(provider: RemoteProviderName, role: Role) {
  const names = endpointVariables(provider);
  const prefix = `TASKLOOP_${rolePrefix[role]}_`;
  return { apiKey: [prefix + names.apiKey, names.apiKey], baseUrl: [prefix + names.baseUrl, names.baseUrl] };
}

export interface ProviderProblem {
  role: Role;
  spec: string;
  message: string;
}

const pick = (env: NodeJS.ProcessEnv, names: string[]) =>
  names.map((name) => ({ name, value: env[name]?.trim() })).find((entry) => entry.value);

/** Each role's problem reaching its model; none for scripted models. A key's value is never read beyond "set". */
export async function findProviderProblems(models: RoleModels, env: NodeJS.ProcessEnv): Promise<ProviderProblem[]> {
  const problems: ProviderProblem[] = [];
  for (const [role, spec] of Object.entries(models) as [Role, string | undefined][]) {
    const split = spec ? splitModelSpec(spec) : undefined;
    // A local model is the worker's own server (platform/local-model): the worker checks it is installed.
    if (!spec || !split || split.provider === 'scripted' || split.provider === 'local') continue;
    const names = providerVariables(split.provider, role);
    if (pick(env, names.apiKey)) continue;
    const base = pick(env, names.baseUrl);
    if (!base) {
      problems.push({
        role,
        spec,
        message: `no key: set ${names.apiKey[1]} (or ${names.apiKey[0]} for this role only), or ${names.baseUrl[1]} for a local server that needs no key`,
      });
      continue;
    }
    const why = await probeBaseUrl(base.value as string);
    if (why)
      problems.push({
        role,
        spec,
        message: `no key, and ${base.name} (${why}); start that model server, fix ${base.name}, or set ${names.apiKey[1]}`,
      });
  }
  return problems;
}

/** Why a base URL cannot be used, naming its host and port only (a URL may carry credentials); undefined when it answers. */
async function probeBaseUrl(text: string): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL like http://127.0.0.1:8080/v1';
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const where = `${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}:${port}`;
  const probe = await probeAddress(where, 1500);
  if (probe.reachable !== false) return undefined;
  const code = (probe.error as NodeJS.ErrnoException).code;
  const reason = code === 'ECONNREFUSED' ? 'connection refused' : code === 'ENOTFOUND' ? 'host not found' : code;
  return `${url.protocol}//${where} does not answer: ${reason}`;
}

/**
 * Refuses (exit 2) with one line per role and model that cannot be reached, over every task's models. With
 * `workersElsewhere` the line names --skip-provider-check: the workers call the models with their own environment.
 */
export async function refuseUnreachableProviders(
  command: string,
  models: RoleModels[],
  options: { env?: NodeJS.ProcessEnv; workersElsewhere?: boolean } = {},
): Promise<void> {
  const { env = process.env, workersElsewhere = true } = options;
  const lines = new Set<string>();
  for (const each of models)
    for (const { role, spec, message } of await findProviderProblems(each, env))
      lines.add(`taskloop ${command}: models.${role} ${JSON.stringify(spec)}: ${message}`);
  if (lines.size === 0) return;
  if (workersElsewhere)
    lines.add(
      '(when only the workers hold the key, pass --skip-provider-check: they call the models with their own environment)',
    );
  throw new UsageError([...lines].join('\n'));
}
