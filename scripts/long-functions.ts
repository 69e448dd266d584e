// Lists the product functions longer than a limit (60 lines unless given), longest first: `npx tsx
// scripts/long-functions.ts [LIMIT] [--json]`. A function's lines run from its first line to its last, nested
// functions included (so a factory that holds its activities inline counts them); test, bench and script files are
// not product code. Used to keep issue 55's rule (no product function over 80 lines) in sight.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../platform/paths.js';

export const productFolders = ['domain', 'workflows', 'activities', 'platform', 'workers', 'client'];

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

function* sourceFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield full;
  }
}

function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/** Every function-like node of `file` longer than `limit` lines. */
export function longFunctionsIn(file: string, limit: number): LongFunction[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit)
        found.push({ file: path.relative(projectRoot, file), name: nameOf(node), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export function longFunctions(limit: number): LongFunction[] {
  return productFolders
    .flatMap((folder) => [...sourceFiles(path.join(projectRoot, folder))])
    .flatMap((file) => longFunctionsIn(file, limit))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const limitArg = args.find((arg) => !arg.startsWith('--'));
  const limit = limitArg === undefined ? 60 : Number(limitArg);
  if (!Number.isInteger(limit) || limit < 1) {
    console.error(`long-functions: LIMIT must be a whole number of lines above 0, got ${JSON.stringify(limitArg)}`);
    process.exit(2);
  }
  const found = longFunctions(limit);
  if (args.includes('--json')) console.log(JSON.stringify(found, null, 2));
  else {
    for (const entry of found)
      console.log(`${String(entry.lines).padStart(4)}  ${entry.file}:${entry.line}  ${entry.name}`);
    console.log(`${found.length} product functions over ${limit} lines`);
  }
}
