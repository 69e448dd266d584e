import type { Command } from './command.js';
import { demoCommand } from './demo.js';
import { serverCommand } from './server.js';
import { workerCommand } from './worker.js';
import { runCommand } from './run.js';
import { statusCommand } from './status.js';
import { pauseCommand } from './pause.js';
import { resumeCommand } from './resume.js';
import { cancelCommand } from './cancel.js';
import { retryCommand } from './retry.js';
import { scheduleCommand } from './schedule.js';
import { listCommand } from './list.js';
import { watchCommand } from './watch.js';
import { reportCommand } from './report.js';

export const commands: Record<string, Command> = {
  demo: demoCommand,
  server: serverCommand,
  worker: workerCommand,
  run: runCommand,
  status: statusCommand,
  pause: pauseCommand,
  resume: resumeCommand,
  cancel: cancelCommand,
  retry: retryCommand,
  schedule: scheduleCommand,
  list: listCommand,
  watch: watchCommand,
  report: reportCommand,
};
