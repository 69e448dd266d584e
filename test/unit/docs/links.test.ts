// The docs hold together: every relative link in the project's markdown reaches a file (and a heading, when it names
// one), the README stays a first-steps page, and it leads to every page of docs/.
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';
import { headingAnchors, relativeLinks } from '../../support/markdown.js';

/** Every markdown file git tracks or would track (new pages too), relative to the project root. */
async function markdownFiles(): Promise<string[]> {
  const { stdout } = await execa('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.md'], {
    cwd: projectRoot,
  });
  return stdout.split('\n').filter((file) => file !== '' && existsSync(path.join(projectRoot, file)));
}

/** What is wrong with one link of `file`, or undefined when it resolves. */
async function brokenLink(file: string, target: string): Promise<string | undefined> {
  const [linkPath = '', anchor] = target.split('#');
  const resolved =
    linkPath === ''
      ? path.join(projectRoot, file)
      : path.resolve(path.dirname(path.join(projectRoot, file)), decodeURI(linkPath));
  if (!existsSync(resolved)) return `no file ${path.relative(projectRoot, resolved)}`;
  if (anchor === undefined || !resolved.endsWith('.md')) return undefined;
  const anchors = headingAnchors(await readFile(resolved, 'utf8'));
  return anchors.has(anchor) ? undefined : `no heading #${anchor} in ${path.relative(projectRoot, resolved)}`;
}

describe('the markdown links', () => {
  it('finds the README and the docs pages', async () => {
    const files = await markdownFiles();
    expect(files).toContain('README.md');
    expect(files).toContain('docs/architecture.md');
  });

  it('resolve: each relative link names a file that exists, and a heading of it when it has an anchor', async () => {
    const broken: string[] = [];
    for (const file of await markdownFiles()) {
      for (const link of relativeLinks(await readFile(path.join(projectRoot, file), 'utf8'))) {
        const problem = await brokenLink(file, link.target);
        if (problem) broken.push(`${file}:${link.line} (${link.target}): ${problem}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('are found where a reader sees them, and a missing file or heading is reported', async () => {
    const text = [
      '# Page title',
      'See [cli](docs/cli.md), [the flow](docs/architecture.md#the-flow-of-a-task) and [here](#page-title).',
      'Not links: `[code](nowhere.md)`, [web](https://temporal.io), [mail](mailto:a@b.c).',
      '```md',
      '[fenced](nowhere.md)',
      '```',
      '![chart](docs/gone.svg) and [a heading that is not there](docs/cli.md#no-such-heading).',
      '[ref]: docs/tests.md',
    ].join('\n');
    const links = relativeLinks(text);
    expect(links).toEqual([
      { line: 2, target: 'docs/cli.md' },
      { line: 2, target: 'docs/architecture.md#the-flow-of-a-task' },
      { line: 2, target: '#page-title' },
      { line: 7, target: 'docs/gone.svg' },
      { line: 7, target: 'docs/cli.md#no-such-heading' },
      { line: 8, target: 'docs/tests.md' },
    ]);
    const problems = await Promise.all(links.map((link) => brokenLink('README.md', link.target)));
    expect(problems).toEqual([
      undefined,
      undefined,
      'no heading #page-title in README.md',
      'no file docs/gone.svg',
      'no heading #no-such-heading in docs/cli.md',
      undefined,
    ]);
  });

  it('make anchors of headings as GitHub does: code kept, punctuation dropped, repeats numbered', () => {
    const anchors = headingAnchors(
      [
        '# Evaluation: `taskloop eval`',
        "## Workers' settings and artifacts",
        '## Notes',
        '## Notes',
        '```',
        '# not a heading',
        '```',
      ].join('\n'),
    );
    expect([...anchors]).toEqual(['evaluation-taskloop-eval', 'workers-settings-and-artifacts', 'notes', 'notes-1']);
  });
});

describe('the README', () => {
  it('stays a first-steps page of at most 250 lines', async () => {
    const readme = await readFile(path.join(projectRoot, 'README.md'), 'utf8');
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('links every page of docs/ under "Where to look next"', async () => {
    const readme = await readFile(path.join(projectRoot, 'README.md'), 'utf8');
    const next = readme.slice(readme.indexOf('## Where to look next'));
    const linked = new Set(relativeLinks(next).map((link) => link.target.split('#')[0]));
    const pages = (await readdir(path.join(projectRoot, 'docs'))).filter((name) => name.endsWith('.md'));
    expect(pages.filter((page) => !linked.has(`docs/${page}`))).toEqual([]);
  });
});
