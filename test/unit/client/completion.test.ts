import { execa } from 'execa';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTaskloop } from '../../support/cli.js';

/** What bash offers for the words typed so far, with the script the CLI prints sourced. */
async function bashCompletes(script: string, words: string[]): Promise<string[]> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'taskloop-completion-')), 'taskloop.bash');
  await writeFile(file, script);
  const quoted = words.map((word) => `'${word}'`).join(' ');
  const { stdout } = await execa('bash', [
    '-c',
    `source '${file}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _taskloop; printf '%s\\n' "\${COMPREPLY[@]}"`,
  ]);
  return stdout.split('\n').filter(Boolean);
}

describe('taskloop completion', () => {
  it('bash completes commands, and each command flags read from its help', async () => {
    const result = await runTaskloop(['completion', 'bash']);
    expect(result.exitCode, result.all).toBe(0);
    expect(await bashCompletes(result.stdout, ['taskloop', 'sch'])).toEqual(['schedule']);
    expect(await bashCompletes(result.stdout, ['taskloop', 'run', '--max'])).toEqual(['--max-retries', '--max-steps']);
    expect(await bashCompletes(result.stdout, ['taskloop', '--address', 'h:1', 'watch', '--j'])).toEqual(['--json']);
  });

  it('zsh and fish get scripts naming every command', async () => {
    const [zsh, fish] = await Promise.all([runTaskloop(['completion', 'zsh']), runTaskloop(['completion', 'fish'])]);
    expect(zsh.stdout.startsWith('#compdef taskloop')).toBe(true);
    expect(zsh.stdout).toContain("'schedule:start the project");
    expect(fish.stdout).toContain("complete -c taskloop -n '__fish_seen_subcommand_from run' -l allow-dirty");
  });

  it('refuses another shell naming the three it knows (exit 2)', async () => {
    const result = await runTaskloop(['completion', 'tcsh']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('expected one shell, bash, zsh or fish, got "tcsh"');
  });
});
