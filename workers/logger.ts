// The worker's logger: one line per entry, as text or as a JSON object (workflowId, taskId, attempt, node and
// the rest of the entry's metadata), with lines marked `oncePerWorker` printed only the first time. Every line
// passes through the one scrubber with the worker's secret values.
import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';
import { scrubSecrets, scrubText } from '../domain/secrets.js';
import { LOG_LEVELS, type LogSettings } from './log-settings.js';

/** The host queue serves activities only; the banner says so, so the SDK's alarm about it is noise. */
const expectedWarnings = new Set(['No workflows registered, not polling for workflow tasks']);

const severity = (level: LogLevel) => LOG_LEVELS.indexOf(level);

export class LineLogger implements Logger {
  private readonly onceSeen = new Set<string>();

  constructor(
    private readonly settings: LogSettings,
    private readonly write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
    private readonly now: () => Date = () => new Date(),
  ) {}

  log(level: LogLevel, message: string, meta: LogMetadata = {}): void {
    const ownLine =
      meta.sdkComponent === 'workflow' || meta.sdkComponent === 'activity' || meta.sdkComponent === undefined;
    if (severity(level) < severity(ownLine ? this.settings.level : this.settings.sdkLevel)) return;
    if (expectedWarnings.has(message)) return;
    const { oncePerWorker, ...rest } = meta as LogMetadata & { oncePerWorker?: string };
    if (oncePerWorker !== undefined) {
      if (this.onceSeen.has(oncePerWorker)) return;
      this.onceSeen.add(oncePerWorker);
    }
    const secrets = this.settings.secretValues ?? [];
    const fields = scrubSecrets(JSON.parse(JSON.stringify(rest, jsonSafe)) as LogMetadata, secrets);
    this.write(formatLogLine(this.settings.format, this.now(), level, scrubText(message, secrets), fields));
  }

  trace = (message: string, meta?: LogMetadata) => this.log('TRACE', message, meta);
  debug = (message: string, meta?: LogMetadata) => this.log('DEBUG', message, meta);
  info = (message: string, meta?: LogMetadata) => this.log('INFO', message, meta);
  warn = (message: string, meta?: LogMetadata) => this.log('WARN', message, meta);
  error = (message: string, meta?: LogMetadata) => this.log('ERROR', message, meta);
}

export function formatLogLine(
  format: LogSettings['format'],
  time: Date,
  level: LogLevel,
  message: string,
  meta: LogMetadata,
): string {
  const fields = renameActivityAttempt(meta);
  if (format === 'json') return JSON.stringify({ time: time.toISOString(), level, message, ...fields }, jsonSafe);
  const shown = ['taskId', 'attempt', 'node', 'workflowId', 'activityType']
    .filter((key) => fields[key] !== undefined)
    .map((key) => `${key}=${String(fields[key])}`);
  const extra = Object.entries(fields).filter(
    ([key]) => !textOmitted.has(key) && !shown.some((item) => item.startsWith(`${key}=`)),
  );
  const tail = extra.length > 0 ? ` ${JSON.stringify(Object.fromEntries(extra), jsonSafe)}` : '';
  return `${time.toISOString()} [${level}] ${message}${shown.length > 0 ? ` (${shown.join(' ')})` : ''}${tail}`;
}

// Context the SDK adds to every workflow and activity line; text shows the ids above and leaves these out.
const textOmitted = new Set([
  'sdkComponent',
  'runId',
  'namespace',
  'taskQueue',
  'workflowType',
  'activityId',
  'activityAttempt',
  'isLocal',
  'taskToken',
]);

/** An activity's own `attempt` (its retry count) is not the task's attempt: it gets its own name. */
function renameActivityAttempt(meta: LogMetadata): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...meta };
  if (meta.sdkComponent === 'activity' && 'attempt' in meta) {
    fields.activityAttempt = meta.attempt;
    delete fields.attempt;
  }
  delete fields.taskToken;
  return fields;
}

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return value.message;
  return value;
}
