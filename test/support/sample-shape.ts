// Compares a command's output with a sample shown in the docs by its shape: the same lines in the same order,
// where the sample may write `…` for a part of a line that differs from run to run (a temp path, an id), and a
// line that is only `…` after its indentation or prefix (`  …`, `  | …`) for any number of output lines so
// prefixed (or blank) that the sample leaves out.

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The sample line as a pattern of a whole output line: `…` stands for any text. */
const linePattern = (line: string) => new RegExp(`^${line.split('…').map(escape).join('.*')}$`);

/** The prefix of an elision line (`  | …` → `  | `), or undefined for a line to match. */
const elisionPrefix = (line: string) => /^([\s|]*)…$/.exec(line)?.[1];

/**
 * The first place the output leaves the sample's shape, said in words, or undefined when it keeps to it. Trailing
 * spaces are ignored on both sides (markdown editors drop them).
 */
export function sampleMismatch(output: string, sample: string): string | undefined {
  const want = sample.split('\n').map((line) => line.trimEnd());
  const got = output
    .trimEnd()
    .split('\n')
    .map((line) => line.trimEnd());
  let j = 0;
  for (let i = 0; i < want.length; i++) {
    const line = want[i]!;
    const prefix = elisionPrefix(line);
    if (prefix !== undefined) {
      const next = want[i + 1];
      const stop = next === undefined || elisionPrefix(next) !== undefined ? undefined : linePattern(next);
      const skippable = (text: string) => text.startsWith(prefix) || text === prefix.trimEnd() || text.trim() === '';
      while (j < got.length && skippable(got[j]!) && !(stop?.test(got[j]!) ?? false)) j++;
      continue;
    }
    if (j >= got.length) return `the output ends where the sample has line ${i + 1}: ${line}`;
    if (!linePattern(line).test(got[j]!))
      return `sample line ${i + 1} is\n  ${line}\nbut output line ${j + 1} is\n  ${got[j]}`;
    j++;
  }
  if (j < got.length) return `the output goes on past the sample, from line ${j + 1}: ${got[j]}`;
  return undefined;
}
