// Agent versions: each role has versions (prompt template, model, parameters) and one champion. The registry is
// data (agents/registry.json), so promoting a new champion needs no code change.
import { z } from 'zod';
import {
  capabilities as capabilityNames,
  defaultCapabilities,
  readOnlyCapabilities,
  readOnlyRoles,
  type Capability,
} from './capabilities.js';
import { modelSpecPattern } from './task-spec.js';
import { providers } from './providers.js';

const providerNames = providers.map((provider) => provider.name) as [string, ...string[]];

export const agentRoles = ['coder', 'reviewer', 'judge', 'skillWriter'] as const;
export type AgentRole = (typeof agentRoles)[number];

const capabilitySchema = z.enum(capabilityNames);

const versionIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const agentVersionSchema = z.strictObject({
  /** `builtin` for the prompt shipped with taskloop, or a file path relative to the registry file. */
  prompt: z.string().min(1).default('builtin'),
  /** The role's model when neither flags, the task spec nor the config choose one. */
  model: z.string().regex(modelSpecPattern).optional(),
  parameters: z
    .strictObject({
      temperature: z.number().min(0).max(2).optional(),
      /** The output limit each request sends (domain/model-limits.ts has the role's default). */
      maxTokens: z.number().int().min(1).optional(),
      /** The model's context window in tokens, when its server does not say (llama.cpp and Ollama do). */
      contextWindow: z.number().int().min(256).optional(),
    })
    .default(() => ({})),
  description: z.string().optional(),
  /** What this version may do; the role's defaults when absent (see domain/capabilities.ts). */
  capabilities: z.array(capabilitySchema).optional(),
  /**
   * What the coder's first message brings: `repository` (the file list and the ranked files, the default) or
   * `evidence` (the tests run at the base first; their failures, then the code the traceback and the goal name).
   */
  context: z.enum(['repository', 'evidence']).optional(),
  /** The coder's tools by name, when fewer than its capabilities allow (a small set for small models); must hold finish. */
  tools: z
    .array(z.string().regex(/^[a-z_]+$/))
    .min(1)
    .refine((names) => names.includes('finish'), 'must include finish, or the coder cannot end its turn')
    .optional(),
  /**
   * How the coder's calls travel: `native` (the default: the tools go with each request, and the server's tool calls
   * are read, or JSON calls in the text when it returns none) or `text` (no tools in the request: the version's prompt
   * shows them and the JSON format, and calls are read from the reply's text).
   */
  toolCalls: z.enum(['native', 'text']).optional(),
});
export type AgentVersion = z.infer<typeof agentVersionSchema>;

/**
 * A rule that gives a role's default version by the model it runs on (first match wins; none: the champion). `for`
 * names the models in words, as show and status say why a version ran: "coder-small-text (default for local models)".
 */
export const modelDefaultSchema = z.strictObject({
  for: z.string().min(1).max(80),
  /** The provider of the model spec (`local` in `local:qwen2.5-coder-1.5b`). */
  provider: z.enum(providerNames).optional(),
  /** The most parameters, in billions, the model's name says it has (`1.5b` in `qwen2.5-coder:1.5b`; domain/model-size.ts). */
  parametersAtMost: z.number().positive().optional(),
  version: z.string().regex(versionIdPattern),
});
export type ModelDefault = z.infer<typeof modelDefaultSchema>;

