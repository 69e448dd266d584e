// Makes the demo's real Python project: a fresh git repository copied from examples/calc (code and tests only).
import { execa } from 'execa';
import { cp, mkdir, rename, symlink } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../../platform/paths.js';

export const exampleDir = path.join(projectRoot, 'examples', 'calc');
const projectFiles = ['calc.py', 'stats.py', 'tests'];

export async function prepareDemoRepo(parent: string): Promise<string> {
  const repo = path.join(parent, 'calc');
  await mkdir(repo, { recursive: true });
  for (const entry of projectFiles) await cp(path.join(exampleDir, entry), path.join(repo, entry), { recursive: true });
  const git = (...args: string[]) => execa('git', args, { cwd: repo });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git(
    '-c',
    'user.name=taskloop demo',
    '-c',
    'user.email=demo@taskloop.local',
    'commit',
    '-q',
    '-m',
    'The calculator, with bugs',
  );
  await linkLatest(parent);
  return repo;
}

/** `latest` beside the run folders names this one, so a first task can name the demo's project the same way each time. */
async function linkLatest(runDir: string): Promise<void> {
  const latest = path.join(path.dirname(runDir), 'latest');
  const next = `${latest}.${process.pid}`;
  await symlink(path.basename(runDir), next);
  // rename over the old link is atomic: a reader finds the previous run or this one, never no link.
  await rename(next, latest);
}
