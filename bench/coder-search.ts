// bench/coder-search: the coder's `search` tool on a 20,000-file repository (tracked files plus files the coder
// created) against plain `git grep` on the same tree. Target: the tool's median at most 300 ms.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { searchTool } from '../activities/coder/tools/search.js';
import { emptyTelemetry } from '../domain/telemetry.js';
import { median } from './lib/stats.js';
import { formatMs } from './lib/table.js';
import type { Benchmark, BenchResult } from './lib/types.js';

const FILES = 20_000;
const PER_DIR = 100;
const TARGET_MS = 300;

async function makeRepo(root: string): Promise<void> {
  for (let dir = 0; dir < FILES / PER_DIR; dir++) {
    const folder = path.join(root, 'pkg', `mod${dir}`);
    await mkdir(folder, { recursive: true });
    await Promise.all(
      Array.from({ length: PER_DIR }, (_, i) =>
        writeFile(path.join(folder, `f${i}.py`), `def compute_${dir}_${i}(x):\n    return x + ${i}\n\n\nVALUE = ${dir * PER_DIR + i}\n`),
      ),
    );
  }
  await writeFile(path.join(root, 'pkg', 'mod7', 'f7.py'), 'def needle_function():\n    return 1\n');
  const git = (...args: string[]) => execa('git', args, { cwd: root });
  await git('init', '-q', '-b', 'main');
  // No background gc racing the timings (20,000 loose objects would start one).
  await git('config', 'gc.auto', '0');
  await git('config', 'maintenance.auto', 'false');
  await git('add', '-A');
  await git('-c', 'user.name=b', '-c', 'user.email=b@example.com', 'commit', '-q', '-m', 'seed');
  // A file the coder created: untracked, and found all the same.
  await writeFile(path.join(root, 'pkg', 'new_module.py'), 'from pkg.mod7.f7 import needle_function\n');
}

export const coderSearchBenchmark: Benchmark = {
  name: 'coder-search',
  async run({ runs, log }): Promise<BenchResult> {
    const root = await mkdtemp(path.join(os.tmpdir(), 'taskloop-bench-search-'));
    try {
      log(`coder-search: making a ${FILES}-file repository`);
      await makeRepo(root);
      const context = { root, telemetry: emptyTelemetry(), failedReplacePaths: new Set<string>(), changedFiles: new Set(['pkg/new_module.py']) };
      const tool = async () => {
        const started = performance.now();
        const { reply } = await searchTool.run({ pattern: 'needle_function' }, context);
        if (!reply.includes('pkg/new_module.py:1:') || !reply.includes('pkg/mod7/f7.py:1:')) throw new Error(`search missed a match: ${reply}`);
        return performance.now() - started;
      };
      const plain = async () => {
        const started = performance.now();
        await execa('git', ['grep', '-n', '-F', '-e', 'needle_function'], { cwd: root });
        return performance.now() - started;
      };
      await tool();
      await plain();
      const toolMs: number[] = [];
      const plainMs: number[] = [];
      for (let run = 0; run < Math.max(runs, 5); run++) {
        toolMs.push(await tool());
        plainMs.push(await plain());
      }
      const verdict = median(toolMs) <= TARGET_MS ? 'meets' : 'MISSES';
      return {
        rows: [
          { benchmark: `coder-search: search tool (${FILES} files)`, samples: toolMs, ratio: median(toolMs) / median(plainMs) },
          { benchmark: 'coder-search: plain git grep', samples: plainMs, ratio: 1 },
        ],
        sections: [`coder search on ${FILES} files: median ${formatMs(median(toolMs))} ms, target <= ${TARGET_MS} ms (${verdict} it)`],
      };
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
};
