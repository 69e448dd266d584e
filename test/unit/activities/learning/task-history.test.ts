import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendTaskHistory, loadTaskHistory } from '../../../../activities/learning/task-history.js';
import { makeRepo, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

describe("the project's failure history beside the repository", () => {
  it('keeps records in the git folder, groups them per task, drops other projects and the asking task, and counts a retried append once', async () => {
    const repo = await makeRepo();
    dirs.push(repo);
    const record = {
      project: 'p',
      workflowId: 'task-p-a',
      attempt: 1,
      taskId: 'a',
      files: ['calc.py'],
      patterns: ['wrong_constant'],
    };
    await appendTaskHistory(repo, record);
    await appendTaskHistory(repo, record);
    await appendTaskHistory(repo, { ...record, attempt: 2, files: ['util.py'] });
    await appendTaskHistory(repo, { ...record, taskId: 'b', workflowId: 'task-p-b' });
    await appendTaskHistory(repo, { ...record, project: 'other' });

    expect(existsSync(path.join(repo, '.git', 'taskloop', 'history.jsonl'))).toBe(true);
    expect(await loadTaskHistory(repo, 'p', 'b')).toEqual([
      { taskId: 'a', files: ['calc.py', 'util.py'], patterns: ['wrong_constant', 'wrong_constant'] },
    ]);
    expect(await loadTaskHistory(repo, 'p', 'z')).toHaveLength(2);
  });

  it('is empty for a repository without history', async () => {
    const repo = await makeRepo();
    dirs.push(repo);
    expect(await loadTaskHistory(repo, 'p', 'a')).toEqual([]);
  });
});
