// pytest node ids (`tests/test_x.py::TestY::test_z`) rebuilt from JUnit classname/name/file attributes.
import type { JunitCase } from './junit.js';

/** Answers whether a repo-relative file exists, to tell module folders from class names in a dotted classname. */
export type FileExists = (relativePath: string) => boolean;

/**
 * Builds the pytest-like id of a JUnit case: `path/to/test_file.py::Class::name` or `path::name`.
 * pytest's classname is the node id with `/` and `::` turned into dots, so the module part is found by
 * asking which prefix is an existing `.py` file, falling back to "classes start with a capital letter".
 */
export function toCaseId(entry: JunitCase, fileExists: FileExists): string {
  if (entry.file) {
    const file = entry.file.replace(/\\/g, '/');
    const moduleName = file.replace(/\.py$/, '').replace(/\//g, '.');
    const rest = entry.classname.startsWith(`${moduleName}.`) ? entry.classname.slice(moduleName.length + 1) : '';
    return join(file, rest.split('.'), entry.name);
  }
  if (entry.classname === '') {
    // Collection errors: pytest puts the dotted module in `name` and leaves classname empty.
    const { file, rest } = splitModule(entry.name.split('.'), fileExists);
    return rest.length === 0 ? file : entry.name;
  }
  const { file, rest } = splitModule(entry.classname.split('.'), fileExists);
  return join(file, rest, entry.name);
}

function splitModule(segments: string[], fileExists: FileExists): { file: string; rest: string[] } {
  for (let cut = segments.length; cut >= 1; cut -= 1) {
    const file = `${segments.slice(0, cut).join('/')}.py`;
    if (fileExists(file)) return { file, rest: segments.slice(cut) };
  }
  const firstClass = segments.findIndex((segment, index) => index > 0 && /^[A-Z]/.test(segment));
  const cut = firstClass === -1 ? segments.length : firstClass;
  return { file: `${segments.slice(0, cut).join('/')}.py`, rest: segments.slice(cut) };
}

function join(file: string, classes: string[], name: string): string {
  return [file, ...classes.filter((part) => part.length > 0), name].join('::');
}
