// The parts of the coder's context that come from learning: skills distilled from earlier failures of the project
// that match this goal, and the adaptations the workflow chose for this attempt, each with why.
import { describeAdaptation, type Adaptation } from '../../domain/learning/adaptations.js';
import { findSkillsFor, formatSkillsForPrompt } from '../skills/index.js';

export interface LearningSections {
  sections: { title: string; text: string }[];
  /** Ids of the skills put in front of the coder, recorded on the attempt. */
  skillsOffered: string[];
}

export async function buildLearningSections(input: { skillsDir: string; goal: string; adaptations: Adaptation[] }): Promise<LearningSections> {
  const skills = await findSkillsFor(input.skillsDir, input.goal);
  const sections: LearningSections['sections'] = [];
  if (skills.length > 0) {
    sections.push({ title: 'Skills learned from earlier failures in this project', text: formatSkillsForPrompt(skills) });
  }
  if (input.adaptations.length > 0) {
    sections.push({ title: 'Adaptations for this attempt', text: input.adaptations.map((adaptation) => `- ${describeAdaptation(adaptation)}`).join('\n') });
  }
  return { sections, skillsOffered: skills.map((skill) => skill.id) };
}
