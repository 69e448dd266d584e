// A tasks file of calc tasks for CLI project tests: each task fixes `add` with the same recorded coder turns.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fixTurns } from '../../support/calc-project.js';
import { makeTempDir } from '../../support/git-repo.js';

export interface FileTask {
  id: string;
  dependsOn?: string[];
  approval?: 'required';
  landOn?: string;
}

/** Writes `tasks.yaml` (and the scripted turns it names) in a fresh folder, for the repository at `repo` (path or URL). */
export async function writeCalcTasksFile(input: {
  repo: string;
  project: string;
  tasks: FileTask[];
  concurrency: number;
}): Promise<{ file: string; dir: string }> {
  const dir = await makeTempDir();
  await writeFile(path.join(dir, 'fix.json'), JSON.stringify({ coder: fixTurns() }));
  const lines = [
    `project: ${input.project}`,
    `repo: ${input.repo}`,
    'defaults:',
    '  maxRetries: 0',
    `  concurrency: ${input.concurrency}`,
    '  testCommand: [python3, -m, pytest, -q, -p, "no:cacheprovider"]',
    '  models: { coder: scripted:fix.json }',
    'milestones:',
    '  - id: m1',
    '    features:',
    '      - id: f1',
    '        tasks:',
    ...input.tasks.flatMap((task) => [
      `          - id: ${task.id}`,
      `            goal: "Fix add in calc.py (${task.id})"`,
      ...(task.dependsOn ? [`            dependsOn: [${task.dependsOn.join(', ')}]`] : []),
      ...(task.approval ? [`            approval: ${task.approval}`] : []),
      ...(task.landOn ? [`            landOn: ${task.landOn}`] : []),
    ]),
  ];
  const file = path.join(dir, 'tasks.yaml');
  await writeFile(file, `${lines.join('\n')}\n`);
  return { file, dir };
}
