// The `scripted:<file>` provider: recorded turns replayed in order, continuing across attempts.
import { estimateUsage } from './estimate-tokens.js';
import type { Script, ScriptedTurn } from './script-file.js';
import { ModelProblem, modelRoles } from './types.js';
import type { AssistantTurn, CompletionRequest, ModelProvider, ModelRole, ToolCall } from './types.js';

export { loadScript, parseScript } from './script-file.js';
export type { Script, ScriptedTurn } from './script-file.js';

export interface ScriptedProvider extends ModelProvider {
  /** Turns of `role` handed out so far, counting the `startTurn` this provider was created with. */
  consumed(role: ModelRole): number;
}

function toAssistantTurn(turn: ScriptedTurn, role: ModelRole, index: number): Omit<AssistantTurn, 'usage'> {
  // Ids are derived from the position so a replayed script gives the same transcript every time.
  const toolCalls: ToolCall[] = turn.tool_calls.map((call, i) => ({
    id: call.id ?? `call_${role}_${index}_${i}`,
    name: call.name,
    arguments: call.arguments,
  }));
  return { content: turn.content, toolCalls };
}

/**
 * Creates a provider that hands out each role's turns in order, starting at `startTurn[role]`
 * (the workflow passes how many turns earlier attempts already consumed).
 */
export function createScriptedProvider(options: {
  file: string;
  script: Script;
  startTurn?: Partial<Record<ModelRole, number>>;
}): ScriptedProvider {
  const { file, script } = options;
  const next = Object.fromEntries(modelRoles.map((role) => [role, options.startTurn?.[role] ?? 0])) as Record<
    ModelRole,
    number
  >;

  return {
    spec: `scripted:${file}`,
    consumed: (role) => next[role],
    async complete(request: CompletionRequest): Promise<AssistantTurn> {
      const { role } = request;
      const turns = script[role];
      const index = next[role];
      const turn = turns[index];
      if (turn === undefined) {
        throw new ModelProblem(
          `the scripted file ${file} has no ${role} turn left (used ${index})`,
          'ModelScriptExhausted',
        );
      }
      next[role] = index + 1;
      const reply = toAssistantTurn(turn, role, index);
      const usage = turn.usage
        ? { inputTokens: turn.usage.input_tokens, outputTokens: turn.usage.output_tokens }
        : estimateUsage(request.messages, reply);
      return { ...reply, usage };
    },
  };
}
