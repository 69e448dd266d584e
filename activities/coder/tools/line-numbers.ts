// read_file shows each line as `<number>\t<text>`. A model that copies that into write_file or replace_in_file would
// write the numbers into the file (a 1.5B model rewrote whole files so, issue 52): text whose every line carries such
// a prefix, numbered consecutively, is taken without the numbers, and the reply says so.

const numbered = /^(\d+)\t/;

/**
 * `text` without read_file's line numbers when every line has one in sequence (or every line but the first);
 * `stripped` says whether it did.
 */
export function withoutReadFileNumbers(text: string): { text: string; stripped: boolean } {
  const lines = text.split('\n');
  // A final newline leaves an empty last line, which read_file never numbers.
  const body = lines.at(-1) === '' ? lines.slice(0, -1) : lines;
  if (body.length === 0) return { text, stripped: false };
  // The 1.5B also quoted a function's first line without its number and the rest with theirs: that first line counts
  // as numbered when at least two numbered lines follow it.
  const firstBare = body.length >= 3 && !numbered.test(body[0] as string);
  let previous: number | undefined;
  for (const line of firstBare ? body.slice(1) : body) {
    const match = numbered.exec(line);
    if (!match) return { text, stripped: false };
    const number = Number(match[1]);
    if (previous !== undefined && number !== previous + 1) return { text, stripped: false };
    previous = number;
  }
  const stripped = body.map((line) => line.replace(numbered, ''));
  return { text: [...stripped, ...(body.length < lines.length ? [''] : [])].join('\n'), stripped: true };
}

/** The note a reply carries when numbers were taken out of `what`. */
export const numbersRemovedNote = (what: string) =>
  ` (the read_file line numbers at the start of each line of ${what} were removed: they are not part of the file)`;
