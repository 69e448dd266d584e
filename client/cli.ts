// The `taskloop` command: dispatches to one module per command. The only place that exits the process.
import { exitCodeFor, UsageError } from './cli-errors.js';
import { commands } from './commands/index.js';
import { takeGlobalFlags } from './global-flags.js';
import { style } from './output/style.js';
import { nameCommandSpan, stopTracing } from '../platform/tracing.js';
import { taskNodes } from '../domain/records.js';
import { closestName } from './did-you-mean.js';

function usage(): string {
  const { bold } = style(process.stdout);
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  return `taskloop: a durable orchestrator on Temporal for the coding loop ${taskNodes.join(' -> ')}

${bold('Usage:')} taskloop [--address H:P] [--namespace NS] <command> [flags]   (taskloop help <command> for its flags)

${bold('Commands:')}
${Object.entries(commands)
  .map(([name, command]) => `  ${name.padEnd(width)} ${command.summary}`)
  .join('\n')}

${bold('Global flags:')}
  --address H:P      the Temporal frontend (overrides TEMPORAL_ADDRESS; default 127.0.0.1:7233)
  --namespace NS     the Temporal namespace (overrides TEMPORAL_NAMESPACE; default default)
  --no-color         plain output (also a non-empty NO_COLOR; FORCE_COLOR=1 colours a pipe too)
  --version          print taskloop's version and commit
  --help, -h         this text

Connection: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS*, TEMPORAL_PROFILE.`;
}

async function main(argv: string[]): Promise<number> {
  const { rest, env } = takeGlobalFlags(argv);
  Object.assign(process.env, env);
  // --no-color wins over FORCE_COLOR as a non-empty NO_COLOR does (bin/taskloop.js): with both set, Node (this
  // process at its first console line, and every Node child) would warn that it ignores NO_COLOR.
  if (env.NO_COLOR) delete process.env.FORCE_COLOR;
  const [name, ...args] = rest;
  if (name === '--version' || name === '-V') {
    const { buildId } = await import('../platform/version.js');
    console.log(`taskloop ${buildId()}`);
    return 0;
  }
  const helpOfHelp = name === 'help' && (args.length === 0 || args[0] === '--help' || args[0] === '-h');
  if (!name || name === '--help' || name === '-h' || helpOfHelp) {
    console.log(usage());
    return name ? 0 : 2;
  }
  const commandName = name === 'help' ? (args[0] as string) : name;
  const entry = commands[commandName];
  if (!entry)
    throw new UsageError(
      `taskloop: unknown command ${JSON.stringify(commandName)}${didYouMean(commandName, Object.keys(commands))}; run taskloop --help for the list`,
    );
  const command = await entry.load();
  nameCommandSpan(`taskloop ${commandName}`);
  if (name === 'help' || args.includes('--help') || args.includes('-h')) {
    console.log(command.help);
    return 0;
  }
  return command.run(args);
}

// An error thrown outside main's promise (a gRPC timer firing on a closed channel) would make Node print the
// throwing line, which in the bundle is a megabyte of minified source: one line instead, and none after main ended.
let settled = false;
process.on('uncaughtException', (error) => {
  if (settled) return;
  console.error(style(process.stderr).red(`taskloop: ${error?.message ?? String(error)}`));
  process.exit(1);
});

// No top-level await: the bin runs this bundled as a CommonJS script (with a V8 code cache, see scripts/build.mjs).
main(process.argv.slice(2))
  .then(
    (code) => {
      settled = true;
      process.exitCode = code;
    },
    (error: unknown) => {
      settled = true;
      const { red } = style(process.stderr);
      console.error(
        red(`taskloop: ${(error as Error).message ?? String(error)}`.replace(/^taskloop: taskloop/, 'taskloop')),
      );
      process.exitCode = exitCodeFor(error);
    },
  )
  // Spans of this command (when OTEL_* turns tracing on) are flushed once, before the process ends.
  .finally(() => stopTracing());

/** `; did you mean status?` for a near miss of a known command, else nothing. */
function didYouMean(typed: string, known: string[]): string {
  const meant = closestName(typed, known);
  return meant ? `; did you mean ${meant}?` : '';
}
