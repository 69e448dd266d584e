import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { readFlagTable } from '../../../client/args.js';
import { commandFlags } from '../../../client/commands/completion.js';
import { commands } from '../../../client/commands/index.js';
import { runTaskloop } from '../../support/cli.js';
import { bashCompletes } from '../../support/completion.js';

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

  it(
    'offers values where values belong: shells, model specs, runtimes, modes; never file names there',
    { timeout: 120_000 },
    async () => {
      const { stdout: script } = await runTaskloop(['completion', 'bash']);
      expect(await bashCompletes(script, ['taskloop', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
      expect(await bashCompletes(script, ['taskloop', 'run', '--model', ''])).toEqual([
        'local:qwen2.5-coder-1.5b',
        'local:qwen2.5-coder-0.5b',
        'openai:gpt-4o-mini',
        'anthropic:claude-sonnet-4-5',
      ]);
      expect(await bashCompletes(script, ['taskloop', 'run', '--model', 'loc'])).toEqual([
        'local:qwen2.5-coder-1.5b',
        'local:qwen2.5-coder-0.5b',
      ]);
      // eval takes the two baselines too; model install the bundled names and all.
      expect(await bashCompletes(script, ['taskloop', 'eval', 'evals/tiny.yaml', '--model', 'o'])).toEqual([
        'openai:gpt-4o-mini',
        'oracle',
      ]);
      expect(await bashCompletes(script, ['taskloop', 'model', 'install', '--model', ''])).toEqual([
        'qwen2.5-coder-1.5b',
        'qwen2.5-coder-0.5b',
        'all',
      ]);
      expect(await bashCompletes(script, ['taskloop', 'model', 'serve', '--model', ''])).toEqual([
        'qwen2.5-coder-1.5b',
        'qwen2.5-coder-0.5b',
      ]);
      expect(await bashCompletes(script, ['taskloop', 'eval', 's.yaml', '--tests', ''])).toEqual(['hidden', 'shown']);
      expect(await bashCompletes(script, ['taskloop', 'model', 'serve', '--runtime', ''])).toEqual([
        'node-llama-cpp',
        'llama-server',
      ]);
      expect(await bashCompletes(script, ['taskloop', 'run', '--approval', ''])).toEqual(['required', 'none']);
      // No environment built under this run's work folder: auto alone.
      expect(await bashCompletes(script, ['taskloop', 'run', '--environment', ''])).toEqual(['auto']);
      // A value that matches none offers nothing, not the folder's files.
      expect(script).toContain("'--model') COMPREPLY=");
      expect(await bashCompletes(script, ['taskloop', 'run', '--model', 'package'])).toEqual([]);
    },
  );

  it(
    'completes task ids from the server, and nothing (exit 0, no error) when it is down or silent',
    { timeout: 120_000 },
    async () => {
      const { stdout: script } = await runTaskloop(['completion', 'bash']);
      // The run's TEMPORAL_ADDRESS refuses every connection (test/support/run-isolation.ts).
      expect(await bashCompletes(script, ['taskloop', 'status', ''])).toEqual([]);
      const down = await runTaskloop(['completion', 'words', 'tasks']);
      expect({ code: down.exitCode, out: down.stdout, err: down.stderr }).toEqual({ code: 0, out: '', err: '' });
      // A server that takes the connection and never answers: completion gives up after its wait, silently.
      const silent = net.createServer(() => undefined).listen(0, '127.0.0.1');
      await new Promise((resolve) => silent.once('listening', resolve));
      try {
        const address = `127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
        const hung = await runTaskloop(['--address', address, 'completion', 'words', 'tasks'], { timeout: 60_000 });
        expect({ code: hung.exitCode, out: hung.stdout, err: hung.stderr }).toEqual({ code: 0, out: '', err: '' });
      } finally {
        silent.close();
      }
      const bad = await runTaskloop(['completion', 'words', 'models']);
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain('expected one of tasks, environments, got "models"');
    },
  );

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
