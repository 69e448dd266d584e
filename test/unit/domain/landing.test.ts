import { describe, expect, it } from 'vitest';
import {
  branchNameProblem,
  describeLanding,
  enqueueLanding,
  landerWorkflowId,
  type LandingRequest,
} from '../../../domain/landing.js';
import { parseTaskSpec } from '../../../domain/task-spec.js';
import { checkRunInput } from '../../../client/tasks/run-flags.js';

const spec = { id: 't1', repo: '/repo', goal: 'fix add', models: { coder: 'scripted:s.json' } };

describe('landOn', () => {
  it('takes branch names git takes and refuses the others with the reason', () => {
    for (const name of ['main', 'release/2.0', 'refs/heads/main', 'feature-x_y.z'])
      expect(branchNameProblem(name)).toBeUndefined();
    expect(branchNameProblem('HEAD')).toMatch(/checked out/);
    expect(branchNameProblem('a..b')).toMatch(/\.\./);
    expect(branchNameProblem('has space')).toMatch(/space/);
    expect(branchNameProblem('x.lock')).toMatch(/\.lock/);
    expect(branchNameProblem('-x')).toMatch(/"-"/);
    expect(branchNameProblem('a//b')).toMatch(/empty part/);
  });

  it('is a task field whose bad value is refused naming the field, the value and the fix', () => {
    expect(parseTaskSpec({ ...spec, landOn: 'main' })).toMatchObject({ success: true, data: { landOn: 'main' } });
    const bad = parseTaskSpec({ ...spec, landOn: 'main..x' });
    expect(bad.success).toBe(false);
    if (!bad.success)
      expect(bad.error).toBe(
        'landOn: cannot be a branch: it holds ".." (pass a branch name such as "main"), got "main..x"',
      );
    expect(() => checkRunInput({ ...spec, landOn: 'HEAD' })).toThrow(
      /--land-on \(landOn\): cannot be a branch: it names whatever is checked out.*got "HEAD"/,
    );
  });
});

describe('the landing queue', () => {
  it('has one lander per repository and branch, named without the path', () => {
    const id = landerWorkflowId('/home/me/repo', 'main');
    expect(id).toMatch(/^land-main-[0-9a-f]{16}$/);
    expect(landerWorkflowId('/home/me/repo', 'refs/heads/main')).toBe(id);
    expect(landerWorkflowId('/home/me/other', 'main')).not.toBe(id);
    expect(landerWorkflowId('https://user:secret@example.com/r.git', 'main')).not.toContain('secret');
  });

  it('keeps one request per task and change, in the order queued', () => {
    const request = (task: string, sha: string) => ({ taskWorkflowId: task, sha }) as LandingRequest;
    const queue: LandingRequest[] = [];
    expect(enqueueLanding(queue, request('a', '1'))).toBe(true);
    expect(enqueueLanding(queue, request('b', '2'))).toBe(true);
    expect(enqueueLanding(queue, request('a', '1'))).toBe(false);
    expect(queue.map((queued) => queued.taskWorkflowId)).toEqual(['a', 'b']);
  });
});

describe('describeLanding', () => {
  const tests = {
    outcome: 'passed' as const,
    counts: { total: 2, passed: 2, failed: 0, errors: 0, skipped: 0 },
    durationMs: 1500,
    failing: [],
    tree: 'e'.repeat(40),
  };
  const base = { sha: 'a'.repeat(40), target: 'main', queuedAt: '2026-12-07T20:00:00.000Z' };

  it('says where a change landed and what ran on the merged tree', () => {
    const landing = { ...base, status: 'landed' as const, onto: 'b'.repeat(40), landed: 'c'.repeat(40) };
    expect(describeLanding({ ...landing, fastForward: false, remerges: 0, tests, answeredAt: '' })).toBe(
      'landing: aaaaaaaaaaaa landed onto main at bbbbbbbbbbbb as cccccccccccc; tests on the merged tree eeeeeeeeeeee: passed, 2/2 passed in 1.5 s',
    );
  });

  it('says why a change went back, and how long a queued one has waited', () => {
    const sentBack = {
      ...base,
      status: 'sent_back' as const,
      onto: 'b'.repeat(40),
      cause: 'MergeConflict' as const,
      reason: 'it conflicts with main in calc.py',
      answeredAt: '',
    };
    expect(describeLanding(sentBack)).toBe(
      'landing: aaaaaaaaaaaa sent back (MergeConflict), merged onto main at bbbbbbbbbbbb: it conflicts with main in calc.py',
    );
    const queued = { ...base, status: 'queued' as const, lander: 'land-main-x' };
    expect(describeLanding(queued, Date.parse(base.queuedAt) + 90_000)).toBe(
      'landing: aaaaaaaaaaaa queued on main (land-main-x) for 90 s',
    );
    const withdrawn = { ...base, status: 'withdrawn' as const, reason: 'task t was cancelled, while it waited' };
    expect(describeLanding({ ...withdrawn, answeredAt: '' })).toBe(
      'landing: aaaaaaaaaaaa withdrawn from main: task t was cancelled, while it waited',
    );
  });
});
