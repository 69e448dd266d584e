// `taskloop completion bash|zsh|fish`: a script that completes command names, subcommands, each command's flags and
// the values of closed-list flags. Flags come from the option tables the commands parse with (args.ts readFlagTable),
// never from help prose, so a command added or changed is completed as it parses, and nothing it refuses is offered.
import { failureClasses } from '../../domain/failure-class.js';
import { readFlagTable } from '../args.js';
import { UsageError } from '../cli-errors.js';
import { executionStatuses, taskStatuses, workflowTypes } from '../projects/list-query.js';
import type { Command } from './command.js';
import { commands } from './index.js';

const help = `Usage: taskloop completion bash|zsh|fish

Prints a shell completion script for taskloop's commands, their subcommands and flags (from the option tables the
commands parse with), and the values of --status, --class, --execution-status, --type and --sandbox. Install it:
  bash   taskloop completion bash > ~/.local/share/bash-completion/completions/taskloop
  zsh    taskloop completion zsh > "\${fpath[1]}/_taskloop"    (then: autoload -U compinit && compinit)
  fish   taskloop completion fish > ~/.config/fish/completions/taskloop.fish

Exit codes: 0 printed, 2 an unknown shell.`;

const globalFlags = ['--address', '--namespace', '--no-color', '--version', '--help'];

/** The values of flags that take one of a closed list, whichever command has them. */
export const flagValues: Record<string, readonly string[]> = {
  '--status': taskStatuses,
  '--class': failureClasses,
  '--execution-status': executionStatuses,
  '--type': Object.keys(workflowTypes),
  '--sandbox': ['bwrap', 'none'],
};

/** Subcommand words on a command's usage lines (`taskloop server stop`): only those whose flags parse as their own. */
const subcommandWords = (name: string, help: string) =>
  [...help.matchAll(new RegExp(`taskloop ${name} ([a-z][a-z-]*)\\b`, 'g'))].map((match) => match[1] as string);

/** The long flags of one option table, sorted, with --help. */
const flagsOf = (options: Record<string, unknown>) =>
  [...Object.keys(options).map((key) => `--${key}`), '--help'].sort();

/**
 * Each command's flags, keyed `name` or `name sub`, from the option table its parseFlags is given: each command is
 * run only as far as its flags (with --help, which every table accepts).
 */
export async function commandFlags(): Promise<Record<string, string[]>> {
  const table: Record<string, string[]> = {};
  for (const [name, entry] of Object.entries(commands)) {
    if (name === 'completion') {
      table[name] = [];
      continue;
    }
    const command = await entry.load();
    const read = (argv: string[]) => readFlagTable(() => command.run(argv)).catch(() => undefined);
    const own = await read(['--help']);
    if (own?.command === name) table[name] = flagsOf(own.options);
    for (const sub of new Set(subcommandWords(name, command.help))) {
      const found = await read([sub, '--help']);
      if (found?.command === `${name} ${sub}`) table[found.command] = flagsOf(found.options);
    }
    // A command with subcommands only (model) takes no flags of its own; --help is global.
    table[name] ??= [];
  }
  return table;
}

const commandOf = (key: string) => key.split(' ')[0] as string;
const subOf = (key: string) => key.split(' ')[1];

/** The subcommands of each command that has any (`server` → `stop`). */
function subcommands(flags: Record<string, string[]>): Record<string, string[]> {
  const subs: Record<string, string[]> = {};
  for (const key of Object.keys(flags)) {
    const sub = subOf(key);
    if (sub) (subs[commandOf(key)] ??= []).push(sub);
  }
  return subs;
}

