// The skill writer's prompt: the recurring failures in, a JSON skill draft out.
import type { FailureEvent } from '../../domain/learning/failure-event.js';
import type { ChatMessage } from '../models/types.js';

const system = [
  'You distil a reusable skill from recurring failures of a coding agent.',
  'Reply with one JSON object and nothing else:',
  '{"whenItApplies": "<the kind of task the skill helps with, in the words of such tasks>", "whatToDo": "<concrete steps the agent should follow>"}',
].join('\n');

/** The messages for one group of similar failures. */
export function buildSkillPrompt(input: {
  pattern: string;
  description: string;
  failures: readonly FailureEvent[];
}): ChatMessage[] {
  const failures = input.failures.map((failure, i) =>
    [
      `### Failure ${i + 1}: ${failure.workflowId}, attempt ${failure.attempt} (${failure.failureClass}${failure.pattern ? `, ${failure.pattern}` : ''})`,
      `Task: ${failure.description}`,
      `Reason: ${failure.reason}`,
      failure.evidence ? `Evidence:\n${failure.evidence}` : '',
    ]
      .filter((line) => line !== '')
      .join('\n'),
  );
  const user = `Pattern: ${input.pattern}\nThese failures recurred on similar tasks (first: ${input.description}).\n\n${failures.join('\n\n')}`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}
