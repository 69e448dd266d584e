import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRelevantFiles } from '../../../../activities/coder/relevant-files.js';
import { createTempRepo, type TempRepo } from './fixtures.js';

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({
    'shop/cache.py': 'def cache_key(item):\n    return item.id\n',
    'shop/cart.py': 'TOTAL = 0\n',
    'tests/test_cache.py': 'def test_key():\n    pass\n',
    'README.md': 'shop',
  });
});
afterEach(() => t.cleanup());

describe('readRelevantFiles', () => {
  it('reads the files named by the goal and by the last failure, with their text', async () => {
    const previousAttempts = [
      {
        attempt: 1,
        status: 'REWORK_REQUIRED',
        reviewFindings: [],
        judgeFindings: [],
        test: {
          counts: { total: 1, passed: 0, failed: 1, errors: 0, skipped: 0 },
          stdoutExcerpt: 'FAILED tests/test_cache.py::test_key',
          stderrExcerpt: '',
        },
      },
    ];
    const files = await readRelevantFiles({
      worktreePath: t.repo,
      goal: 'cache_key ignores the cache',
      previousAttempts,
    });
    expect(files.map((file) => file.path)).toEqual(['tests/test_cache.py', 'shop/cache.py']);
    expect(files[1]?.excerpt).toContain('def cache_key(item)');
  });

  it('offers nothing when the goal names no file or symbol of the repository', async () => {
    expect(await readRelevantFiles({ worktreePath: t.repo, goal: 'make it faster', previousAttempts: [] })).toEqual([]);
  });
});
