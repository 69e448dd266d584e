// The skills mirror: one markdown file per skill, `<skillsDir>/<id>.md`, written atomically for humans to read. The
// project's learning workflow in Temporal is the source of truth; taskloop never reads these files back.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderSkill, type Skill } from '../../domain/learning/skills.js';

/** The file of a skill id. */
export function skillFilePath(skillsDir: string, id: string): string {
  return path.join(skillsDir, `${id}.md`);
}

/** Writes a skill to `<skillsDir>/<id>.md` via a temporary file and a rename, so readers never see half a skill. */
export async function writeSkillFile(skillsDir: string, skill: Skill): Promise<string> {
  await mkdir(skillsDir, { recursive: true });
  const file = skillFilePath(skillsDir, skill.id);
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, renderSkill(skill), 'utf8');
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return file;
}
