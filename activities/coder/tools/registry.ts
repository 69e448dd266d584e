// The coder's tool set: each tool in its own file, listed once here. An agent is offered the tools of its
// capabilities; a call of any other tool is refused with a reply naming the capability it lacks.
import type { Capability } from '../../../domain/capabilities.js';
import type { ToolCall, ToolSpec } from '../../models/types.js';
import { deleteFileTool, moveFileTool } from './file-moves.js';
import { finishTool } from './finish.js';
import { gitDiffTool, gitLogTool, showFileTool } from './git-tools.js';
import { listFilesTool } from './list-files.js';
import { readFileTool } from './read-file.js';
import { replaceInFileTool } from './replace-in-file.js';
import { runTestsTool } from './run-tests-tool.js';
import { searchTool } from './search.js';
import type { CoderTool, ToolContext, ToolOutcome } from './types.js';
import { writeFileTool } from './write-file.js';

export { resolveInWorktree } from './path-guard.js';
export type { ResolvedPath, ResolveResult } from './path-guard.js';
export type { CoderTool, ToolContext, ToolOutcome } from './types.js';

/** Every tool there is, in the order they are offered. */
export const coderTools: readonly CoderTool[] = [
  listFilesTool,
  readFileTool,
  searchTool,
  gitDiffTool,
  gitLogTool,
  showFileTool,
  writeFileTool,
  replaceInFileTool,
  deleteFileTool,
  moveFileTool,
  runTestsTool,
  finishTool,
];

/** The tools an agent with `granted` capabilities is offered; only those `named` when its version lists them. */
export const toolsFor = (granted: readonly Capability[], named?: readonly string[]): CoderTool[] =>
  coderTools.filter((tool) => granted.includes(tool.capability) && (!named || named.includes(tool.spec.name)));

/** The tool specs offered to the model. */
export const toolSpecsFor = (granted: readonly Capability[]): ToolSpec[] => toolsFor(granted).map((tool) => tool.spec);

/** Who is calling: the agent label (e.g. `coder/coder-1`) and what it was granted. */
export interface ToolCaller {
  agent: string;
  capabilities: readonly Capability[];
  /** The tools its version lists, when it offers fewer than its capabilities allow. */
  tools?: readonly string[];
}

/** Runs one tool call; an unknown or ungranted tool is a reply to the model, not an exception. */
export async function runToolCall(call: ToolCall, context: ToolContext, caller: ToolCaller): Promise<ToolOutcome> {
  const tool = coderTools.find((candidate) => candidate.spec.name === call.name);
  const offered = toolsFor(caller.capabilities, caller.tools)
    .map((candidate) => candidate.spec.name)
    .join(', ');
  if (!tool) return { reply: `error: there is no tool named '${call.name}'. The tools are: ${offered}.` };
  if (caller.tools && !caller.tools.includes(tool.spec.name)) {
    context.telemetry.refusedToolCalls = (context.telemetry.refusedToolCalls ?? 0) + 1;
    return { reply: `error: ${call.name} is not one of your tools. Your tools are: ${offered}.` };
  }
  if (!caller.capabilities.includes(tool.capability)) {
    context.telemetry.refusedToolCalls = (context.telemetry.refusedToolCalls ?? 0) + 1;
    return {
      reply: `error: refused: ${call.name} needs capability ${tool.capability}, which ${caller.agent} does not have. Your tools are: ${offered}.`,
    };
  }
  return tool.run(call.arguments, context);
}
