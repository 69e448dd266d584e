// One source per tool: its strict zod schema yields the JSON schema offered to the model, its line in the system
// prompt and the validation of every call (unknown arguments refused the same way for every tool).
import { z } from 'zod';
import type { Capability } from '../../../domain/capabilities.js';
import type { ToolSpec } from '../../models/types.js';
import { parseArguments } from './arguments.js';
import type { CoderTool, ToolContext, ToolOutcome } from './types.js';

export interface ToolDefinition<S extends z.ZodObject> {
  name: string;
  /** What an agent version must be granted to be offered this tool. */
  capability: Capability;
  /** One line, for the JSON spec and the system prompt. */
  description: string;
  /** A strict object (z.strictObject): each property with `.describe()`. */
  args: S;
  run(args: z.infer<S>, context: ToolContext): Promise<ToolOutcome>;
  /**
   * Reads what a small model means by arguments its schema would refuse, before validation (e.g. run_tests with
   * `tests: true` for "all of them"); the offered schema stays as it is.
   */
  lenient?(args: Record<string, unknown>): Record<string, unknown>;
  /** Called for every call before validation (counters that count attempts, valid or not). */
  onCall?(context: ToolContext): void;
  /** Called when the arguments are refused. */
  onRefused?(context: ToolContext): void;
}

/** The JSON schema of a tool's arguments, as offered to the model (inputs: defaults make a property optional). */
export function toParametersSchema(args: z.ZodObject): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(args, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return schema;
}

/** `- name(a, b?): description`, from the JSON schema: the line the system prompt shows for the tool. */
export function toPromptLine(spec: ToolSpec): string {
  const properties = Object.keys((spec.parameters.properties ?? {}) as Record<string, unknown>);
  const required = new Set((spec.parameters.required ?? []) as string[]);
  const args = properties.map((name) => (required.has(name) ? name : `${name}?`)).join(', ');
  return `- ${spec.name}(${args}): ${spec.description}`;
}

export function defineTool<S extends z.ZodObject>(definition: ToolDefinition<S>): CoderTool {
  const spec: ToolSpec = {
    name: definition.name,
    description: definition.description,
    parameters: toParametersSchema(definition.args),
  };
  return {
    spec,
    capability: definition.capability,
    promptLine: toPromptLine(spec),
    async run(args, context) {
      definition.onCall?.(context);
      const given = definition.lenient && isObject(args) ? definition.lenient({ ...args }) : args;
      const parsed = parseArguments(definition.name, definition.args, given);
      if (!parsed.success) {
        definition.onRefused?.(context);
        return { reply: parsed.error };
      }
      return definition.run(parsed.data, context);
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
