// The `taskloop` command: dispatches to one module per command. The only place that exits the process.
import { exitCodeFor, UsageError } from './cli-errors.js';
import { commands } from './commands/index.js';

const usage = `taskloop: a durable orchestrator on Temporal for the coding loop claim -> worktree -> code -> test -> review -> judge -> commit

Usage: taskloop <command> [flags]   (taskloop <command> --help for its flags)

Commands:
${Object.entries(commands)
  .map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
  .join('\n')}

Connection: TEMPORAL_ADDRESS (default 127.0.0.1:7233), TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS*, TEMPORAL_PROFILE.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) throw new UsageError(`taskloop: unknown command ${JSON.stringify(name)}; run taskloop --help for the list`);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.help);
    return 0;
  }
  return command.run(rest);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(`taskloop: ${(error as Error).message ?? String(error)}`.replace(/^taskloop: taskloop/, 'taskloop'));
  process.exitCode = exitCodeFor(error);
}
