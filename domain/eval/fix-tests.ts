// The tests an upstream fix added or changed, read from its unified diff: pytest node ids of every test function
// whose definition the fix adds or whose body it edits (a hunk's header names the function it sits in).
/** A path pytest collects tests from by default. */
export function isTestPath(path: string): boolean {
  const name = path.split('/').pop() ?? '';
  return name.endsWith('.py') && (name.startsWith('test_') || name.endsWith('_test.py'));
}

const defLine = /^(\s*)(?:async\s+)?def\s+(test\w*)\s*\(/;
const classLine = /^(\s*)class\s+(\w+)\b/;

interface FileDiff {
  path: string;
  hunks: { header: string; lines: string[] }[];
}

function splitDiff(diff: string): FileDiff[] {
  const files: FileDiff[] = [];
  let current: FileDiff | undefined;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      const target = line.slice(4).trim();
      current = { path: target === '/dev/null' ? '' : target.replace(/^b\//, ''), hunks: [] };
      files.push(current);
    } else if (line.startsWith('@@') && current) {
      current.hunks.push({ header: line.replace(/^@@[^@]*@@ ?/, ''), lines: [] });
    } else if (current && current.hunks.length > 0 && /^[ +-]/.test(line)) {
      current.hunks.at(-1)?.lines.push(line);
    }
  }
  return files;
}

/**
 * Node ids (`path::test` or `path::TestClass::test`) of the tests a diff (git show -U<n> with function context) adds
 * or edits; a test class's name comes from the nearest class line above at a lower indent, seen in the hunk.
 */
export function testsChangedByDiff(diff: string): string[] {
  const ids = new Set<string>();
  for (const file of splitDiff(diff)) {
    if (!isTestPath(file.path)) continue;
    for (const hunk of file.hunks) {
      let classes: { indent: number; name: string }[] = [];
      const headerClass = classLine.exec(hunk.header);
      if (headerClass) classes = [{ indent: (headerClass[1] ?? '').length, name: headerClass[2] ?? '' }];
      let current = testOf(hunk.header, classes);
      for (const raw of hunk.lines) {
        const line = raw.slice(1);
        const cls = classLine.exec(line);
        if (cls) {
          const indent = (cls[1] ?? '').length;
          classes = [...classes.filter((c) => c.indent < indent), { indent, name: cls[2] ?? '' }];
          if (raw.startsWith('-')) classes.pop();
          current = undefined;
          continue;
        }
        const def = defLine.exec(line);
        if (def && !raw.startsWith('-')) current = testOf(line, classes);
        else if (/^\S/.test(line) && line.trim() !== '' && !raw.startsWith('-')) current = undefined;
        if (raw[0] !== ' ' && current && line.trim() !== '') ids.add(`${file.path}::${current}`);
      }
    }
  }
  return [...ids];
}

function testOf(line: string, classes: { indent: number; name: string }[]): string | undefined {
  const def = defLine.exec(line);
  if (!def) return undefined;
  const indent = (def[1] ?? '').length;
  const owner = classes.filter((c) => c.indent < indent).at(-1);
  return owner && indent > 0 ? `${owner.name}::${def[2]}` : indent === 0 ? def[2] : undefined;
}
