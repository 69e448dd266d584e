// `taskloop completion bash|zsh|fish`: a script that completes command names and each command's flags, generated
// from the command index and each command's help, so it never lags behind them.
import { UsageError } from '../cli-errors.js';
import type { Command } from './command.js';
import { commands } from './index.js';

const help = `Usage: taskloop completion bash|zsh|fish

Prints a shell completion script for taskloop's commands and their flags. Install it:
  bash   taskloop completion bash > ~/.local/share/bash-completion/completions/taskloop
  zsh    taskloop completion zsh > "\${fpath[1]}/_taskloop"    (then: autoload -U compinit && compinit)
  fish   taskloop completion fish > ~/.config/fish/completions/taskloop.fish

Exit codes: 0 printed, 2 an unknown shell.`;

const globalFlags = ['--address', '--namespace', '--no-color', '--version', '--help'];

/** Each command's flags, read from its help text (every flag a command takes is documented there). */
export async function commandFlags(): Promise<Record<string, string[]>> {
  const entries = await Promise.all(
    Object.entries(commands).map(async ([name, entry]) => {
      if (name === 'completion') return [name, []] as const;
      const text = (await entry.load()).help;
      const flags = [...new Set(text.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? [])].sort();
      return [name, flags] as const;
    }),
  );
  return Object.fromEntries(entries);
}

export function bashScript(flags: Record<string, string[]>): string {
  const cases = Object.entries(flags)
    .map(([name, list]) => `    ${name}) opts="${[...list, '--help'].join(' ')}" ;;`)
    .join('\n');
  return `# taskloop completion for bash
_taskloop() {
  local cur cmd i opts
  cur="\${COMP_WORDS[COMP_CWORD]}"
  cmd=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      --address|--namespace) ((i++)) ;;
      -*) ;;
      *) cmd="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  if [[ -z "$cmd" ]]; then
    COMPREPLY=($(compgen -W "${Object.keys(flags).join(' ')} help ${globalFlags.join(' ')}" -- "$cur"))
    return
  fi
  case "$cmd" in
${cases}
    *) opts="" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts ${globalFlags.join(' ')}" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o default -F _taskloop taskloop
`;
}

export function zshScript(flags: Record<string, string[]>): string {
  const cases = Object.entries(flags)
    .map(
      ([name, list]) =>
        `    ${name}) _arguments '*:file:_files' ${[...list, '--help'].map((flag) => `'${flag}'`).join(' ')} ;;`,
    )
    .join('\n');
  return `#compdef taskloop
# taskloop completion for zsh
_taskloop() {
  local -a cmds
  cmds=(${Object.entries(commands)
    .map(([name, entry]) => `'${name}:${entry.summary.replace(/'/g, '')}'`)
    .join(' ')})
  if (( CURRENT == 2 )); then
    _describe 'command' cmds
    return
  fi
  case "\${words[2]}" in
${cases}
  esac
}
compdef _taskloop taskloop
`;
}

export function fishScript(flags: Record<string, string[]>): string {
  const lines = ['# taskloop completion for fish', 'complete -c taskloop -f'];
  for (const [name, entry] of Object.entries(commands))
    lines.push(`complete -c taskloop -n __fish_use_subcommand -a ${name} -d '${entry.summary.replace(/'/g, '')}'`);
  for (const [name, list] of Object.entries(flags))
    for (const flag of list)
      lines.push(`complete -c taskloop -n '__fish_seen_subcommand_from ${name}' -l ${flag.slice(2)} -r -F`);
  for (const flag of globalFlags) lines.push(`complete -c taskloop -l ${flag.slice(2)}`);
  return `${lines.join('\n')}\n`;
}

export const completionCommand: Command = {
  summary: 'print a shell completion script (bash, zsh or fish)',
  help,
  async run(argv) {
    const [shell, ...rest] = argv;
    const scripts = { bash: bashScript, zsh: zshScript, fish: fishScript };
    if (!shell || rest.length > 0 || !(shell in scripts))
      throw new UsageError(
        `taskloop completion: expected one shell, bash, zsh or fish, got ${JSON.stringify(argv.join(' ') || 'nothing')}; e.g. taskloop completion bash`,
      );
    process.stdout.write(scripts[shell as keyof typeof scripts](await commandFlags()));
    return 0;
  },
};
