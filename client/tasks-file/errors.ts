// Errors of a tasks file, each tied to a line and column, and their one-line-each rendering.
import { describeValue } from '../../domain/task-spec-errors.js';
import type { PathSegment } from './positions.js';
import { outlineKeys } from './schema.js';

/** One problem in a tasks file; `path` is like `milestones[0].features[1].tasks[2].maxRetries`. */
export interface TasksFileError {
  file: string;
  line?: number;
  column?: number;
  path: string;
  message: string;
}

/** An error before it is located in the source: `target` says whether to point at the key or its value. */
export interface PathError {
  path: PathSegment[];
  target?: 'key' | 'value';
  message: string;
}

/** Renders errors one per line: `tasks.yaml:14:7 milestones[0]...maxRetries: expected ..., got "three"`. */
export function formatTasksFileErrors(errors: readonly TasksFileError[]): string {
  return errors
    .map((error) => {
      const where = [error.file, error.line, error.column].filter((part) => part !== undefined).join(':');
      return `${where} ${error.path === '' ? '' : `${error.path}: `}${error.message}`;
    })
    .join('\n');
}

/** `['milestones', 0, 'id']` -> `milestones[0].id`. */
export function formatPath(path: readonly PathSegment[]): string {
  return path.reduce<string>((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`;
    return text === '' ? segment : `${text}.${segment}`;
  }, '');
}

interface OutlineIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
}

/** Turns outline schema issues into path errors, adding the value received when the message lacks it. */
export function describeOutlineIssues(issues: readonly OutlineIssue[], root: unknown): PathError[] {
  return issues.flatMap((issue): PathError[] => {
    const path = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
    if (issue.code === 'unrecognized_keys') {
      const known = outlineKeys[path.length];
      const hint = known ? `; known keys: ${known.join(', ')}` : '';
      return (issue.keys ?? []).map((key) => {
        const got = describeValue(valueAt(root, [...path, key]));
        return {
          path: [...path, key],
          target: 'key',
          message: `unknown key, got ${got} (remove "${key}" or fix its spelling${hint})`,
        };
      });
    }
    return [{ path, message: addValueReceived(issue.message, valueAt(root, path)) }];
  });
}

/** `expected X (fix)` -> `expected X, got <value> (fix)`; other messages are left as they are. */
function addValueReceived(message: string, value: unknown): string {
  if (!message.startsWith('expected') || /\bgot\b/.test(message)) return message;
  const withFix = /^(.*?)( \(.*\))$/.exec(message);
  const got = `, got ${describeValue(value)}`;
  return withFix ? `${withFix[1]}${got}${withFix[2]}` : `${message}${got}`;
}

/** Reads a value at a path of plain data; undefined when any step is missing. */
export function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}
