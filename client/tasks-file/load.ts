// Reads a tasks file (YAML or JSON) into a validated project plan, or errors with line and column.
import { isRepoUrl } from '../../domain/repo-url.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { ProjectPlan } from '../../domain/project/plan.js';
import { describeOutlineIssues, formatPath } from './errors.js';
import type { PathError, TasksFileError } from './errors.js';
import { checkTaskGraph, readDependsOn } from './graph.js';
import { buildMilestones, checkOutlineIds } from './outline.js';
import { createLocator } from './positions.js';
import { expandFlatForm, flatPath } from './flat-form.js';
import { decodeUtf8 } from './read-text.js';
import { defaultConcurrency, tasksFileSchema } from './schema.js';
import { checkTasks, collectRawTasks, isRecord } from './tasks.js';

export type { TasksFileError } from './errors.js';
export { formatTasksFileErrors } from './errors.js';

export type LoadTasksFileResult = { success: true; data: ProjectPlan } | { success: false; errors: TasksFileError[] };

/**
 * Loads a tasks file: checks its outline, every task (defaults merged, project and repo filled in, repo
 * resolved against the file's folder) and the dependency graph, and reports every problem found.
 */
export async function loadTasksFile(file: string): Promise<LoadTasksFileResult> {
  const absolute = path.resolve(file);
  let bytes: Buffer;
  try {
    bytes = await readFile(absolute);
  } catch (error) {
    return { success: false, errors: [{ file, path: '', message: describeReadError(error, absolute) }] };
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.success) {
    const { line, column } = decoded;
    const message = `the file is not UTF-8 text (first invalid byte here); save it as UTF-8, e.g. iconv -f latin1 -t utf-8 ${file} > fixed.yaml`;
    return { success: false, errors: [{ file, line, column, path: '', message }] };
  }
  const text = decoded.text;

  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const errors = doc.errors.map((error) => {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      return { file, line, column: col, path: '', message: `invalid YAML: ${error.message.split('\n')[0]}` };
    });
    return { success: false, errors };
  }

  const js = toPlainData(doc);
  if (!js.success) {
    const { line, col } = lineCounter.linePos(js.offset);
    return { success: false, errors: [{ file, line, column: col, path: '', message: js.message }] };
  }
  const { root, flat } = expandFlatForm(js.data);
  const outline = tasksFileSchema.safeParse(root);
  const errors: PathError[] = outline.success ? [] : describeOutlineIssues(outline.error.issues, root);
  errors.push(...checkOutlineIds(root));

  const top = isRecord(root) ? root : {};
  const repo =
    typeof top.repo === 'string'
      ? isRepoUrl(top.repo)
        ? top.repo
        : path.resolve(path.dirname(absolute), top.repo)
      : '';
  const rawTasks = collectRawTasks(root);
  const checked = checkTasks(rawTasks, {
    project: typeof top.project === 'string' ? top.project : '',
    repo,
    defaults: isRecord(top.defaults) ? top.defaults : {},
    folder: path.dirname(absolute),
  });
  errors.push(...checked.errors, ...checkTaskGraph(rawTasks));

  if (errors.length > 0 || !outline.success) {
    const locate = createLocator(doc, lineCounter);
    const written = flat ? errors.map((error) => ({ ...error, path: flatPath(error.path) })) : errors;
    const located = dedupe(written).map((error) => ({
      file,
      ...locate(error.path, error.target),
      path: formatPath(error.path),
      message: error.message,
    }));
    located.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    return { success: false, errors: located };
  }

  const data = outline.data;
  const tasks = checked.tasks.map((task) => ({
    spec: task.spec!,
    milestone: String(task.milestone),
    feature: String(task.feature),
    dependsOn: readDependsOn(task),
  }));
  const concurrency = data.defaults?.concurrency ?? defaultConcurrency;
  return {
    success: true,
    data: { project: data.project, repo, concurrency, milestones: buildMilestones(data), tasks },
  };
}

function describeReadError(error: unknown, absolute: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `tasks file not found: ${absolute}; check the path`;
  if (code === 'EISDIR') return `${absolute} is a folder; pass the path of a tasks file (.yaml or .json)`;
  return `cannot read tasks file ${absolute}: ${(error as Error).message}`;
}

// The same default can fail for every task; say it once.
function dedupe(errors: PathError[]): PathError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${formatPath(error.path)}\n${error.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The document as plain data; aliases that expand past the parser's limit (a "billion laughs") are refused. */
function toPlainData(
  doc: Document,
): { success: true; data: unknown } | { success: false; offset: number; message: string } {
  try {
    return { success: true, data: doc.toJS() };
  } catch (error) {
    if (!/alias/i.test((error as Error).message)) throw error;
    let offset = 0;
    visit(doc, {
      Alias(_key, node) {
        offset = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    return {
      success: false,
      offset,
      message:
        'aliases here expand to too many nodes (over 100; the "billion laughs" shape); write the values out or use fewer aliases (*name) of nested anchors',
    };
  }
}
