// The review's rules on the change's paths and git metadata, on a real worktree: a secret in a file or folder name
// (also base64-encoded), a .gitattributes naming a filter driver. The record names the paths redacted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { reviewChanges } from '../../../../activities/review/review-changes.js';
import { makeRepo, makeTempDir, removeDirs, writeFiles } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const secret = `pathsecret${Math.random().toString(36).slice(2, 10)}`;
const base64 = Buffer.from(secret).toString('base64url');

async function worktree() {
  const repoPath = await makeRepo({ 'calc.py': 'def add(a, b):\n    return a + b\n' });
  const workDir = await makeTempDir();
  dirs.push(repoPath, workDir);
  const claim = { repoPath, workDir, baseRef: 'main', taskId: 't1', workflowId: 'wf-1', attempt: 1 };
  const { worktreePath, baseSha } = await createWorktree(claim);
  return { worktreePath, baseSha, workDir };
}

describe('the review of paths and git metadata', () => {
  it('refuses a secret in a file or folder name and a .gitattributes filter, naming the paths redacted', async () => {
    const { worktreePath, baseSha, workDir } = await worktree();
    await writeFiles(worktreePath, {
      [`notes_${secret}.txt`]: 'x\n',
      [`dir_${secret}/a.py`]: 'X = 1\n',
      [`enc_${base64}.py`]: 'Y = 2\n',
      '.gitattributes': '*.py filter=pwn\n',
      'calc.py': 'def add(a, b):\n    return b + a\n',
    });
    const artifactDir = path.join(workDir, 'artifacts');
    const result = await reviewChanges({
      ...{ worktreePath, baseSha, allowedPaths: [], allowTestEdits: true, secretValues: [secret] },
      ...{ artifactDir, hostId: 'host-a' },
    });

    expect(result.passed).toBe(false);
    const byRule = (rule: string) => result.findings.filter((finding) => finding.rule === rule);
    expect(
      byRule('secret_in_path')
        .map((finding) => finding.file)
        .sort(),
    ).toEqual(['dir_[redacted]/a.py', 'enc_[redacted].py', 'notes_[redacted].txt']);
    expect(byRule('git_attributes_driver')).toEqual([expect.objectContaining({ file: '.gitattributes', line: 1 })]);
    const record = JSON.stringify(result);
    expect(record).not.toContain(secret);
    expect(record).not.toContain(base64);
    expect(readFileSync(result.diff?.path ?? '', 'utf8')).not.toContain(base64);
  });
});
