// Lists the import circles among product files: `npx tsx scripts/import-circles.ts`. Every relative import counts —
// static, type-only, re-exports, `import('…')` types and lazy `await import('…')` — except the lazy imports named in
// `allowedLazyImports`. A circle is a strongly connected group of files; the lint tier fails on any
// (test/unit/lint/import-circles.test.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../platform/paths.js';
import { productFolders } from './long-functions.js';

/** A lazy import allowed to close a circle: the edge `from` → `to` is left out of the graph, by name, with why. */
export interface AllowedLazyImport {
  from: string;
  to: string;
  why: string;
}

export const allowedLazyImports: readonly AllowedLazyImport[] = [
  {
    from: 'client/commands/index.ts',
    to: 'client/commands/completion.ts',
    why: 'the completion script reads the command table it is listed in; the table loads it only when run',
  },
];

interface Edge {
  to: string;
  lazy: boolean;
}

function* tsFiles(folder: string): Generator<string> {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* tsFiles(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** Every module specifier of `file`, marked lazy when it is a runtime `import('…')` call. */
function specifiersOf(file: string): { specifier: string; lazy: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { specifier: string; lazy: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push({ specifier: node.moduleSpecifier.text, lazy: false });
    } else if (ts.isImportTypeNode(node)) {
      const literal = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
      if (literal && ts.isStringLiteral(literal)) found.push({ specifier: literal.text, lazy: false });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) found.push({ specifier: argument.text, lazy: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The product files each product file imports (paths relative to `root`, with `/`). */
export function importGraph(root = projectRoot, folders: readonly string[] = productFolders): Map<string, Edge[]> {
  const files = folders.flatMap((folder) => [...tsFiles(path.join(root, folder))]);
  const names = new Set(files.map((file) => path.relative(root, file).split(path.sep).join('/')));
  const graph = new Map<string, Edge[]>();
  for (const file of files) {
    const from = path.relative(root, file).split(path.sep).join('/');
    const edges: Edge[] = [];
    for (const { specifier, lazy } of specifiersOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '');
      const to = [`${target}.ts`, `${target}/index.ts`].find((candidate) => names.has(candidate));
      if (to) edges.push({ to, lazy });
    }
    graph.set(from, edges);
  }
  return graph;
}

/** Strongly connected groups of more than one file (Tarjan), each sorted; the allowed lazy imports left out. */
export function importCircles(
  graph = importGraph(),
  allowed: readonly AllowedLazyImport[] = allowedLazyImports,
): string[][] {
  const isAllowed = (from: string, edge: Edge) =>
    edge.lazy && allowed.some((entry) => entry.from === from && entry.to === edge.to);
  const next = (from: string) =>
    (graph.get(from) ?? []).filter((edge) => !isAllowed(from, edge)).map((edge) => edge.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const strong = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const to of next(file)) {
      if (!index.has(to)) {
        strong(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) circles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) strong(file);
  return circles;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const circles = importCircles();
  for (const circle of circles) console.log(circle.join(' <-> '));
  console.log(`${circles.length} import circles among product files`);
  if (circles.length > 0) process.exitCode = 1;
}
