// bench/search: the coder's `search` tool, called directly, in an attempt's worktree of a generated 20,000-file
// repository (kept in the bench cache), beside the same search in the plain checkout (no stat cache: a folder that is
// no attempt's) and `git grep` on the same files, for reference.
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { searchTool } from '../activities/coder/tools/search.js';
import { recordAttemptGitDir } from '../activities/git/attempt-git-dir.js';
import { emptyTelemetry } from '../domain/telemetry.js';
import { atMost, ms, reference } from './lib/figures.js';
import { commitFolder, git } from './lib/git.js';
import { median } from './lib/stats.js';
import type { Benchmark, BenchResult } from './lib/types.js';

const FILES = 20_000;
const PER_FOLDER = 100;
const NEEDLE = 'frobnicate_the_widget';

/** 200 packages of 100 small Python modules; every 1,000th module mentions the needle. Made once, then reused. */
async function ensureRepository(cacheDir: string, log: (line: string) => void): Promise<string> {
  const root = path.join(cacheDir, `search-${FILES}`);
  if (existsSync(path.join(root, '.git', 'bench-complete'))) return root;
  log(`making a ${FILES.toLocaleString('en-US')}-file repository in ${root} (once)`);
  await rm(root, { recursive: true, force: true });
  for (let index = 0; index < FILES; index += 1) {
    const folder = path.join(root, `pkg${Math.floor(index / PER_FOLDER)}`);
    if (index % PER_FOLDER === 0) await mkdir(folder, { recursive: true });
    const body = Array.from(
      { length: 20 },
      (_, line) => `def function_${index}_${line}(value):\n    return value + ${line}\n`,
    ).join('\n');
    const needle = index % 1000 === 7 ? `\n\ndef ${NEEDLE}():\n    return ${index}\n` : '';
    await writeFile(path.join(folder, `module${index}.py`), body + needle);
  }
  await commitFolder(root);
  await writeFile(path.join(root, '.git', 'bench-complete'), '');
  return root;
}

/**
 * The repository's files as an attempt's worktree (a linked worktree whose git folder is recorded, as a claim leaves
 * it): where the coder searches, and where the snapshot keeps its stat cache. Made once, then reused.
 */
async function ensureWorktree(root: string): Promise<string> {
  const worktree = `${root}-worktree`;
  if (!existsSync(path.join(worktree, '.git'))) {
    await rm(worktree, { recursive: true, force: true });
    await git(root, ['worktree', 'prune']);
    await git(root, ['worktree', 'add', '--detach', worktree, 'HEAD']);
  }
  recordAttemptGitDir(worktree, (await git(worktree, ['rev-parse', '--absolute-git-dir'])).trim());
  return worktree;
}

async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

export const searchBenchmark: Benchmark = {
  name: 'search',
  defaultRuns: 5,
  async run({ runs, log, cacheDir }): Promise<BenchResult> {
    const repository = await ensureRepository(cacheDir, log);
    const root = await ensureWorktree(repository);
    const context = (folder: string) => ({
      root: folder,
      telemetry: emptyTelemetry(),
      failedReplacePaths: new Set<string>(),
      changedFiles: new Set<string>(),
    });
    const search = async (folder = root) => {
      const outcome = await searchTool.run({ pattern: NEEDLE }, context(folder));
      const hits = outcome.reply.split('\n').filter((line) => line.includes(NEEDLE)).length;
      if (hits !== FILES / 1000)
        throw new Error(
          `search found ${hits} lines with the needle, expected ${FILES / 1000}: ${outcome.reply.slice(0, 300)}`,
        );
    };
    await search(); // warm-up: file cache and module load
    const tool: number[] = [];
    const uncached: number[] = [];
    const grep: number[] = [];
    // Interleaved, so the machine's load weighs on the three alike.
    for (let index = 0; index < runs; index += 1) {
      tool.push(await timed(() => search()));
      uncached.push(await timed(() => search(repository)));
      grep.push(await timed(() => git(root, ['grep', '-n', '-F', NEEDLE])));
    }
    const list = (values: number[]) => values.map(Math.round).join(', ');
    log(`search: tool ${list(tool)} ms; without the stat cache ${list(uncached)} ms; git grep ${list(grep)} ms`);
    return {
      figures: [
        atMost(`coder search, ${FILES.toLocaleString('en-US')}-file repository`, median(tool), 300, ms),
        reference(
          '  the same search without the stat cache (the plain checkout: every file read)',
          ms(median(uncached)),
        ),
        reference('  git grep, same repository', ms(median(grep))),
      ],
      sections: [],
    };
  },
};
