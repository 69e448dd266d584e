// `taskloop completion bash|zsh|fish`: a script that completes command names, subcommands, each command's flags, the
// values of flags that take one of a list (client/completion/values.ts), task ids and built environments (looked up
// while completing, bounded in time). Flags come from the option tables the commands parse with (args.ts
// readFlagTable), never from help prose, so a command added or changed is completed as it parses, and nothing it
// refuses is offered.
import { readFlagTable } from '../args.js';
import { UsageError } from '../cli-errors.js';
import { lookUpWords, TASK_IDS_WAIT_MS } from '../completion/looked-up.js';
import { flagValues, lookedUpFlags, lookedUpKinds, taskIdCommands, type LookedUpKind } from '../completion/values.js';
import type { Command } from './command.js';
import { commands } from './index.js';

const help = `Usage: taskloop completion bash|zsh|fish
       taskloop completion words tasks|environments

Prints a shell completion script for taskloop's commands, their subcommands and flags (from the option tables the
commands parse with), the values of flags that take one of a list (--status, --class, --model, --runtime,
--approval, --tests, --sandbox, ...), the task ids of status, show, retry and the other commands that take one (asked
of the server, nothing after ${TASK_IDS_WAIT_MS / 1000} s or when it is down) and, after --environment, auto and the environments
built on this machine. \`completion words\` prints those looked-up words, one a line; the scripts call it. Install it:
  bash   taskloop completion bash > ~/.local/share/bash-completion/completions/taskloop
  zsh    taskloop completion zsh > "\${fpath[1]}/_taskloop"    (then: autoload -U compinit && compinit)
  fish   taskloop completion fish > ~/.config/fish/completions/taskloop.fish

Exit codes: 0 printed, 2 an unknown shell.`;

const globalFlags = ['--address', '--namespace', '--no-color', '--version', '--help'];

/** The values of `flag` after the command (or subcommand) `key`: its own list first, else the flag's. */
export function valuesFor(key: string, flag: string): readonly string[] | undefined {
  return flagValues[`${key} ${flag}`] ?? flagValues[`${commandOf(key)} ${flag}`] ?? flagValues[flag];
}

/** The value lists, split by how specific their key is: `cmd sub --flag`, `cmd --flag`, `--flag`. */
const valueKeys = (words: number) =>
  Object.keys(flagValues).filter((key) => key.includes('--') && key.split(' ').length === words);

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

/** Where values belong, no file names when none matches (complete's -o default would offer them). */
const noFiles = 'compopt +o default 2>/dev/null';

/** The bash `case` arms that offer a flag's values, most specific key first; looked-up ones call _taskloop_words. */
function bashValueCases(): string {
  const arm = (pattern: string, list: readonly string[]) =>
    `    '${pattern}') COMPREPLY=($(compgen -W "${list.join(' ')}" -- "$cur")); ${noFiles}; return ;;`;
  const cases = (subject: string, keys: string[]) =>
    `  case "${subject}" in\n${keys.map((key) => arm(key, flagValues[key] ?? [])).join('\n')}\n  esac`;
  const lookedUp = Object.entries(lookedUpFlags).map(
    ([flag, { fixed, kind }]) =>
      `    ${flag}) COMPREPLY=($(compgen -W "${fixed.join(' ')} $(_taskloop_words ${kind})" -- "$cur")); ${noFiles}; return ;;`,
  );
  return [
    cases('$cmd $sub $prev', valueKeys(3)),
    cases('$cmd $prev', valueKeys(2)),
    `  case "$prev" in\n${[...valueKeys(1).map((key) => arm(key, flagValues[key] ?? [])), ...lookedUp].join('\n')}\n  esac`,
  ].join('\n');
}

/** What bash offers for a command's first word: its subcommands, a list of values, task ids, or file names. */
function bashFirstWords(flags: Record<string, string[]>): string {
  const subs = Object.entries(subcommands(flags)).map(
    ([name, list]) =>
      `      ${name}) COMPREPLY=($(compgen -W "${list.join(' ')}" -- "$cur") $(compgen -f -- "$cur")) ;;`,
  );
  const positional = Object.keys(flagValues)
    .filter((key) => !key.includes('--'))
    .map(
      (key) =>
        `      ${key}) COMPREPLY=($(compgen -W "${(flagValues[key] ?? []).join(' ')}" -- "$cur")); ${noFiles} ;;`,
    );
  return [
    ...subs,
    ...positional,
    `      ${taskIdCommands.join('|')}) COMPREPLY=($(compgen -W "$(_taskloop_words tasks)" -- "$cur")); ${noFiles} ;;`,
    `      *) COMPREPLY=($(compgen -f -- "$cur")) ;;`,
  ].join('\n');
}

