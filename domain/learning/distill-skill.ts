// A skill distilled without a model from a group of similar failures: the pattern, the evidence lines, the strategy
// the pattern calls for and the tasks it came from. Marked as distilled; a model-written skill replaces it later.
import { describeAdaptation } from './adaptations.js';
import { patternTypeSchema, strategyByPattern } from './patterns/types.js';
import type { FailureEvent } from './failure-event.js';
import type { SkillDraft } from './skill-draft.js';

const MAX_EVIDENCE_LINES = 6;
const MAX_LINE_CHARS = 200;

/** The lines of pytest output that say what went wrong (`E ...` lines and error summaries), deduplicated. */
function evidenceLines(failures: readonly FailureEvent[]): string[] {
  const lines = failures.flatMap((failure) => failure.evidence.split('\n')).map((line) => line.trim());
  const telling = lines.filter((line) => /^E\s|^FAILED\s|^ERROR\s|Error\b|assert\b/.test(line));
  return [...new Set(telling)]
    .slice(0, MAX_EVIDENCE_LINES)
    .map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line));
}

/** The draft of a deterministic skill for `pattern`, from the group's failures. */
export function distillSkill(input: {
  pattern: string;
  description: string;
  failures: readonly FailureEvent[];
}): SkillDraft {
  const known = patternTypeSchema.safeParse(input.pattern);
  const strategy = known.success ? strategyByPattern[known.data] : undefined;
  const evidence = evidenceLines(input.failures);
  const reasons = [...new Set(input.failures.map((failure) => failure.reason).filter((reason) => reason !== ''))].slice(
    0,
    3,
  );
  const tasks = [
    ...new Set(
      input.failures.map((failure) => `${failure.taskId} (${failure.workflowId}, attempt ${failure.attempt})`),
    ),
  ];
  const whatToDo = [
    `Similar tasks failed ${input.failures.length} times with the pattern ${input.pattern}.`,
    strategy
      ? `Strategy (${strategy}): ${describeAdaptation({ strategy, reason: `the pattern ${input.pattern} recurred`, source: 'history' })}`
      : `Read the failing tests' assertions and the code they call before you change anything.`,
    '',
    'Before you finish, run the tests (run_tests) and compare the output with the evidence below.',
    '',
    // A heading only over items: without evidence or reasons there is nothing to compare with.
    ...evidenceSection(evidence.length > 0 ? evidence : reasons),
    'Distilled from:',
    ...tasks.map((task) => `- ${task}`),
  ].join('\n');
  return { whenItApplies: input.description, whatToDo };
}

function evidenceSection(items: readonly string[]): string[] {
  return items.length === 0 ? [] : ['Evidence from those failures:', ...items.map((item) => `- ${item}`), ''];
}
