// The repository's own top-level Python modules, so an import of one of them is not read as a missing package. Two
// folder listings or so, read synchronously as the worker's other small reads (see activities/small-files.ts).
import { readdirSync } from 'node:fs';
import path from 'node:path';

const identifier = /^[A-Za-z_]\w*$/;

/**
 * Names importable from the repository root or its `src/` folder: `name.py` files and folders holding Python files
 * (packages and namespace packages). Sorted; an unreadable folder gives none.
 */
export async function repositoryModules(root: string): Promise<string[]> {
  const names = new Set<string>();
  for (const base of [root, path.join(root, 'src')]) {
    for (const entry of await entries(base)) {
      if (entry.isFile() && entry.name.endsWith('.py')) addIfIdentifier(names, entry.name.slice(0, -3));
      else if (entry.isDirectory() && identifier.test(entry.name) && (await holdsPython(path.join(base, entry.name))))
        names.add(entry.name);
    }
  }
  return [...names].sort();
}

function addIfIdentifier(names: Set<string>, name: string): void {
  if (identifier.test(name)) names.add(name);
}

async function holdsPython(dir: string): Promise<boolean> {
  return (await entries(dir)).some((entry) => entry.isFile() && entry.name.endsWith('.py'));
}

async function entries(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