const roleEntrySchema = z
  .strictObject({
    champion: z.string().regex(versionIdPattern),
    versions: z.record(z.string().regex(versionIdPattern), agentVersionSchema),
    /** Defaults by model, over the champion (domain/agent-choice.ts); `--agent` and `agents.<role>` win over them. */
    modelDefaults: z.array(modelDefaultSchema).optional(),
    /** What `taskloop eval --promote` decided, with its figures (domain/eval/registry-edit.ts), oldest first. */
    history: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .refine((entry) => entry.champion in entry.versions, {
    message: 'champion must name one of the versions',
    path: ['champion'],
  })
  .superRefine((entry, context) => {
    (entry.modelDefaults ?? []).forEach((rule, index) => {
      if (!(rule.version in entry.versions))
        context.addIssue({
          code: 'custom',
          path: ['modelDefaults', index, 'version'],
          message: `names no version of this role (known: ${Object.keys(entry.versions).join(', ')})`,
        });
    });
  });

export const agentRegistrySchema = z
  .strictObject({
    coder: roleEntrySchema.optional(),
    reviewer: roleEntrySchema.optional(),
    judge: roleEntrySchema.optional(),
    skillWriter: roleEntrySchema.optional(),
  })
  .superRefine((registry, context) => {
    // Reviewer and judge models only read: a registry granting them more is a mistake, not a choice.
    for (const role of readOnlyRoles) {
      for (const [version, entry] of Object.entries(registry[role]?.versions ?? {})) {
        const extra = (entry.capabilities ?? []).filter((capability) => !readOnlyCapabilities.includes(capability));
        if (extra.length > 0) {
          context.addIssue({
            code: 'custom',
            path: [role, 'versions', version, 'capabilities'],
            message: `${role} is read-only; remove ${extra.join(', ')} (allowed: ${readOnlyCapabilities.join(', ')})`,
          });
        }
      }
    }
  });
export type AgentRegistry = z.infer<typeof agentRegistrySchema>;

/** The version a run uses, as recorded on attempts and commits: `<role>/<version>`. */
export interface SelectedAgent extends AgentVersion {
  role: AgentRole;
  version: string;
  capabilities: Capability[];
}

/** The capabilities a version has: its own list, or its role's defaults. */
export const capabilitiesOf = (role: AgentRole, version: AgentVersion): Capability[] => [
  ...(version.capabilities ?? defaultCapabilities[role]),
];

/** Validates a registry; the error names each bad field. */
export function parseAgentRegistry(
  input: unknown,
): { success: true; data: AgentRegistry } | { success: false; error: string } {
  const result = agentRegistrySchema.safeParse(input);
  if (result.success) return { success: true, data: result.data };
  const lines = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  return { success: false, error: lines.join('\n') };
}

/** The built-in version a role uses when the registry has no entry for it. */
export const builtinAgent = (role: AgentRole): SelectedAgent => ({
  role,
  version: 'builtin',
  prompt: 'builtin',
  parameters: {},
  capabilities: [...defaultCapabilities[role]],
});

/** The role's champion, or the pinned version when one is asked for; errors name the role and the versions there are. */
export function selectAgentVersion(
  registry: AgentRegistry,
  role: AgentRole,
  pinned?: string,
): { success: true; data: SelectedAgent } | { success: false; error: string } {
  const entry = registry[role];
  if (!entry)
    return pinned === undefined || pinned === 'builtin'
      ? { success: true, data: builtinAgent(role) }
      : {
          success: false,
          error: `agent role ${role} has no versions in the registry, so version '${pinned}' does not exist`,
        };
  const version = pinned ?? entry.champion;
  const found = entry.versions[version];
  if (!found)
    return {
      success: false,
      error: `agent ${role} has no version '${version}'; known versions: ${Object.keys(entry.versions).join(', ')}`,
    };
  return { success: true, data: { role, version, ...found, capabilities: capabilitiesOf(role, found) } };
}

/** A registry whose `role` champion is `version` (which must exist); everything else unchanged. */
export function promoteChampion(
  registry: AgentRegistry,
  role: AgentRole,
  version: string,
): { success: true; data: AgentRegistry } | { success: false; error: string } {
  const entry = registry[role];
  if (!entry || !(version in entry.versions))
    return { success: false, error: `cannot promote ${role}/${version}: no such version in the registry` };
  return { success: true, data: { ...registry, [role]: { ...entry, champion: version } } };
}

/** The label recorded on attempts and commits, e.g. `coder/coder-2`. */
export const agentLabel = (agent: { role: AgentRole; version: string }): string => `${agent.role}/${agent.version}`;
