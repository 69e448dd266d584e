// The `scripted:<file>` format: recorded OpenAI-style assistant turns per role. Pure, so the CLI can validate a
// file before anything starts and the worker can validate it again when it loads it.
import { z } from 'zod';

const scriptedToolCallSchema = z.strictObject({
  id: z.string().optional(),
  name: z.string({ error: 'expected a tool name string' }).min(1, { error: 'expected a non-empty tool name' }),
  arguments: z.record(z.string(), z.unknown(), { error: 'expected a JSON object' }).default({}),
});

const scriptedTurnSchema = z.strictObject({
  role: z.literal('assistant').optional(),
  content: z.string({ error: 'expected a string' }).default(''),
  tool_calls: z.array(scriptedToolCallSchema, { error: 'expected an array' }).default([]),
  usage: z
    .strictObject({
      input_tokens: z.int().nonnegative(),
      output_tokens: z.int().nonnegative(),
    })
    .optional(),
});

const turnsSchema = z.array(scriptedTurnSchema, { error: 'expected an array of turns' }).default([]);

const scriptSchema = z.strictObject(
  { coder: turnsSchema, reviewer: turnsSchema, judge: turnsSchema, skillWriter: turnsSchema },
  { error: 'expected a JSON object' },
);

export type ScriptedTurn = z.infer<typeof scriptedTurnSchema>;
export type Script = z.infer<typeof scriptSchema>;

/** How to fix a problem, keyed by the last key of its JSON path. */
const fixes: Record<string, string> = {
  '': 'the top level is an object with optional arrays "coder", "reviewer", "judge" and "skillWriter"',
  coder: 'give the role a list of turns: [{"content": "...", "tool_calls": [...]}]',
  tool_calls: 'write "tool_calls" as an array like [{"name": "read_file", "arguments": {"path": "app.py"}}]',
  arguments: 'write "arguments" as a JSON object such as {"path": "app.py"}, not a string',
  name: 'give every tool call a "name" string such as "read_file"',
  content: 'write "content" as a string (use "" for none)',
  usage: 'write "usage" as {"input_tokens": 10, "output_tokens": 5} with whole numbers >= 0',
};

/** Formats a zod path as `coder[2].tool_calls[0].arguments`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = formatJsonPath(issue.path) || '(top level)';
  if (issue.code === 'unrecognized_keys') {
    return `at ${where}: unknown key(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}; fix: remove or rename them (check the spelling, e.g. "tool_calls")`;
  }
  const keys = issue.path.filter((k): k is string => typeof k === 'string');
  const last = keys.at(-1) ?? '';
  const fixKey = ['reviewer', 'judge', 'skillWriter'].includes(last)
    ? 'coder'
    : ['input_tokens', 'output_tokens'].includes(last)
      ? 'usage'
      : last;
  const fix = fixes[fixKey] ?? 'correct the value at that path';
  return `at ${where}: ${issue.message}; fix: ${fix}`;
}

/** Validates parsed JSON as a script; the error lists each problem with its JSON path and fix. */
export function parseScript(value: unknown): { success: true; data: Script } | { success: false; error: string } {
  const parsed = scriptSchema.safeParse(value);
  if (parsed.success) return { success: true, data: parsed.data };
  const shown = parsed.error.issues.slice(0, 5).map(describeIssue);
  const more =
    parsed.error.issues.length > shown.length ? ` (and ${parsed.error.issues.length - shown.length} more)` : '';
  return { success: false, error: shown.join('; ') + more };
}
