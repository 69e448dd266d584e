// What this taskloop is: the package version and, in a git checkout, the commit it runs.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './paths.js';

export function packageVersion(root = projectRoot): string {
  return (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The short commit of the checkout, with `-dirty` when it has uncommitted changes; undefined outside git. */
export function gitCommit(root = projectRoot): string | undefined {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return dirty ? `${sha}-dirty` : sha;
  } catch {
    return undefined;
  }
}

/** `0.1.0+abc123def456`: the package version and the commit, the default build id of a worker. */
export function buildId(root = projectRoot): string {
  const commit = gitCommit(root);
  return commit ? `${packageVersion(root)}+${commit}` : packageVersion(root);
}
