// Validates tool arguments; a problem becomes a reply to the model naming the argument.
import { z } from 'zod';

function describeIssue(tool: string, issue: z.core.$ZodIssue): string {
  const name = issue.path.length > 0 ? issue.path.map(String).join('.') : '';
  if (issue.code === 'unrecognized_keys') {
    return `unknown argument(s) ${issue.keys.map((k) => `'${k}'`).join(', ')} for ${tool}`;
  }
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) {
    return `argument '${name}' is required for ${tool}`;
  }
  return name === '' ? `${tool}: ${issue.message}` : `argument '${name}' of ${tool}: ${issue.message}`;
}

/** Parses `args` with `schema`; on failure the error is an `error: ...` reply that names the argument. */
export function parseArguments<T extends z.ZodType>(
  tool: string,
  schema: T,
  args: Record<string, unknown>,
): { success: true; data: z.infer<T> } | { success: false; error: string } {
  const parsed = schema.safeParse(args);
  if (parsed.success) return { success: true, data: parsed.data };
  const problems = parsed.error.issues.map((issue) => describeIssue(tool, issue));
  return { success: false, error: `error: ${problems.join('; ')}. Check the tool's parameters and call it again.` };
}
