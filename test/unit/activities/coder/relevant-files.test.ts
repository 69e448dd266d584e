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

describe('readRelevantFiles on the layout of a real repository (cachetools, with .github templates)', () => {
  // The layout of tkem/cachetools; the goal of its issue #387 named `_DescriptorBase` and the word "issue".
  const helpers = Array.from(
    { length: 60 },
    (_, i) => `def _helper_${i}(self, key):\n    # keep the key as it is, number ${i}\n    return key\n`,
  );
  const cachedmethod = [
    '"""Method decorator helpers."""',
    ...helpers.slice(0, 40),
    'class _DescriptorBase:',
    '    def __init__(self, deprecated=False):',
    '        self.__deprecated = deprecated',
    ...helpers.slice(40),
  ].join('\n');
  let repo: TempRepo;
  beforeEach(async () => {
    repo = await createTempRepo({
      '.github/ISSUE_TEMPLATE/bug_report.md': '---\nname: Bug report\nabout: an issue with cachetools\n---\n',
      '.github/ISSUE_TEMPLATE/feature_request.md': '---\nname: Feature request\nabout: an issue asking for more\n---\n',
      '.github/ISSUE_TEMPLATE/config.yml': 'blank_issues_enabled: false\n',
      '.github/workflows/ci.yml': 'name: CI\non: [push]\n',
      'docs/index.rst': 'cachetools\n==========\n',
      'README.rst': 'cachetools\n',
      'pyproject.toml': '[project]\nname = "cachetools"\n',
      'tox.ini': '[tox]\n',
      'src/cachetools/__init__.py': 'from ._cachedmethod import cachedmethod\n',
      'src/cachetools/_cached.py': 'def _cached(cache, key):\n    pass\n',
      'src/cachetools/_cachedmethod.py': `${cachedmethod}\n`,
      'src/cachetools/keys.py': 'def hashkey(*args):\n    return args\n',
      'tests/test_cachedmethod.py': 'from cachetools import cachedmethod\n\ndef test_lock():\n    pass\n',
    });
  });
  afterEach(() => repo.cleanup());

  it('finds the file defining a symbol of the goal first, never an issue template above a source or test file', async () => {
    const files = await readRelevantFiles({
      worktreePath: repo.repo,
      goal: 'Fix issue #387: cachedmethod with a lock deadlocks; `_DescriptorBase` must not hold the lock while calling the method',
      previousAttempts: [],
    });
    const paths = files.map((file) => file.path);
    expect(paths[0]).toBe('src/cachetools/_cachedmethod.py');
    const firstOther = paths.findIndex((file) => file.startsWith('.github/') || !/\.py$/.test(file));
    const lastSource = Math.max(...paths.map((file, i) => (/\.py$/.test(file) && !file.startsWith('.') ? i : -1)));
    if (firstOther >= 0) expect(firstOther).toBeGreaterThan(lastSource);
    // The top file is whole (its definition lies past the first 4 KB), not cut to make room for smaller ones.
    expect(cachedmethod.length).toBeGreaterThan(4_000);
    expect(files[0]?.excerpt).toContain('class _DescriptorBase:');
    expect(files[0]?.excerpt).not.toContain('[... cut');
  });
});
