// Pure text work behind the adaptations' content: which symbols, modules and tests a failure names, and the Python
// source that defines them. The activity reads the files; these functions only cut text.

const nodeIdPattern = /[A-Za-z0-9_./-]+\.py::[A-Za-z0-9_[\]:.-]+/g;
const noise = new Set([
  'assert',
  'assertionerror',
  'error',
  'errors',
  'failed',
  'passed',
  'test',
  'tests',
  'none',
  'true',
  'false',
  'self',
  'return',
  'def',
  'class',
  'import',
  'from',
  'module',
  'object',
  'attribute',
  'argument',
  'arguments',
  'positional',
  'keyword',
  'takes',
  'given',
  'got',
  'has',
  'was',
  'were',
  'not',
  'and',
  'the',
  'typeerror',
  'attributeerror',
  'nameerror',
  'importerror',
  'modulenotfounderror',
  'valueerror',
  'keyerror',
  'where',
  'with',
  'missing',
  'required',
  'unexpected',
]);

/** Pytest node ids named in `texts` (failure reasons, pytest output), first seen first. */
export function nodeIdsIn(texts: readonly string[]): string[] {
  return [...new Set(texts.flatMap((text) => text.match(nodeIdPattern) ?? []).map((id) => id.replace(/[.:]+$/, '')))];
}

/** Python files named in `texts` (`tests/test_calc.py`, also inside node ids), first seen first. */
export function pythonFilesIn(texts: readonly string[]): string[] {
  return [...new Set(texts.flatMap((text) => text.match(/[A-Za-z0-9_][A-Za-z0-9_./-]*\.py\b/g) ?? []))];
}

/** Identifiers a failure names (`calc.mul` gives `mul`), from its error lines and reasons, first seen first. */
export function failureSymbols(texts: readonly string[]): string[] {
  const lines = texts
    .flatMap((text) => text.split('\n'))
    .filter((line) => /^E\s|Error|error:|failed with|on [A-Za-z_]/.test(line));
  const found: string[] = [];
  for (const line of lines) {
    for (const match of line.replace(nodeIdPattern, ' ').matchAll(/[A-Za-z_][A-Za-z0-9_.]*/g)) {
      const symbol = match[0].split('.').filter(Boolean).at(-1) ?? '';
      if (symbol.length >= 3 && !noise.has(symbol.toLowerCase()) && !found.includes(symbol)) found.push(symbol);
    }
  }
  return found;
}

/** Modules a Python file imports (`from a.b import c` and `import a.b` give `a.b`), in order. */
export function importedModules(source: string): string[] {
  const modules: string[] = [];
  for (const line of source.split('\n')) {
    const from = /^\s*from\s+([A-Za-z_][A-Za-z0-9_.]*)\s+import\b/.exec(line);
    const plain = /^\s*import\s+([A-Za-z_][A-Za-z0-9_.]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_.]*)*)/.exec(line);
    const names = from ? [from[1]] : plain ? plain[1].split(',').map((name) => name.trim()) : [];
    for (const name of names) if (!modules.includes(name)) modules.push(name);
  }
  return modules;
}

/** Repository files that can hold a dotted module: `a/b.py`, `a/b/__init__.py`, also under `src/`. */
export function moduleFiles(module: string): string[] {
  const base = module.replace(/\./g, '/');
  return [`${base}.py`, `${base}/__init__.py`, `src/${base}.py`, `src/${base}/__init__.py`];
}

/** The whole `def`/`class` block named `name` in Python `source` (decorators included), or undefined. */
export function findDefinition(
  source: string,
  name: string,
  options: { signatureOnly?: boolean } = {},
): string | undefined {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^\\s*(async\\s+def|def|class)\\s+${name}\\b`).test(line));
  if (start === -1) return undefined;
  const indent = /^\s*/.exec(lines[start])?.[0].length ?? 0;
  let first = start;
  while (first > 0 && /^\s*@/.test(lines[first - 1])) first -= 1;
  let end = start;
  if (options.signatureOnly) {
    while (end < lines.length - 1 && !/:\s*(#.*)?$/.test(lines[end])) end += 1;
  } else {
    for (let index = start + 1; index < lines.length; index++) {
      const line = lines[index];
      if (line.trim() === '') continue;
      if ((/^\s*/.exec(line)?.[0].length ?? 0) <= indent) break;
      end = index;
    }
  }
  return lines.slice(first, end + 1).join('\n');
}

/** `text` cut to `maxChars`, with a marker saying where the rest is. */
export function clipSource(text: string, maxChars: number, where: string): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}\n# [... cut; read_file ${where} shows the rest]`;
}
