// Review rules about which files a change touches.
import { isPathAllowed, isTestFile } from '../../domain/paths.js';
import type { Finding } from '../../domain/records.js';

export function checkEmptyDiff(changedFiles: string[]): Finding[] {
  if (changedFiles.length > 0) return [];
  return [
    { rule: 'empty_diff', message: 'the change is empty: the coder left the worktree as it was at the base commit' },
  ];
}

export function checkTestEdits(changedFiles: string[], allowTestEdits: boolean): Finding[] {
  if (allowTestEdits) return [];
  return changedFiles.filter(isTestFile).map((file) => ({
    rule: 'test_file_edited',
    message: `test file ${file} was changed, but this task does not allow test edits: fix the code under test instead`,
    file,
  }));
}

export function checkAllowedPaths(changedFiles: string[], allowedPaths: string[]): Finding[] {
  return changedFiles
    .filter((file) => !isPathAllowed(file, allowedPaths))
    .map((file) => ({
      rule: 'path_not_allowed',
      message: `${file} is outside the task's allowed paths (${allowedPaths.join(', ')}): leave it unchanged`,
      file,
    }));
}
