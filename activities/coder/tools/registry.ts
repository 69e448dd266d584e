// The coder's tool set and the dispatcher that runs one tool call.
import type { ToolCall, ToolSpec } from '../../models/types.js';
import { finishTool } from './finish.js';
import { listFilesTool } from './list-files.js';
import { readFileTool } from './read-file.js';
import { replaceInFileTool } from './replace-in-file.js';
import { searchTool } from './search.js';
import type { CoderTool, ToolContext, ToolOutcome } from './types.js';
import { writeFileTool } from './write-file.js';

export { resolveInWorktree } from './path-guard.js';
export type { ResolvedPath, ResolveResult } from './path-guard.js';
export type { CoderTool, ToolContext, ToolOutcome } from './types.js';

/** Every tool the coder may call, in the order they are offered. */
export const coderTools: readonly CoderTool[] = [listFilesTool, readFileTool, searchTool, writeFileTool, replaceInFileTool, finishTool];

/** The tool specs offered to the model. */
export const coderToolSpecs: ToolSpec[] = coderTools.map((tool) => tool.spec);

/** Runs one tool call; an unknown tool is a reply to the model, not an exception. */
export async function runToolCall(call: ToolCall, context: ToolContext): Promise<ToolOutcome> {
  const tool = coderTools.find((candidate) => candidate.spec.name === call.name);
  if (!tool) {
    const names = coderTools.map((candidate) => candidate.spec.name).join(', ');
    return { reply: `error: there is no tool named '${call.name}'. The tools are: ${names}.` };
  }
  return tool.run(call.arguments, context);
}
