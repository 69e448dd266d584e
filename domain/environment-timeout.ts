// The environment step's time bound, apart from the field's schema: workflow code reads it, and the task workflow's
// modules stay free of zod (test/unit/workflows/lazy-workflows.test.ts: every execution evaluates them again).

/** The task field `environment` as the workflow reads it (environment.ts's schema gives exactly this). */
export type EnvironmentSpec =
  | 'auto'
  | {
      setup?: string[] | undefined;
      python?: string | undefined;
      files?: string[] | undefined;
      timeoutMs?: number | undefined;
    };

/** Set-up longer than this is stopped (task field `environment.timeoutMs`). */
export const DEFAULT_SETUP_TIMEOUT_MS = 20 * 60_000;
/** The longest set-up a task may ask for (the schema's bound on `environment.timeoutMs`). */
export const MAX_SETUP_TIMEOUT_MS = 2 * 60 * 60_000;

/** The object form, `auto` written out. */
export function environmentFields(spec: EnvironmentSpec): Exclude<EnvironmentSpec, 'auto'> {
  return spec === 'auto' ? {} : spec;
}

/** How long the set-up of `spec` may take. */
export function setupTimeoutOf(spec: EnvironmentSpec | undefined): number {
  return (spec && environmentFields(spec).timeoutMs) ?? DEFAULT_SETUP_TIMEOUT_MS;
}
