// The parts of the coder's context that come from learning: skills distilled from earlier failures of the project
// that match this goal (read from what the project learned, in Temporal, so every host offers the same ones), and the
// adaptations the workflow chose for this attempt, each with why and with what it announces (definitions, modules,
// tests) read from the worktree.
import { log } from '@temporalio/activity';
import { describeAdaptation, type Adaptation } from '../../domain/learning/adaptations.js';
import type { AttemptSummary } from '../../domain/records.js';
import type { Skill } from '../../domain/learning/skills.js';
import { readProjectLearningHere } from '../learning/read-project-learning.js';
import { findSkillsFor, formatSkillsForPrompt, type OfferedSkill } from '../learning/index.js';
import { readAdaptationContent, selfContainedStrategies } from './adaptation-content.js';

export interface LearningSections {
  sections: { title: string; text: string }[];
  /** Ids of the skills put in front of the coder, recorded on the attempt. */
  skillsOffered: string[];
}

/** What earlier attempts left to go on: reasons and pytest output. */
const evidenceOf = (adaptation: Adaptation, attempts: readonly AttemptSummary[]) => [
  adaptation.reason,
  ...attempts.flatMap((attempt) => [attempt.failureReason ?? '', attempt.test?.stdoutExcerpt ?? '']),
];

async function describeWithContent(
  adaptation: Adaptation,
  input: { worktreePath?: string; previousAttempts?: AttemptSummary[] },
): Promise<string | undefined> {
  if (selfContainedStrategies.includes(adaptation.strategy)) return `- ${describeAdaptation(adaptation)}`;
  if (input.worktreePath === undefined) return undefined;
  const content = await readAdaptationContent(
    input.worktreePath,
    adaptation.strategy,
    evidenceOf(adaptation, input.previousAttempts ?? []),
  );
  return content.length === 0 ? undefined : [`- ${describeAdaptation(adaptation)}`, ...content].join('\n\n');
}

/** The project's learned skills; learning is best effort, so an unreachable learning workflow offers none. */
async function readSkills(project: string): Promise<Skill[]> {
  try {
    return (await readProjectLearningHere(project)).skills;
  } catch (error) {
    log.warn('could not read the project skills; the coder goes on without them', { project, error: String(error) });
    return [];
  }
}

export async function buildLearningSections(input: {
  project: string;
  goal: string;
  adaptations: Adaptation[];
  /** The worktree the adaptations' content is read from. */
  worktreePath?: string;
  previousAttempts?: AttemptSummary[];
  /** Where the project's skills come from (default: its learning workflow in Temporal). */
  readProjectSkills?: (project: string) => Promise<Skill[]>;
  /** The skills matching the goal, when the caller has them already (the attempt's claim read them): no read then. */
  offered?: OfferedSkill[];
}): Promise<LearningSections> {
  const skills =
    input.offered ?? findSkillsFor(await (input.readProjectSkills ?? readSkills)(input.project), input.goal);
  const sections: LearningSections['sections'] = [];
  if (skills.length > 0) {
    sections.push({
      title: 'Skills learned from earlier failures in this project',
      text: formatSkillsForPrompt(skills),
    });
  }
  const described = (
    await Promise.all(input.adaptations.map((adaptation) => describeWithContent(adaptation, input)))
  ).filter((text): text is string => text !== undefined);
  if (described.length > 0) sections.push({ title: 'Adaptations for this attempt', text: described.join('\n\n') });
  return { sections, skillsOffered: skills.map((skill) => skill.id) };
}
