import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allowedLazyImports, importCircles, importGraph } from '../../../scripts/import-circles.js';

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A throwaway project root holding `files` (relative path → text). */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'taskloop-circles-'));
  folders.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('import circles', () => {
  it('product code has none (type imports included)', () => {
    const circles = importCircles().map((circle) => circle.join(' <-> '));
    expect(circles, `break these circles (scripts/import-circles.ts lists them):\n${circles.join('\n')}`).toEqual([]);
  });

  it('finds a new circle, through type imports, re-exports and folders', () => {
    const root = project({
      'domain/a.ts': "import type { B } from './b.js';\nexport type A = B;\n",
      'domain/b.ts': "export type { C as B } from '../workflows/c.js';\n",
      'workflows/c.ts': "import type { A } from '../domain/a.js';\nexport type C = A | 1;\n",
      'workflows/d.ts': "import type { A } from '../domain/a.js';\nexport type D = A;\n",
    });
    expect(importCircles(importGraph(root, ['domain', 'workflows']), [])).toEqual([
      ['domain/a.ts', 'domain/b.ts', 'workflows/c.ts'],
    ]);
  });

  it('counts lazy imports, and allows only the one named: the command table loading completion', () => {
    expect(allowedLazyImports.map(({ from, to }) => `${from} -> ${to}`)).toEqual([
      'client/commands/index.ts -> client/commands/completion.ts',
    ]);
    const graph = importGraph();
    expect(importCircles(graph, [])).toEqual([['client/commands/completion.ts', 'client/commands/index.ts']]);
    const root = project({
      'client/index.ts': "export const load = () => import('./completion.js');\n",
      'client/completion.ts': "import { load } from './index.js';\nexport const again = load;\n",
    });
    const named = [{ from: 'client/index.ts', to: 'client/completion.ts', why: 'probe' }];
    expect(importCircles(importGraph(root, ['client']), named)).toEqual([]);
    // The allowance is for the lazy edge only: a static import the other way round is still a circle.
    const staticRoot = project({
      'client/index.ts': "import { again } from './completion.js';\nexport const load = () => again;\n",
      'client/completion.ts': "import { load } from './index.js';\nexport const again = load;\n",
    });
    expect(importCircles(importGraph(staticRoot, ['client']), named)).toHaveLength(1);
  });
});
