import { describe, expect, it } from 'vitest';
import { isRepoUrl, redactUrls, repoUrlProblem } from '../../../domain/repo-url.js';
import { parseTaskSpec } from '../../../domain/task-spec.js';

describe('repositories by URL', () => {
  it.each([
    'file:///srv/calc.git',
    'ssh://git@example.com/calc.git',
    'https://example.com/calc.git',
    'git://127.0.0.1/calc.git',
    'git@example.com:team/calc.git',
  ])('reads %s as a URL', (repo) => {
    expect(isRepoUrl(repo)).toBe(true);
    expect(repoUrlProblem(repo)).toBeUndefined();
  });

  it.each(['/srv/calc', './calc', 'calc', 'C:/work/calc'])('reads %s as a local path', (repo) => {
    expect(isRepoUrl(repo)).toBe(false);
  });

  it.each([
    'https://user:secret@example.com/calc.git',
    'https://ghp_token@example.com/calc.git',
    'ssh://git:pw@example.com/calc.git',
  ])('refuses credentials in %s, saying where they belong', (repo) => {
    expect(repoUrlProblem(repo)).toMatch(/must not contain credentials.*credential helper, SSH agent/);
    const parsed = parseTaskSpec({ id: 't1', repo, goal: 'g', models: { coder: 'scripted:x.json' } });
    expect(parsed.success).toBe(false);
  });

  it('removes user information from every URL in a text', () => {
    expect(redactUrls('fatal: unable to access https://user:secret@example.com/calc.git/ and ssh://git@host/x')).toBe(
      'fatal: unable to access https://example.com/calc.git/ and ssh://host/x',
    );
  });
});
