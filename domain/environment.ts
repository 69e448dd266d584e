// A repository's environment: the Python packages its tests need, installed once per (repository, set-up, dependency
// files at the base commit, interpreter) by activities/environments. Here: the task field and the pure decisions (which
// files key an environment, what `auto` installs).
import { z } from 'zod';

import type { EnvironmentSpec } from './environment-timeout.js';

export {
  DEFAULT_SETUP_TIMEOUT_MS,
  environmentFields,
  setupTimeoutOf,
  type EnvironmentSpec,
} from './environment-timeout.js';

/** A python program's name as the worker's PATH holds it: `python`, `python3`, `python3.12`. */
export const isPythonName = (name: string) => /^python(\d+(\.\d+)?)?$/.test(name);

/**
 * The task field `environment`: `auto` (the set-up is read from the repository's dependency files) or the set-up
 * written out. Absent: the tests run with the worker's own Python, as before environments existed.
 */
export const environmentSpecSchema = z.union([
  z.literal('auto'),
  z.strictObject({
    /** Shell lines run in order in the sandbox (network allowed), in a copy of the base commit; absent: as `auto`. */
    setup: z.array(z.string().min(1)).min(1).optional(),
    /**
     * The interpreter the environment is made from: a python name on the worker's PATH (`python3.12`) or the absolute
     * path of one of the worker's interpreters; never a program of the task's (activities/environments/interpreter.ts).
     */
    python: z
      .string()
      .min(1)
      .refine((value) => isPythonName(value) || value.startsWith('/'), {
        message:
          'name a python on the worker’s PATH (python3, python3.12) or the absolute path of one of its interpreters',
      })
      .optional(),
    /** Files whose contents at the base key the environment; absent: the dependency files found there. */
    files: z
      .array(
        z
          .string()
          .min(1)
          .refine((file) => !file.startsWith('/') && !file.split('/').includes('..'), {
            message: 'a path inside the repository (relative, no ".." part)',
          }),
      )
      .min(1)
      .optional(),
    timeoutMs: z.number().int().min(10_000).max(7_200_000).optional(),
  }),
]) satisfies z.ZodType<EnvironmentSpec>;
type Parsed = z.infer<typeof environmentSpecSchema>;
export const environmentTypesAgree: [EnvironmentSpec] extends [Parsed]
  ? [Parsed] extends [EnvironmentSpec]
    ? true
    : never
  : never = true;

const rootDependencyFile = /^(pyproject\.toml|setup\.cfg|setup\.py|(requirements|constraints)[\w.-]*\.txt)$/;
const nestedRequirements = /^requirements\/[\w.-]+\.txt$/;

/** The paths (of the repository's root and its `requirements/` folder) that hold dependencies. */
export function dependencyFilesOf(paths: readonly string[]): string[] {
  return paths.filter((file) => rootDependencyFile.test(file) || nestedRequirements.test(file)).sort();
}

const testGroupNames = ['test', 'tests', 'testing'];

/** The keys of a TOML or INI table, read by line (enough for `[project.optional-dependencies]` and the like). */
function tableKeys(text: string, table: RegExp): string[] {
  const keys: string[] = [];
  let inside = false;
  for (const line of text.split('\n')) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      inside = table.test((header[1] ?? '').trim());
      continue;
    }
    const key = inside ? /^([A-Za-z0-9_.-]+)\s*[=:]/.exec(line) : null;
    if (key?.[1]) keys.push(key[1]);
  }
  return keys;
}

const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * What `auto` installs, from the dependency files' contents: the requirements files, the project itself with its test
 * extra, its test dependency group, and pytest. The project's code is read from the worktree at test time (it comes
 * first on PYTHONPATH); installing it here brings its dependencies and its metadata.
 */
export function planAutoSetup(files: Record<string, string>): string[] {
  const names = Object.keys(files).sort();
  const requirements = names.filter((name) => /requirements/.test(name) && name.endsWith('.txt'));
  const lines = requirements.map((name) => `uv pip install -r ${shellQuote(name)}`);
  const pyproject = files['pyproject.toml'] ?? '';
  const extras = [
    ...tableKeys(pyproject, /^project\.optional-dependencies$/),
    ...tableKeys(files['setup.cfg'] ?? '', /^options\.extras_require$/),
  ].filter((name) => testGroupNames.includes(name));
  const isProject = names.some((name) => ['pyproject.toml', 'setup.py', 'setup.cfg'].includes(name));
  if (isProject) lines.push(`uv pip install ${shellQuote(extras.length > 0 ? `.[${extras.join(',')}]` : '.')}`);
  const groups = tableKeys(pyproject, /^dependency-groups$/).filter((name) => testGroupNames.includes(name));
  for (const group of groups) lines.push(`uv pip install --group ${shellQuote(group)}`);
  lines.push('uv pip install pytest');
  return lines;
}
