// The review rule `git_attributes_driver`: a `.gitattributes` line the change adds that names a filter, diff or merge
// driver. Git runs the program a driver's configuration names for every file the line matches, on every checkout,
// diff and merge of the branch; a change has no business adding one. Built-in drivers name no program and pass.
import type { Finding } from './records.js';

/** One added line of a file (repo-relative path, 1-based line number), as the review reads them from the diff. */
export interface AddedText {
  file: string;
  line: number;
  text: string;
}

// `diff=<language>` picks one of git's built-in hunk-header patterns; `merge=text|binary|union` a built-in merge.
const builtInDiff = new Set(
  'ada bash bibtex cpp csharp css default dts elixir fortran fountain golang html java kotlin markdown matlab objc pascal perl php python ruby rust scheme tex'.split(
    ' ',
  ),
);
const builtInMerge = new Set(['text', 'binary', 'union']);

/** The drivers a `.gitattributes` line names (`filter=x`, `diff=x`, `merge=x`), built-in ones left out. */
export function driversNamed(text: string): string[] {
  const line = text.trim();
  if (line === '' || line.startsWith('#')) return [];
  const named: string[] = [];
  for (const match of line.matchAll(/(?:^|\s)(filter|diff|merge)=(\S+)/g)) {
    const attribute = match[1]!;
    const value = match[2]!;
    if (attribute === 'diff' && builtInDiff.has(value)) continue;
    if (attribute === 'merge' && builtInMerge.has(value)) continue;
    named.push(`${attribute}=${value}`);
  }
  return named;
}

const isAttributesFile = (file: string) => (file.split('/').pop() ?? '').toLowerCase() === '.gitattributes';

/** The `git_attributes_driver` findings: added `.gitattributes` lines (in any folder) that name a driver. */
export function findAttributeDrivers(lines: readonly AddedText[]): Finding[] {
  return lines
    .filter((added) => isAttributesFile(added.file))
    .flatMap((added) => {
      const drivers = driversNamed(added.text);
      if (drivers.length === 0) return [];
      return [
        {
          rule: 'git_attributes_driver',
          message: `${added.file}:${added.line} names the git driver ${drivers.join(', ')}: git runs the program a driver's configuration names on checkout, diff and merge; remove the attribute`,
          file: added.file,
          line: added.line,
        },
      ];
    });
}
