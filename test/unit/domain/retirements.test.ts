import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { compareReleases, dueRetirements, retirements } from '../../../domain/retirements.js';
import { projectRoot } from '../../../platform/paths.js';
import { productFolders } from '../../../scripts/long-functions.js';

const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };

function* productFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* productFiles(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield full;
  }
}
const files = productFolders.flatMap((folder) => [...productFiles(path.join(projectRoot, folder))]);

/** Patch ids: the strings of `*_PATCH` constants and of `patched('…')`/`deprecatePatch('…')` calls. */
function patchIds(): string[] {
  const ids = files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/(?:_PATCH = |(?:patched|deprecatePatch)\()'([^']+)'/g)].map(
      (match) => match[1]!,
    ),
  );
  return [...new Set(ids)].sort();
}

/** The names of declarations whose doc comment says `@deprecated`. */
function deprecatedNames(): string[] {
  const names = new Set<string>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.getJSDocDeprecatedTag(node)) {
        const name = (node as { name?: ts.Node }).name;
        const declared = ts.isVariableStatement(node) ? node.declarationList.declarations[0]?.name : name;
        if (declared) names.add(declared.getText(source));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...names].sort();
}

describe('compatibility retires on a clock', () => {
  it(`nothing is due at this release (${version})`, () => {
    const due = dueRetirements(version).map(
      (entry) => `${entry.kind} ${entry.name} (${entry.step} at ${entry.retireAt}, ${entry.where}): ${entry.what}`,
    );
    expect(due, `due now, see docs/architecture.md "Changing workflow code":\n${due.join('\n')}`).toEqual([]);
  });

  it('fails once the version reaches an entry’s release', () => {
    expect(compareReleases('0.1.0', '0.2.0')).toBe(-1);
    expect(compareReleases('0.10.0', '0.2.0')).toBe(1);
    expect(compareReleases('0.2.0-rc.1', '0.2.0')).toBe(0);
    expect(dueRetirements('0.1.9')).toEqual([]);
    expect(dueRetirements('0.2.0').map((entry) => entry.name)).toContain('repeated-test-timeout-is-code');
  });

  it('every patch id the workflows ask names its release here', () => {
    const listed = retirements.filter((entry) => entry.kind === 'patch').map((entry) => entry.name);
    expect(patchIds()).toEqual([...listed].sort());
  });

  it('every @deprecated name in product code names its release here', () => {
    const listed = retirements.filter((entry) => entry.kind === 'alias').map((entry) => entry.name);
    expect(deprecatedNames()).toEqual([...listed].sort());
  });
});
