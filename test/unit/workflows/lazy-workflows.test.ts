// Every workflow execution evaluates its modules again (workflows/index.ts): the task workflow's modules must stay
// free of packages such as zod and yaml, and the entry must load each workflow type's modules only when one starts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';

interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}

/** esbuild's view of a module graph (only the graph is used; nothing is written). */
async function moduleGraph(entry: string): Promise<Metafile> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(projectRoot, entry)],
    absWorkingDir: projectRoot,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'neutral',
    mainFields: ['module', 'main'],
    // The SDK is the one package a workflow must import; the bundler's own shims decide how it loads.
    external: ['@temporalio/*'],
    logLevel: 'silent',
  });
  return result.metafile as Metafile;
}

describe('the workflow bundle evaluates what a workflow type needs, per execution', () => {
  it('the entry loads the task, project and learning workflows by dynamic import only', async () => {
    const { inputs } = await moduleGraph('workflows/index.ts');
    const imports = inputs['workflows/index.ts']?.imports ?? [];
    const kindOf = (file: string) => imports.find((entry) => entry.path === `workflows/${file}`)?.kind;
    expect(kindOf('task.ts')).toBe('dynamic-import');
    expect(kindOf('project.ts')).toBe('dynamic-import');
    expect(kindOf('learning/learning-workflow.ts')).toBe('dynamic-import');
    expect(kindOf('probe.ts')).toBe('import-statement');
  });

  it("the task workflow's modules import no package but the Temporal SDK (zod and yaml stay in clients and activities)", async () => {
    const { inputs } = await moduleGraph('workflows/task.ts');
    const packages = Object.keys(inputs).filter((file) => file.includes('node_modules/'));
    expect(packages).toEqual([]);
    // The graph is the task's own: neither the project nor the learning workflow comes with it.
    expect(Object.keys(inputs)).toContain('workflows/task/run-attempt.ts');
    expect(
      Object.keys(inputs).filter((file) => /workflows\/(project|learning\/learning-workflow)\.ts$/.test(file)),
    ).toEqual([]);
  });
});
