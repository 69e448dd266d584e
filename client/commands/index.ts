// Every command by name, with its one-line summary and a loader: a command's module (and the Temporal SDK it
// pulls in) is imported only when that command runs, so `taskloop --help` and friends start fast.
import type { Command } from './command.js';

export interface CommandEntry {
  summary: string;
  load(): Promise<Command>;
}

export const commands: Record<string, CommandEntry> = {
  demo: {
    summary: 'run five real tasks on a real Python project, live, on the local dev server',
    load: async () => (await import('./demo.js')).demoCommand,
  },
  server: {
    summary: 'start the local Temporal dev server (Web UI on :8233)',
    load: async () => (await import('./server.js')).serverCommand,
  },
  worker: {
    summary: 'run a worker that serves tasks (graceful on SIGINT/SIGTERM)',
    load: async () => (await import('./worker.js')).workerCommand,
  },
  run: {
    summary: 'start one task on a repository (--wait to wait for its outcome)',
    load: async () => (await import('./run.js')).runCommand,
  },
  status: {
    summary: 'show what a task or project is doing, or how it ended',
    load: async () => (await import('./status.js')).statusCommand,
  },
  pause: {
    summary: 'pause a task before its next node, or a whole project',
    load: async () => (await import('./pause.js')).pauseCommand,
  },
  resume: { summary: 'resume a paused task or project', load: async () => (await import('./resume.js')).resumeCommand },
  cancel: {
    summary: 'cancel a task or a project (nothing is committed)',
    load: async () => (await import('./cancel.js')).cancelCommand,
  },
  retry: {
    summary: 'retry a failed task (or the failed tasks of a project), optionally with a hint',
    load: async () => (await import('./retry.js')).retryCommand,
  },
  review: {
    summary: 'go through the changes that await approval: diff, tests, verdicts; approve, request changes or reject',
    load: async () => (await import('./review.js')).reviewCommand,
  },
  approve: {
    summary: 'approve a change that awaits approval',
    load: async () => (await import('./answer.js')).approveCommand,
  },
  'request-changes': {
    summary: 'ask for changes to a change that awaits approval (a new round, told your comment)',
    load: async () => (await import('./answer.js')).requestChangesCommand,
  },
  reject: {
    summary: 'reject a change that awaits approval (FAILED, the branch kept)',
    load: async () => (await import('./answer.js')).rejectCommand,
  },
  schedule: {
    summary: 'start the project of a tasks file (or a Temporal Schedule of it with --every)',
    load: async () => (await import('./schedule.js')).scheduleCommand,
  },
  list: {
    summary: 'list task and project workflows (filter by status, project, failure class)',
    load: async () => (await import('./list.js')).listCommand,
  },
  watch: {
    summary: 'follow a task or a project live until it ends',
    load: async () => (await import('./watch.js')).watchCommand,
  },
  clean: {
    summary: 'remove empty taskloop branches, old artifacts and idle learning workflows',
    load: async () => (await import('./clean.js')).cleanCommand,
  },
  model: {
    summary: 'install (and cache) or serve the local model: node-llama-cpp or llama.cpp with Qwen2.5-Coder Instruct',
    load: async () => (await import('./model.js')).modelCommand,
  },
  env: {
    summary: "build, list or remove repositories' environments in this machine's cache",
    load: async () => (await import('./env.js')).envCommand,
  },
  ui: {
    summary: "print the Web UI address of taskloop's workflows, with the columns to show",
    load: async () => (await import('./ui.js')).uiCommand,
  },
  eval: {
    summary: 'measure the loop on a suite of real bug fixes per model, agent and learning; --promote crowns a champion',
    load: async () => (await import('./eval.js')).evalCommand,
  },
  'codec-server': {
    summary: "decode payloads for the Web UI and the temporal CLI with this host's payload keys",
    load: async () => (await import('./codec-server.js')).codecServerCommand,
  },
  completion: {
    summary: 'print a shell completion script (bash, zsh or fish)',
    load: async () => (await import('./completion.js')).completionCommand,
  },
  show: {
    summary: 'show what the model did in a task or eval: turns, tool calls, diffs, verdicts (text, JSON or HTML)',
    load: async () => (await import('./show.js')).showCommand,
  },
  report: {
    summary: "print a project's report (table, --json or --markdown)",
    load: async () => (await import('./report.js')).reportCommand,
  },
};