export function bashScript(flags: Record<string, string[]>): string {
  const keys = Object.keys(flags);
  // The global flags (--help among them) are offered after every command anyway.
  const own = (key: string) => (flags[key] ?? []).filter((flag) => !globalFlags.includes(flag));
  const optsCase = (list: string[]) => list.map((key) => `      '${key}') opts="${own(key).join(' ')}" ;;`).join('\n');
  return `# taskloop completion for bash (generated from the commands' option tables)
# Task ids and environments are looked up while completing: at most ${TASK_IDS_WAIT_MS / 1000} s, nothing when the server is down.
_taskloop_words() {
  local -a target=()
  [[ -n "$addr" ]] && target+=(--address "$addr")
  [[ -n "$ns" ]] && target+=(--namespace "$ns")
  if command -v timeout >/dev/null 2>&1; then
    timeout 5 taskloop "\${target[@]}" completion words "$1" 2>/dev/null
  else
    taskloop "\${target[@]}" completion words "$1" 2>/dev/null
  fi
}
_taskloop() {
  local cur prev cmd sub i opts addr ns
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd=""
  sub=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      --address) ((i++)); addr="\${COMP_WORDS[i]}" ;;
      --namespace) ((i++)); ns="\${COMP_WORDS[i]}" ;;
      -*) ;;
      *) if [[ -z "$cmd" ]]; then cmd="\${COMP_WORDS[i]}"; elif [[ -z "$sub" ]]; then sub="\${COMP_WORDS[i]}"; fi ;;
    esac
  done
${bashValueCases()}
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
    case "$cmd" in
${bashFirstWords(flags)}
    esac
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o default -F _taskloop taskloop
`;
}

/** zsh's words of one looked-up kind, for a compadd action. */
const zshWords = (kind: LookedUpKind) => `\${(f)"$(taskloop completion words ${kind} 2>/dev/null)"}`;

/** One zsh _arguments spec: a flag with a list offers its values (looked-up ones asked for), else it asks for one. */
const zshSpec = (key: string, flag: string) => {
  const lookedUp = lookedUpFlags[flag];
  if (lookedUp) return `'${flag}:${flag.slice(2)}:{compadd -- ${lookedUp.fixed.join(' ')} ${zshWords(lookedUp.kind)}}'`;
  const list = valuesFor(key, flag);
  return list ? `'${flag}:${flag.slice(2)}:(${list.join(' ')})'` : `'${flag}'`;
};

/** zsh's spec of a command's words: a list of values, task ids, or file names. */
const zshWordsSpec = (key: string) => {
  const list = flagValues[key];
  if (list) return `'*:value:(${list.join(' ')})'`;
  if (taskIdCommands.includes(key)) return `'*:id:{compadd -- ${zshWords('tasks')}}'`;
  return "'*:file:_files'";
};

export function zshScript(flags: Record<string, string[]>): string {
  const keys = Object.keys(flags);
  const cases = (list: string[], indent: string) =>
    list
      .map(
        (key) =>
          `${indent}'${key}') _arguments ${zshWordsSpec(key)} ${(flags[key] ?? []).map((flag) => zshSpec(key, flag)).join(' ')} ;;`,
      )
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

/** fish's words of one looked-up kind: a command substitution in -a, run while completing. */
const fishWords = (kind: LookedUpKind) => `(taskloop completion words ${kind} 2>/dev/null)`;

export function fishScript(flags: Record<string, string[]>): string {
  const lines = [
    "# taskloop completion for fish (generated from the commands' option tables)",
    'complete -c taskloop -f',
  ];
  for (const [name, entry] of Object.entries(commands))
    lines.push(`complete -c taskloop -n __fish_use_subcommand -a ${name} -d '${entry.summary.replace(/'/g, '')}'`);
  for (const [name, list] of Object.entries(subcommands(flags)))
    lines.push(`complete -c taskloop -n '__fish_seen_subcommand_from ${name}' -a '${list.join(' ')}'`);
  for (const key of Object.keys(flagValues).filter((key) => !key.includes('--')))
    lines.push(`complete -c taskloop -n '__fish_seen_subcommand_from ${key}' -a '${flagValues[key]?.join(' ')}'`);
  lines.push(
    `complete -c taskloop -n '__fish_seen_subcommand_from ${taskIdCommands.join(' ')}' -a '${fishWords('tasks')}'`,
  );
  for (const [key, list] of Object.entries(flags)) {
    const sub = subOf(key);
    const when = `__fish_seen_subcommand_from ${commandOf(key)}${sub ? `; and __fish_seen_subcommand_from ${sub}` : ''}`;
    for (const flag of list) {
      const lookedUp = lookedUpFlags[flag];
      const values = lookedUp ? [...lookedUp.fixed, fishWords(lookedUp.kind)] : valuesFor(key, flag);
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
    if (shell === 'words') return printWords(rest);
    const scripts = { bash: bashScript, zsh: zshScript, fish: fishScript };
    if (!shell || rest.length > 0 || !(shell in scripts))
      throw new UsageError(
        `taskloop completion: expected one shell, bash, zsh or fish, got ${JSON.stringify(argv.join(' ') || 'nothing')}; e.g. taskloop completion bash`,
      );
    process.stdout.write(scripts[shell as keyof typeof scripts](await commandFlags()));
    return 0;
  },
};

/** `taskloop completion words KIND`: the looked-up words, one a line; nothing (and exit 0) when they cannot be had. */
async function printWords(argv: string[]): Promise<number> {
  const [kind, ...rest] = argv;
  if (!lookedUpKinds.includes(kind as LookedUpKind) || rest.length > 0)
    throw new UsageError(
      `taskloop completion words: expected one of ${lookedUpKinds.join(', ')}, got ${JSON.stringify(argv.join(' ') || 'nothing')}`,
    );
  const words = await lookUpWords(kind as LookedUpKind);
  if (words.length > 0) process.stdout.write(`${words.join('\n')}\n`);
  return 0;
}
