// The skills store: one markdown file per skill, `<skillsDir>/<id>.md`, written atomically.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseSkill, renderSkill, type Skill } from '../../domain/learning/skills.js';

export interface StoredSkill {
  skill: Skill;
  path: string;
}

export interface LoadedSkills {
  skills: StoredSkill[];
  /** Files that could not be read as skills, each with the reason (they are skipped, not fatal). */
  problems: string[];
}

/** The file of a skill id. */
export function skillFilePath(skillsDir: string, id: string): string {
  return path.join(skillsDir, `${id}.md`);
}

/** Reads the skill stored under `id`, or undefined when there is none or it does not parse. */
export async function readStoredSkill(skillsDir: string, id: string): Promise<Skill | undefined> {
  const text = await readFile(skillFilePath(skillsDir, id), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const parsed = parseSkill(text);
  return parsed.success ? parsed.data : undefined;
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

/** Reads every `*.md` skill in a folder, sorted by file name; a missing folder has no skills. */
export async function loadSkills(skillsDir: string): Promise<LoadedSkills> {
  let names: string[];
  try {
    names = (await readdir(skillsDir)).filter((name) => name.endsWith('.md')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { skills: [], problems: [] };
    throw error;
  }
  const skills: StoredSkill[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const file = path.join(skillsDir, name);
    const parsed = parseSkill(await readFile(file, 'utf8'));
    if (parsed.success) skills.push({ skill: parsed.data, path: file });
    else problems.push(`${file}: ${parsed.error}`);
  }
  return { skills, problems };
}
