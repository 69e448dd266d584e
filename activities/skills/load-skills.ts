// Skills for the context builder: the stored skills whose trigger matches a task description.
import { matchSkills } from '../../domain/learning/skills.js';
import { loadSkills } from './store.js';

export interface OfferedSkill {
  id: string;
  path: string;
  whenItApplies: string;
  whatToDo: string;
}

/** Skills of `skillsDir` similar to the task description (word overlap >= threshold), best first, at most `limit`. */
export async function findSkillsFor(
  skillsDir: string,
  taskDescription: string,
  options: { threshold?: number; limit?: number } = {},
): Promise<OfferedSkill[]> {
  const { skills } = await loadSkills(skillsDir);
  const pathById = new Map(skills.map((stored) => [stored.skill.id, stored.path]));
  return matchSkills(
    skills.map((stored) => stored.skill),
    taskDescription,
    options.threshold ?? 0.5,
  )
    .slice(0, options.limit ?? 5)
    .map((skill) => ({
      id: skill.id,
      path: pathById.get(skill.id)!,
      whenItApplies: skill.whenItApplies,
      whatToDo: skill.whatToDo,
    }));
}

/** The skills as a prompt section for the coder; empty when there are none. */
export function formatSkillsForPrompt(skills: readonly OfferedSkill[]): string {
  if (skills.length === 0) return '';
  return skills
    .map((skill) => `### Skill ${skill.id}\nWhen it applies: ${skill.whenItApplies}\nWhat to do: ${skill.whatToDo}`)
    .join('\n\n');
}
