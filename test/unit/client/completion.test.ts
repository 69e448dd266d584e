import { execa } from 'execa';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFlagTable } from '../../../client/args.js';
import { commandFlags } from '../../../client/commands/completion.js';
import { commands } from '../../../client/commands/index.js';
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

  it('offers only the flags a command parses, subcommands, and the values of closed-list flags', async () => {
    const { stdout: script } = await runTaskloop(['completion', 'bash']);
    // retry's help mentions run's --retry-window; retry itself refuses it, so it is not offered.
    expect(await bashCompletes(script, ['taskloop', 'retry', '--'])).toEqual([
      '--hint',
      '--json',
      '--task',
      '--wait',
      '--address',
      '--namespace',
      '--no-color',
      '--version',
      '--help',
    ]);
    expect(await bashCompletes(script, ['taskloop', 'list', '--status', 'F'])).toEqual(['FAILED']);
    expect(await bashCompletes(script, ['taskloop', 'list', '--class', 'code'])).toEqual(['code_defect']);
    expect(await bashCompletes(script, ['taskloop', 'worker', '--sandbox', ''])).toEqual(['bwrap', 'none']);
    expect(await bashCompletes(script, ['taskloop', 'server', 'st'])).toContain('stop');
    expect(await bashCompletes(script, ['taskloop', 'server', 'stop', '--d'])).toEqual(['--db']);
    expect(await bashCompletes(script, ['taskloop', 'model', 'serve', '--'])).toContain('--ctx');
  });

  it('every flag it completes is accepted by the command it completes it for', async () => {
    const table = await commandFlags();
    expect(Object.keys(table)).toEqual(expect.arrayContaining(Object.keys(commands)));
    for (const [key, flags] of Object.entries(table)) {
      const [name, sub] = key.split(' ') as [string, string | undefined];
      const command = await commands[name]!.load();
      for (const flag of flags) {
        const prefix = sub ? [sub] : [];
        const { options } = await readFlagTable(() => command.run([...prefix, '--help']));
        const takesValue = options[flag.slice(2)]?.type === 'string';
        const parsed = await readFlagTable(() => command.run([...prefix, flag, ...(takesValue ? ['x'] : [])]));
        expect(parsed.command, `${key} ${flag}`).toBe(key);
      }
    }
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
