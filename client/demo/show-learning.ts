// What the demo says about the coder checking its own work and about learning: the in-attempt test runs, the skills
// the project learned (written by its learning workflow from recurring failures), the tasks offered each, the report card.
import type { Client } from '@temporalio/client';
import { buildReportCard } from '../../domain/learning/report-card.js';
import type { Skill } from '../../domain/learning/skills.js';
import type { ProjectReport } from '../../domain/project/project-report.js';
import { readProjectLearning } from '../../activities/learning/read-project-learning.js';
import { countOf } from '../output/plural.js';

/** The skills the project learned (its coder learning workflow); none when nothing failed or none could be read. */
async function readSkills(client: Client, project: string): Promise<Skill[]> {
  const learned = await readProjectLearning(client, project).catch(() => undefined);
  return learned?.skills ?? [];
}

/** Lines for the demo's output, after the report. */
export async function describeLearning(report: ProjectReport, client: Client): Promise<string[]> {
  const lines = [
    `\nIn-attempt test runs: ${report.telemetry.in_attempt_test_runs} (the coder ran the tests itself before finishing)`,
  ];
  const skills = await readSkills(client, report.project);
  const offered = (id: string) =>
    (report.runTasks ?? []).filter((task) => task.usedSkills?.includes(id)).map((task) => task.taskId);
  for (const skill of skills) {
    const to = offered(skill.id);
    lines.push(
      `\nSkill ${skill.id} (${skill.pattern}, ${skill.writtenBy ?? 'model'}-written, from ${countOf(skill.sourceWorkflowIds.length, 'failure')}), offered to: ${to.length > 0 ? to.join(', ') : 'no task yet'}`,
    );
    lines.push(`  when it applies: ${skill.whenItApplies}`);
    for (const line of skillExcerpt(skill.whatToDo)) lines.push(`  ${line}`);
  }
  if (skills.length === 0) lines.push('\nNo skill written: no failure recurred on similar tasks.');
  if (report.runTasks) {
    const { withSkill, withoutSkill } = buildReportCard(report.runTasks).skills;
    lines.push(
      `\nReport card, skills: with ${countOf(withSkill.tasks, 'task')}, pass ${Math.round(withSkill.passRate * 100)}%; without ${countOf(withoutSkill.tasks, 'task')}, pass ${Math.round(withoutSkill.passRate * 100)}%`,
    );
  }
  return lines;
}

/**
 * The skill's advice for the terminal: its lines up to where it names its sources, blank lines dropped, at most
 * `limit`, and never ending on a heading (a line ending in ":") whose items were cut off.
 */
export function skillExcerpt(whatToDo: string, limit = 8): string[] {
  const all = whatToDo.split('\n');
  const end = all.indexOf('Distilled from:');
  const lines = (end === -1 ? all : all.slice(0, end)).filter((line) => line.trim() !== '').slice(0, limit);
  while (lines.length > 0 && lines.at(-1)?.trim().endsWith(':')) lines.pop();
  return lines;
}
