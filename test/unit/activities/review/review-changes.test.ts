import { existsSync, readFileSync } from 'node:fs';
import { rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { reviewChanges, type ReviewChangesInput } from '../../../../activities/review/review-changes.js';
import { makeRepo, makeTempDir, removeDirs, writeFiles } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

async function setup(overrides: Partial<ReviewChangesInput> = {}): Promise<ReviewChangesInput> {
  const repoPath = await makeRepo({
    'src/calc.py': 'def add(a, b):\n    return a + b\n',
    'tests/test_calc.py': 'from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n',
    'docs/notes.md': '# notes\n',
  });
  const workDir = await makeTempDir();
  dirs.push(repoPath, workDir);
  const { worktreePath, baseSha } = await createWorktree({
    repoPath,
    workDir,
    baseRef: 'main',
    taskId: 't1',
    workflowId: 'wf-1',
    attempt: 1,
  });
  return {
    worktreePath,
    baseSha,
    allowedPaths: ['src/'],
    allowTestEdits: false,
    secretValues: [],
    artifactDir: path.join(workDir, 'artifacts'),
    hostId: 'host-a',
    ...overrides,
  };
}

const rulesOf = (result: { findings: { rule: string }[] }) => result.findings.map((finding) => finding.rule);

describe('reviewChanges', () => {
  it('passes a clean change inside the allowed paths and stores the diff', async () => {
    const input = await setup();
    await writeFiles(input.worktreePath, {
      'src/calc.py': 'def add(a, b):\n    """Adds."""\n    return a + b\n',
      'src/cache.py': 'CACHE = {}\n',
    });

    const result = await reviewChanges(input);

    expect(result.findings).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.changedFiles.sort()).toEqual(['src/cache.py', 'src/calc.py']);
    expect(result.diffStat).toEqual({ files: 2, insertions: 2, deletions: 0 });
    expect(result.diff?.path).toBe(path.join(input.artifactDir, 'diff.patch'));
    expect(readFileSync(result.diff?.path ?? '', 'utf8')).toContain('+CACHE = {}');
    // The syntax check must not leave bytecode behind.
    expect(existsSync(path.join(input.worktreePath, 'src', '__pycache__'))).toBe(false);
  });

  it('reviews the snapshot it is given by its tree, not what was written to the worktree after it was taken', async () => {
    const input = await setup();
    await writeFiles(input.worktreePath, { 'src/calc.py': 'def add(a, b):\n    return b + a\n' });
    const first = await reviewChanges(input);
    // Written after the snapshot (a test run's output, say): outside the allowed paths, and a test edit.
    await writeFiles(input.worktreePath, { 'out.txt': 'written by the tests\n', 'tests/test_calc.py': 'x = 1\n' });

    const snapshot = { treeSha: first.treeSha ?? '', findings: [] };
    const reviewed = await reviewChanges({ ...input, snapshot });
    expect(reviewed).toMatchObject({ passed: true, changedFiles: ['src/calc.py'], treeSha: first.treeSha });
    const retaken = await reviewChanges(input);
    expect(retaken.passed).toBe(false);
    expect(retaken.changedFiles.sort()).toEqual(['out.txt', 'src/calc.py', 'tests/test_calc.py']);
    expect(rulesOf(retaken)).toContain('test_file_edited');
  });

  it('reads sources and links from the tree: a link the tests removed afterwards is still found', async () => {
    const input = await setup({ allowedPaths: [] });
    await writeFiles(input.worktreePath, { 'src/bad.py': 'def broken(:\n' });
    await symlink('/etc/passwd', path.join(input.worktreePath, 'src/passwd'));
    const first = await reviewChanges(input);
    await rm(path.join(input.worktreePath, 'src/passwd'));
    await writeFiles(input.worktreePath, { 'src/bad.py': 'fine = 1\n' });

    const reviewed = await reviewChanges({ ...input, snapshot: { treeSha: first.treeSha ?? '', findings: [] } });
    expect(rulesOf(reviewed).sort()).toEqual(['link_out_of_repo', 'python_syntax']);
  });

  it('carries the snapshot’s own findings (a nested git folder) into the review', async () => {
    const input = await setup();
    await writeFiles(input.worktreePath, {
      'src/calc.py': 'X = 1\n',
      'src/vendored/.git/HEAD': 'ref: refs/heads/main\n',
    });
    const result = await reviewChanges(input);
    expect(result.passed).toBe(false);
    expect(result.findings).toEqual([expect.objectContaining({ rule: 'nested_git', file: 'src/vendored' })]);
  });

  it('finds an empty diff', async () => {
    const result = await reviewChanges(await setup());
    expect(result.passed).toBe(false);
    expect(rulesOf(result)).toEqual(['empty_diff']);
  });

  it('finds an edited test file, naming it, unless the task allows test edits', async () => {
    const input = await setup({ allowedPaths: [] });
    await writeFiles(input.worktreePath, { 'tests/test_calc.py': 'def test_add():\n    assert True\n' });

    const refused = await reviewChanges(input);
    const allowed = await reviewChanges({ ...input, allowTestEdits: true });

    expect(refused.findings).toEqual([
      expect.objectContaining({ rule: 'test_file_edited', file: 'tests/test_calc.py' }),
    ]);
    expect(refused.findings[0]?.message).toContain('tests/test_calc.py');
    expect(allowed.passed).toBe(true);
  });

  it('counts deleting a test file as editing it', async () => {
    const input = await setup({ allowedPaths: [] });
    await rm(path.join(input.worktreePath, 'tests/test_calc.py'));
    expect(rulesOf(await reviewChanges(input))).toEqual(['test_file_edited']);
  });

  it('finds a file outside the allowed paths', async () => {
    const input = await setup();
    await writeFiles(input.worktreePath, { 'docs/notes.md': '# notes\nmore\n' });

    const result = await reviewChanges(input);

    expect(result.findings).toEqual([expect.objectContaining({ rule: 'path_not_allowed', file: 'docs/notes.md' })]);
  });

  it('finds conflict markers with file and line', async () => {
    const input = await setup();
    await writeFiles(input.worktreePath, {
      'src/calc.py': 'def add(a, b):\n<<<<<<< HEAD\n    return a + b\n=======\n    return b + a\n>>>>>>> other\n',
    });

    const result = await reviewChanges(input);

    const markers = result.findings.filter((finding) => finding.rule === 'conflict_marker');
    expect(markers.map((finding) => [finding.file, finding.line])).toEqual([
      ['src/calc.py', 2],
      ['src/calc.py', 4],
      ['src/calc.py', 6],
    ]);
  });

  it('finds configured secrets and key shapes without repeating them, and scrubs the stored diff', async () => {
    const configured = 'hunter2-configured-secret';
    const aws = 'AKIAABCDEFGHIJKLMNOP';
    const openai = 'sk-abcdefghijklmnopqrstuvwxyz123456';
    const github = `ghp_${'a1B2'.repeat(9)}`;
    const input = await setup({ secretValues: [configured] });
    await writeFiles(input.worktreePath, {
      'src/settings.py': [
        `PASSWORD = "${configured}"`,
        `AWS = "${aws}"`,
        `OPENAI = "${openai}"`,
        `GITHUB = "${github}"`,
        'KEY = """-----BEGIN RSA PRIVATE KEY-----"""',
        '',
      ].join('\n'),
    });

    const result = await reviewChanges(input);

    const secrets = result.findings.filter((finding) => finding.rule === 'secret_in_diff');
    expect(secrets.map((finding) => finding.line)).toEqual([1, 2, 3, 4, 5]);
    const text = JSON.stringify(result);
    const stored = readFileSync(result.diff?.path ?? '', 'utf8');
    for (const secret of [configured, aws, openai, github]) {
      expect(text).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
    expect(stored).toContain('[redacted]');
  });

  it('finds a configured secret written encoded (base64 at each alignment, hex) and one split across folders', async () => {
    const configured = 'hunter2-configured-secret';
    const input = await setup({ secretValues: [configured], allowedPaths: [] });
    const encoded = ['', 'x', 'xy'].map((before) => Buffer.from(`${before}${configured}!`).toString('base64'));
    await writeFiles(input.worktreePath, {
      'src/blob.py': [
        ...encoded.map((text, i) => `B${i} = "${text}"`),
        `H = "${Buffer.from(configured).toString('hex')}"`,
        '',
      ].join('\n'),
      [`src/hunter2-conf/igured-secret.txt`]: 'split\n',
    });

    const result = await reviewChanges(input);

    const inDiff = result.findings.filter((finding) => finding.rule === 'secret_in_diff');
    expect(inDiff.map((finding) => finding.line)).toEqual([1, 2, 3, 4]);
    expect(inDiff[0]?.message).toContain("a configured secret's base64 or hex form");
    const inPath = result.findings.filter((finding) => finding.rule === 'secret_in_path');
    expect(inPath.map((finding) => finding.file)).toEqual(['src/[redacted].txt']);
    expect(JSON.stringify(result)).not.toContain('hunter2-conf/igured');
    const stored = readFileSync(result.diff?.path ?? '', 'utf8');
    for (const text of encoded) expect(stored).not.toContain(text);
    expect(stored).not.toContain('hunter2-conf/igured');
  });

  it('finds a Python syntax error with file and line', async () => {
    const input = await setup();
    await writeFiles(input.worktreePath, { 'src/calc.py': 'def add(a, b):\n    return a +\n' });

    const result = await reviewChanges(input);

    expect(result.findings).toEqual([expect.objectContaining({ rule: 'python_syntax', file: 'src/calc.py', line: 2 })]);
    expect(result.findings[0]?.message).toContain('SyntaxError');
  });

  it('parses with the standard library even when the worktree has its own ast.py', async () => {
    const input = await setup({ allowedPaths: [] });
    await writeFiles(input.worktreePath, { 'ast.py': 'raise SystemExit("shadowed")\n' });
    const result = await reviewChanges(input);
    expect(result.passed).toBe(true);
  });

  it('finds links that lead out of the repository or into .git, and passes one that stays inside', async () => {
    const input = await setup({ allowedPaths: [] });
    await symlink('/etc/passwd', path.join(input.worktreePath, 'src', 'absolute'));
    await symlink('../../outside.txt', path.join(input.worktreePath, 'src', 'up'));
    await symlink('../.git/config', path.join(input.worktreePath, 'src', 'gitconfig'));
    await symlink('calc.py', path.join(input.worktreePath, 'src', 'alias.py'));

    const result = await reviewChanges(input);
    const links = result.findings.filter((finding) => finding.rule === 'link_out_of_repo');
    expect(links.map((finding) => finding.file).sort()).toEqual(['src/absolute', 'src/gitconfig', 'src/up']);
    expect(links.find((finding) => finding.file === 'src/gitconfig')?.message).toContain("into the repository's .git");
    expect(links.find((finding) => finding.file === 'src/up')?.message).toContain('outside the repository');
  });
});
