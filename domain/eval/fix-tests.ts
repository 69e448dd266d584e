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
  const { added, edited } = classifyTestChanges(diff);
  const changed = new Set([...added, ...edited]);
  return [...changed];
}

/**
 * The tests a diff adds (their `def` line is new) and those it edits (the `def` line was there before: the base has
 * an older version of the test, which the task's own test run holds), each in the order the diff has them.
 */
export function classifyTestChanges(diff: string): { added: string[]; edited: string[] } {
  const ids = new Map<string, 'added' | 'edited'>();
  // A test whose `def` line the diff removes and adds again (a rewritten signature) was there before: an edit.
  const removed = new Set<string>();
  for (const file of splitDiff(diff)) {
    if (!isTestPath(file.path)) continue;
    for (const hunk of file.hunks) {
      let classes: { indent: number; name: string }[] = [];
      const headerClass = classLine.exec(hunk.header);
      if (headerClass) classes = [{ indent: (headerClass[1] ?? '').length, name: headerClass[2] ?? '' }];
      let current = testOf(hunk.header, classes);
      let kind: 'added' | 'edited' = 'edited';
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
        if (def && raw.startsWith('-')) removed.add(`${file.path}::${testOf(line, classes) ?? ''}`);
        if (def && !raw.startsWith('-')) {
          current = testOf(line, classes);
          kind = raw.startsWith('+') ? 'added' : 'edited';
        } else if (/^\S/.test(line) && line.trim() !== '' && !raw.startsWith('-')) current = undefined;
        if (raw[0] !== ' ' && current && line.trim() !== '') {
          const id = `${file.path}::${current}`;
          if (!ids.has(id)) ids.set(id, kind);
        }
      }
    }
  }
  const kindOf = (id: string, kind: 'added' | 'edited') => (removed.has(id) ? 'edited' : kind);
  const of = (kind: 'added' | 'edited') => [...ids].filter(([id, k]) => kindOf(id, k) === kind).map(([id]) => id);
  return { added: of('added'), edited: of('edited') };
}

/**
 * The edited tests that fail when their old versions (the ones the task's own tests hold) run against the fixed code:
 * the loop's test node fails them however right the change, so the instance cannot be resolved through the loop.
 * `oldTestsOnFix`: outcome per node id of the base's test files run at the fix.
 */
export function rewrittenTestConflicts(
  edited: readonly string[],
  oldTestsOnFix: ReadonlyMap<string, string>,
): { id: string; outcome: string }[] {
  return edited.flatMap((id) => {
    const outcomes = [...oldTestsOnFix].filter(([caseId]) => caseId === id || caseId.startsWith(`${id}[`));
    const bad = outcomes.find(([, outcome]) => outcome !== 'passed' && outcome !== 'skipped');
    return bad ? [{ id, outcome: bad[1] }] : [];
  });
}

function testOf(line: string, classes: { indent: number; name: string }[]): string | undefined {
  const def = defLine.exec(line);
  if (!def) return undefined;
  const indent = (def[1] ?? '').length;
  const owner = classes.filter((c) => c.indent < indent).at(-1);
  return owner && indent > 0 ? `${owner.name}::${def[2]}` : indent === 0 ? def[2] : undefined;
}
