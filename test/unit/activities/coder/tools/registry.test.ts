import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildSystemPrompt } from '../../../../../activities/coder/system-prompt.js';
import { defineTool } from '../../../../../activities/coder/tools/define-tool.js';
import { coderTools, runToolCall, toolsFor } from '../../../../../activities/coder/tools/registry.js';
import type { CoderTool } from '../../../../../activities/coder/tools/types.js';
import { capabilities } from '../../../../../domain/capabilities.js';
import { createToolContext } from '../fixtures.js';

/** The problems that put a tool's schema, JSON schema and prompt line out of step (empty when in sync). */
function syncProblems(tool: CoderTool): string[] {
  const schema = tool.spec.parameters as {
    type?: string;
    properties?: Record<string, { description?: string }>;
    required?: string[];
    additionalProperties?: boolean;
  };
  const problems: string[] = [];
  if (schema.type !== 'object' || schema.additionalProperties !== false)
    problems.push('arguments are not a strict object');
  const names = Object.keys(schema.properties ?? {});
  for (const name of names)
    if (!schema.properties?.[name]?.description) problems.push(`argument ${name} has no description`);
  const line = /^- ([a-z_]+)\(([^)]*)\): (.+)$/.exec(tool.promptLine);
  if (!line) return [...problems, `prompt line '${tool.promptLine}' is malformed`];
  if (line[1] !== tool.spec.name) problems.push('prompt line names another tool');
  const listed = line[2] === '' ? [] : line[2].split(', ');
  const expected = names.map((name) => (schema.required?.includes(name) ? name : `${name}?`));
  if (listed.join(',') !== expected.join(','))
    problems.push(`prompt line lists (${listed.join(', ')}), schema has (${expected.join(', ')})`);
  if (line[3] !== tool.spec.description || tool.spec.description.trim() === '')
    problems.push('prompt line and description differ');
  return problems;
}

describe('coder tools: one source per tool', () => {
  it.each(coderTools.map((tool) => [tool.spec.name, tool] as const))(
    '%s: zod schema, JSON schema and prompt line agree',
    (_name, tool) => {
      expect(syncProblems(tool)).toEqual([]);
    },
  );

  it('catches a tool whose schema is not strict or lacks a description', () => {
    const loose = defineTool({
      name: 'loose',
      capability: 'READ_REPOSITORY',
      description: 'x',
      args: z.object({ a: z.string() }),
      run: async () => ({ reply: '' }),
    });
    expect(syncProblems(loose)).toEqual(['arguments are not a strict object', 'argument a has no description']);
  });

  it('puts every offered tool, and only those, in the system prompt', () => {
    const offered = toolsFor(['READ_REPOSITORY']);
    const prompt = buildSystemPrompt(offered);
    for (const tool of coderTools) expect(prompt.includes(tool.promptLine)).toBe(offered.includes(tool));
    expect(buildSystemPrompt(offered, 'Custom.\n{{tools}}')).toBe(
      `Custom.\n${offered.map((tool) => tool.promptLine).join('\n')}`,
    );
  });

  it('refuses unknown arguments the same way for every tool', async () => {
    const context = createToolContext('/nonexistent');
    for (const tool of coderTools) {
      expect((await tool.run({ bogus: 1 }, context)).reply, tool.spec.name).toContain(
        `unknown argument(s) 'bogus' for ${tool.spec.name}`,
      );
    }
  });

  it('gives every capability at least one tool, and every tool a known capability', () => {
    for (const capability of capabilities.filter((c) => c !== 'COMMIT_CHANGES'))
      expect(toolsFor([capability]).length, capability).toBeGreaterThan(0);
    for (const tool of coderTools) expect(capabilities).toContain(tool.capability);
  });
});

describe('capability-scoped tool calls', () => {
  it('offers exactly the tools of the granted capabilities', () => {
    expect(toolsFor(['READ_REPOSITORY']).map((tool) => tool.spec.name)).toEqual([
      'list_files',
      'read_file',
      'search',
      'finish',
    ]);
    expect(toolsFor(['INVESTIGATE_WORKTREE']).map((tool) => tool.spec.name)).toEqual([
      'git_diff',
      'git_log',
      'show_file',
    ]);
  });

  it('refuses a tool the agent lacks the capability for, naming it, and counts the refusal', async () => {
    const context = createToolContext('/nonexistent');
    const reply = await runToolCall({ id: '1', name: 'run_tests', arguments: {} }, context, {
      agent: 'coder/coder-1-no-tests',
      capabilities: ['READ_REPOSITORY', 'WRITE_WORKTREE'],
    });
    expect(reply.reply).toContain(
      'refused: run_tests needs capability RUN_TESTS, which coder/coder-1-no-tests does not have',
    );
    expect(context.telemetry.refusedToolCalls).toBe(1);
    const unknown = await runToolCall({ id: '2', name: 'fly', arguments: {} }, context, {
      agent: 'coder/x',
      capabilities: ['READ_REPOSITORY'],
    });
    expect(unknown.reply).toBe(
      "error: there is no tool named 'fly'. The tools are: list_files, read_file, search, finish.",
    );
  });
});
