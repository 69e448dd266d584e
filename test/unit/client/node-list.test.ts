// The task graph's nodes as the package, the CLI's usage and the README name them: the same list as taskNodes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { taskNodes } from '../../../domain/records.js';
import { projectRoot } from '../../../platform/paths.js';
import { runTaskloop } from '../../support/cli.js';

const read = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8');
/** The words of the first `claim SEP b SEP c ...` in the text. */
function nodeList(text: string, sep: string): string[] {
  const found = text.match(new RegExp(`${taskNodes[0]}(?:${sep}[a-z]+)+`))?.[0];
  return (found ?? '').split(sep);
}

describe('the node list', () => {
  it('in the package description is taskNodes', () => {
    const { description } = JSON.parse(read('package.json')) as { description: string };
    expect(nodeList(description, ', ')).toEqual([...taskNodes]);
  });

  it('in the README is taskNodes', () => {
    expect(nodeList(read('README.md'), ' → ')).toEqual([...taskNodes]);
  });

  it("in the CLI's usage is taskloop's taskNodes", async () => {
    const help = await runTaskloop(['--help'], { env: { ...process.env, NO_COLOR: '1' } });
    expect(help.exitCode).toBe(0);
    expect(nodeList(help.stdout, ' -> ')).toEqual([...taskNodes]);
  });
});
