// Skills for the context builder: the skills the project learned whose trigger matches a task description.
import { matchSkills, type Skill } from '../../domain/learning/skills.js';

export interface OfferedSkill {
  id: string;
  whenItApplies: string;
  whatToDo: string;
  /** Hosts whose failures taught the skill. */
  hosts: string[];
}

/** Skills similar to the task description (word overlap >= threshold), best first, at most `limit`. */
export function findSkillsFor(
  skills: readonly Skill[],
  taskDescription: string,
  options: { threshold?: number; limit?: number } = {},
): OfferedSkill[] {
  return matchSkills(skills, taskDescription, options.threshold ?? 0.5)
    .slice(0, options.limit ?? 5)
    .map((skill) => ({
      id: skill.id,
      whenItApplies: skill.whenItApplies,
      whatToDo: skill.whatToDo,
      hosts: skill.hosts ?? [],
    }));
}

/** The skills as a prompt section for the coder; empty when there are none. */
export function formatSkillsForPrompt(
  skills: readonly Pick<OfferedSkill, 'id' | 'whenItApplies' | 'whatToDo'>[],
): string {
  if (skills.length === 0) return '';
  return skills
    .map((skill) => `### Skill ${skill.id}\nWhen it applies: ${skill.whenItApplies}\nWhat to do: ${skill.whatToDo}`)
    .join('\n\n');
}
