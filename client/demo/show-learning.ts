// What the demo says about the coder checking its own work and about learning: the in-attempt test runs, the
// skills reflection wrote from recurring failures and which task was offered each, and the report card's skills line.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { buildReportCard } from '../../domain/learning/report-card.js';
import { parseSkill, type Skill } from '../../domain/learning/skills.js';
import type { ProjectReport } from '../../domain/project/project-report.js';

/** The skills a worker stored for a project (the worker keeps them in `<workDir>/skills/<project>`). */
async function readSkills(workDir: string, project: string): Promise<Skill[]> {
  const dir = path.join(workDir, 'skills', project);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.md')).sort();
  const parsed = await Promise.all(names.map(async (name) => parseSkill(await readFile(path.join(dir, name), 'utf8'))));
  return parsed.flatMap((result) => (result.success ? [result.data] : []));
}

/** Lines for the demo's output, after the report. */
export async function describeLearning(report: ProjectReport, workDir: string): Promise<string[]> {
  const lines = [
    `\nIn-attempt test runs: ${report.telemetry.in_attempt_test_runs} (the coder ran the tests itself before finishing)`,
  ];
  const skills = await readSkills(workDir, report.project);
  const offered = (id: string) =>
    (report.runTasks ?? []).filter((task) => task.usedSkills?.includes(id)).map((task) => task.taskId);
  for (const skill of skills) {
    const to = offered(skill.id);
    lines.push(
      `\nSkill ${skill.id} (${skill.pattern}, ${skill.writtenBy ?? 'model'}-written, from ${skill.sourceWorkflowIds.length} failures), offered to: ${to.length > 0 ? to.join(', ') : 'no task yet'}`,
    );
    lines.push(`  when it applies: ${skill.whenItApplies}`);
    for (const line of skill.whatToDo.split('\n').slice(0, 6)) lines.push(`  ${line}`);
  }
  if (skills.length === 0) lines.push('\nNo skill written: no failure recurred on similar tasks.');
  if (report.runTasks) {
    const { withSkill, withoutSkill } = buildReportCard(report.runTasks).skills;
    lines.push(
      `\nReport card, skills: with ${withSkill.tasks} tasks, pass ${Math.round(withSkill.passRate * 100)}%; without ${withoutSkill.tasks} tasks, pass ${Math.round(withoutSkill.passRate * 100)}%`,
    );
  }
  return lines;
}
