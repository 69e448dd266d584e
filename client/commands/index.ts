import type { Command } from './command.js';
import { serverCommand } from './server.js';
import { workerCommand } from './worker.js';

export const commands: Record<string, Command> = {
  server: serverCommand,
  worker: workerCommand,
};
