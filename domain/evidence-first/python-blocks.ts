// Whole Python functions and classes in a file's text, found by indentation the way a reader finds them: the block a
// line falls in (a traceback's frame), or the block defining a name (the goal's). Pure: text in, line ranges out.

/** A definition's lines, 1-based and inclusive, decorators included. */
export interface CodeBlock {
  name: string;
  kind: 'def' | 'class';
  start: number;
  end: number;
}

const definition = /^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_][A-Za-z0-9_]*)/;
const indentOf = (line: string) => line.length - line.trimStart().length;

/** Per line, whether it starts inside a triple-quoted string (a docstring's text says nothing about blocks). */
function insideStrings(lines: readonly string[]): boolean[] {
  const inside: boolean[] = [];
  let open: string | undefined;
  for (const line of lines) {
    inside.push(open !== undefined);
    for (const match of line.matchAll(/"""|'''/g)) {
      if (open === undefined) open = match[0];
      else if (open === match[0]) open = undefined;
    }
  }
  return inside;
}

/** The last line of the header starting at `index` (0-based): where brackets close and the line ends with `:`. */
function headerEnd(lines: readonly string[], index: number): number {
  let depth = 0;
  for (let i = index; i < lines.length && i < index + 40; i++) {
    const code = (lines[i] ?? '').replace(/#.*$/, '');
    for (const char of code) {
      if ('([{'.includes(char)) depth += 1;
      else if (')]}'.includes(char)) depth -= 1;
    }
    if (depth <= 0 && /:\s*$/.test(code)) return i;
  }
  return index;
}

/** The block whose header is at `index` (0-based), or undefined when the line is not a definition. */
function blockAt(lines: readonly string[], strings: readonly boolean[], index: number): CodeBlock | undefined {
  const match = definition.exec(lines[index] ?? '');
  if (!match || strings[index]) return undefined;
  const indent = match[1]?.length ?? 0;
  let start = index;
  while (start > 0 && /^\s*@/.test(lines[start - 1] ?? '') && indentOf(lines[start - 1] ?? '') === indent) start -= 1;
  let end = headerEnd(lines, index);
  for (let i = end + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || strings[i]) continue;
    if (indentOf(line) <= indent) break;
    end = i;
  }
  return { name: match[3] ?? '', kind: match[2] === 'class' ? 'class' : 'def', start: start + 1, end: end + 1 };
}

/** Every def and class of `text`, outermost and innermost alike, in file order. */
export function pythonBlocks(text: string): CodeBlock[] {
  const lines = text.split('\n');
  const strings = insideStrings(lines);
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const block = blockAt(lines, strings, index);
    if (block) blocks.push(block);
  }
  return blocks;
}

/** The innermost function holding `line` (1-based), else the innermost class; undefined at module level. */
export function enclosingBlock(text: string, line: number): CodeBlock | undefined {
  const holding = pythonBlocks(text).filter((block) => block.start <= line && line <= block.end);
  const innermost = (blocks: CodeBlock[]) => blocks.sort((a, b) => b.start - a.start)[0];
  return innermost(holding.filter((block) => block.kind === 'def')) ?? innermost(holding);
}

/** The blocks defining `name`, in file order (a method of that name in any class counts). */
export const blocksNamed = (text: string, name: string): CodeBlock[] =>
  pythonBlocks(text).filter((block) => block.name === name);

/** Lines `start`..`end` (1-based, inclusive) of `text` as read_file shows them: `<number>\t<text>`. */
export function numberedLines(text: string, start: number, end: number): string {
  const lines = text.split('\n');
  const shown: string[] = [];
  for (let number = start; number <= end && number <= lines.length; number++)
    shown.push(`${number}\t${lines[number - 1] ?? ''}`);
  return shown.join('\n');
}
