// Finds argv[0] on a PATH the way execvp does, so a missing test command is reported before anything starts.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export type ProgramLookup = { found: true } | { found: false; error: 'ENOENT' | 'EACCES' };

export function findProgram(program: string, pathValue: string, cwd: string): ProgramLookup {
  const candidates = program.includes('/')
    ? [path.resolve(cwd, program)]
    : pathValue
        .split(':')
        .filter(Boolean)
        .map((dir) => path.join(dir, program));
  let sawFile = false;
  for (const file of candidates) {
    try {
      if (!statSync(file).isFile()) continue;
      sawFile = true;
      accessSync(file, constants.X_OK);
      return { found: true };
    } catch {
      // Not here, or not executable.
    }
  }
  return { found: false, error: sawFile ? 'EACCES' : 'ENOENT' };
}
