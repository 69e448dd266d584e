import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendTaskHistory } from '../../../../activities/learning/task-history.js';
import { makeRepo, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

describe("the mirror of the project's failure history beside the repository", () => {
  it('appends one JSON line per failed attempt in the git folder, with its host', async () => {
    const repo = await makeRepo();
    dirs.push(repo);
    const record = {
      project: 'p',
      workflowId: 'task-p-a',
      attempt: 1,
      taskId: 'a',
      files: ['calc.py'],
      patterns: ['wrong_constant'],
      host: 'host-a',
    };
    await appendTaskHistory(repo, record);
    await appendTaskHistory(repo, { ...record, attempt: 2 });
    const lines = (await readFile(path.join(repo, '.git', 'taskloop', 'history.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([record, { ...record, attempt: 2 }]);
  });

  it('writes nothing for a repository this host has no clone of', async () => {
    await expect(
      appendTaskHistory('/nonexistent/taskloop-repo', {
        project: 'p',
        workflowId: 'w',
        attempt: 1,
        taskId: 'a',
        files: [],
        patterns: [],
      }),
    ).resolves.toBeUndefined();
  });
});
