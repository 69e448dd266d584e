// Runs the bash completion script the CLI prints, as bash would while the user presses TAB.
import { execa } from 'execa';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { taskloopBin } from './cli.js';

/**
 * What bash offers for the words typed so far, with the script the CLI prints sourced and `taskloop` on the PATH (the
 * script runs it to look up task ids and environments).
 */
export async function bashCompletes(script: string, words: string[], env?: NodeJS.ProcessEnv): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-completion-'));
  const file = path.join(dir, 'taskloop.bash');
  await writeFile(file, script);
  await writeFile(path.join(dir, 'taskloop'), `#!/bin/sh\nexec node '${taskloopBin}' "$@"\n`, { mode: 0o755 });
  const quoted = words.map((word) => `'${word}'`).join(' ');
  const { stdout } = await execa(
    'bash',
    [
      '-c',
      `source '${file}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _taskloop; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { env: { ...(env ?? process.env), PATH: `${dir}:${process.env.PATH ?? ''}` } },
  );
  return stdout.split('\n').filter(Boolean);
}