export function bashScript(flags: Record<string, string[]>): string {
  const keys = Object.keys(flags);
  // The global flags (--help among them) are offered after every command anyway.
  const own = (key: string) => (flags[key] ?? []).filter((flag) => !globalFlags.includes(flag));
  const optsCase = (list: string[]) => list.map((key) => `      '${key}') opts="${own(key).join(' ')}" ;;`).join('\n');
  const values = Object.entries(flagValues)
    .map(([flag, list]) => `    ${flag}) COMPREPLY=($(compgen -W "${list.join(' ')}" -- "$cur")); return ;;`)
    .join('\n');
  const subs = Object.entries(subcommands(flags))
    .map(([name, list]) => `      ${name}) words="${list.join(' ')}" ;;`)
    .join('\n');
  return `# taskloop completion for bash (generated from the commands' option tables)
_taskloop() {
  local cur prev cmd sub i opts words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd=""
  sub=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      --address|--namespace) ((i++)) ;;
      -*) ;;
      *) if [[ -z "$cmd" ]]; then cmd="\${COMP_WORDS[i]}"; elif [[ -z "$sub" ]]; then sub="\${COMP_WORDS[i]}"; fi ;;
    esac
  done
  case "$prev" in
${values}
  esac
  if [[ -z "$cmd" ]]; then
    COMPREPLY=($(compgen -W "${keys.filter((key) => !subOf(key)).join(' ')} help ${globalFlags.join(' ')}" -- "$cur"))
    return
  fi
  case "$cmd $sub" in
${optsCase(keys.filter((key) => subOf(key)))}
    *)
      case "$cmd" in
${optsCase(keys.filter((key) => !subOf(key)))}
        *) opts="" ;;
      esac ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts ${globalFlags.join(' ')}" -- "$cur"))
  elif [[ -z "$sub" ]]; then
    words=""
    case "$cmd" in
${subs}
    esac
    COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o default -F _taskloop taskloop
`;
}

/** One zsh _arguments spec: a flag with a closed list offers its values, a flag taking a value asks for one. */
const zshSpec = (flag: string) => {
  const list = flagValues[flag];
  return list ? `'${flag}:${flag.slice(2)}:(${list.join(' ')})'` : `'${flag}'`;
};

export function zshScript(flags: Record<string, string[]>): string {
  const keys = Object.keys(flags);
  const cases = (list: string[], indent: string) =>
    list
      .map((key) => `${indent}'${key}') _arguments '*:file:_files' ${(flags[key] ?? []).map(zshSpec).join(' ')} ;;`)
      .join('\n');
  return `#compdef taskloop
# taskloop completion for zsh (generated from the commands' option tables)
_taskloop() {
  local -a cmds
  cmds=(${Object.entries(commands)
    .map(([name, entry]) => `'${name}:${entry.summary.replace(/'/g, '')}'`)
    .join(' ')})
  if (( CURRENT == 2 )); then
    _describe 'command' cmds
    return
  fi
  case "\${words[2]} \${words[3]}" in
${cases(
  keys.filter((key) => subOf(key)),
  '    ',
)}
    *)
      case "\${words[2]}" in
${cases(
  keys.filter((key) => !subOf(key)),
  '        ',
)}
      esac ;;
  esac
}
compdef _taskloop taskloop
`;
}

export function fishScript(flags: Record<string, string[]>): string {
  const lines = [
    "# taskloop completion for fish (generated from the commands' option tables)",
    'complete -c taskloop -f',
  ];
  for (const [name, entry] of Object.entries(commands))
    lines.push(`complete -c taskloop -n __fish_use_subcommand -a ${name} -d '${entry.summary.replace(/'/g, '')}'`);
  for (const [name, list] of Object.entries(subcommands(flags)))
    lines.push(`complete -c taskloop -n '__fish_seen_subcommand_from ${name}' -a '${list.join(' ')}'`);
  for (const [key, list] of Object.entries(flags)) {
    const sub = subOf(key);
    const when = `__fish_seen_subcommand_from ${commandOf(key)}${sub ? `; and __fish_seen_subcommand_from ${sub}` : ''}`;
    for (const flag of list) {
      const values = flagValues[flag];
      lines.push(
        `complete -c taskloop -n '${when}' -l ${flag.slice(2)}${values ? ` -r -f -a '${values.join(' ')}'` : ' -r -F'}`,
      );
    }
  }
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
