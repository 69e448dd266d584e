// bench/search: the coder's `search` tool, called directly, on a generated 20,000-file repository (kept in the
// bench cache), beside `git grep` on the same repository for reference.
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { searchTool } from '../activities/coder/tools/search.js';
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

async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

export const searchBenchmark: Benchmark = {
  name: 'search',
  defaultRuns: 5,
  async run({ runs, log, cacheDir }): Promise<BenchResult> {
    const root = await ensureRepository(cacheDir, log);
    const context = {
      root,
      telemetry: emptyTelemetry(),
      failedReplacePaths: new Set<string>(),
      changedFiles: new Set<string>(),
    };
    const search = async () => {
      const outcome = await searchTool.run({ pattern: NEEDLE }, context);
      const hits = outcome.reply.split('\n').filter((line) => line.includes(NEEDLE)).length;
      if (hits !== FILES / 1000)
        throw new Error(
          `search found ${hits} lines with the needle, expected ${FILES / 1000}: ${outcome.reply.slice(0, 300)}`,
        );
    };
    await search(); // warm-up: file cache and module load
    const tool: number[] = [];
    const grep: number[] = [];
    for (let index = 0; index < runs; index += 1) {
      tool.push(await timed(search));
      grep.push(await timed(() => git(root, ['grep', '-n', '-F', NEEDLE])));
    }
    log(`search: tool ${tool.map(Math.round).join(', ')} ms; git grep ${grep.map(Math.round).join(', ')} ms`);
    return {
      figures: [
        atMost(`coder search, ${FILES.toLocaleString('en-US')}-file repository`, median(tool), 300, ms),
        reference('  git grep, same repository', ms(median(grep))),
      ],
      sections: [],
    };
  },
};
