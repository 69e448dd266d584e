// Capabilities scope what an agent may do. Agent versions grant them; tools and tasks require them. Adding a
// capability is one line in `capabilities`; a role's defaults and requirements say what it gets and needs.
// No zod here: the task workflow imports this module, and every workflow execution evaluates its modules again
// (workflows/index.ts); the registry's schema (domain/agents.ts) validates capability names.

export const capabilities = [
  'READ_REPOSITORY',
  'INVESTIGATE_WORKTREE',
  'WRITE_WORKTREE',
  'RUN_TESTS',
  'COMMIT_CHANGES',
] as const;
export type Capability = (typeof capabilities)[number];

type Role = 'coder' | 'reviewer' | 'judge' | 'skillWriter';

/** Capabilities that change nothing: the most a reviewer or judge may be granted. */
export const readOnlyCapabilities: readonly Capability[] = ['READ_REPOSITORY', 'INVESTIGATE_WORKTREE'];

/** What a version of a role has when the registry does not list its capabilities. */
export const defaultCapabilities: Readonly<Record<Role, readonly Capability[]>> = {
  coder: ['READ_REPOSITORY', 'INVESTIGATE_WORKTREE', 'WRITE_WORKTREE', 'RUN_TESTS'],
  reviewer: readOnlyCapabilities,
  judge: readOnlyCapabilities,
  skillWriter: ['READ_REPOSITORY'],
};

/** What every task needs of a role's version: the coder must be able to change the worktree. */
export const requiredCapabilities: Readonly<Record<Role, readonly Capability[]>> = {
  coder: ['READ_REPOSITORY', 'WRITE_WORKTREE'],
  reviewer: [],
  judge: [],
  skillWriter: [],
};

/** The roles that may only read: a registry granting them more is refused. */
export const readOnlyRoles: readonly Role[] = ['reviewer', 'judge'];

/** The typed cause of a task failed for a missing capability (shape of domain/failure-causes.ts `FailureCause`). */
export interface CapabilityMissingCause {
  kind: 'CapabilityMissing';
  message: string;
  details: { role: string; version: string; capability: Capability };
}

/**
 * The first capability the task needs that the agent version lacks, as a cause naming role, version and capability;
 * undefined when it has them all. Called by the workflow before the node that would use the agent.
 */
export function findMissingCapability(input: {
  role: Role;
  version: string;
  granted: readonly Capability[];
  required?: readonly Capability[];
}): CapabilityMissingCause | undefined {
  const capability = (input.required ?? requiredCapabilities[input.role]).find(
    (needed) => !input.granted.includes(needed),
  );
  if (capability === undefined) return undefined;
  return {
    kind: 'CapabilityMissing',
    message: `missing capability: ${input.role}/${input.version} lacks ${capability}, which the task needs; fix: grant it in agents/registry.json ("capabilities") or pin a version that has it`,
    details: { role: input.role, version: input.version, capability },
  };
}
