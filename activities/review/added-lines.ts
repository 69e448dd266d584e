// The lines a unified diff adds, with their file and line number in the new version.

export interface AddedLine {
  file: string;
  line: number;
  text: string;
}

const hunkHeader = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Walks a `git diff` (a/ and b/ prefixes). Hunk line counts are followed exactly, so an added line that
 * itself starts with "++" is never mistaken for a file header.
 */
export function parseAddedLines(diff: string): AddedLine[] {
  const added: AddedLine[] = [];
  let file: string | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  let lineNumber = 0;
  for (const raw of diff.split('\n')) {
    if (oldLeft > 0 || newLeft > 0) {
      if (raw.startsWith('+')) {
        if (file !== undefined) added.push({ file, line: lineNumber, text: raw.slice(1) });
        newLeft -= 1;
        lineNumber += 1;
      } else if (raw.startsWith('-')) {
        oldLeft -= 1;
      } else if (raw.startsWith(' ') || raw === '') {
        oldLeft -= 1;
        newLeft -= 1;
        lineNumber += 1;
      }
      continue; // "\ No newline at end of file" counts for neither side
    }
    const hunk = hunkHeader.exec(raw);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      lineNumber = Number(hunk[2]);
      newLeft = hunk[3] === undefined ? 1 : Number(hunk[3]);
    } else if (raw.startsWith('diff --git ')) {
      file = undefined;
    } else if (raw.startsWith('+++ ')) {
      file = headerPath(raw.slice(4));
    }
  }
  return added;
}

// git appends a tab to names containing spaces; /dev/null marks a deleted file.
function headerPath(text: string): string | undefined {
  const name = text.replace(/\t$/, '');
  if (name === '/dev/null') return undefined;
  return name.startsWith('b/') ? name.slice(2) : name;
}
