// The worker's logging settings from the environment, checked before anything starts: a typo in a level or
// format is refused with the allowed values rather than silently ignored.

import { resolveSecretValues } from '../activities/secret-values.js';

export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export const LOG_FORMATS = ['text', 'json'] as const;

export type LogLevelName = (typeof LOG_LEVELS)[number];
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LogSettings {
  /** What taskloop's own workflows and activities log at (default INFO: one line per phase change). */
  level: LogLevelName;
  /** The SDK's internal lines (bundler statistics, poller states): WARN unless a level is asked for. */
  sdkLevel: LogLevelName;
  format: LogFormat;
  /** The worker's secret values (variables whose names look secret), scrubbed from every line. */
  secretValues?: string[];
}

export type LogSettingsResult = { success: true; data: LogSettings } | { success: false; error: string };

export function parseLogSettings(env: NodeJS.ProcessEnv): LogSettingsResult {
  const levelText = env.TASKLOOP_LOG_LEVEL?.trim();
  const level = levelText ? levelText.toUpperCase() : 'INFO';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    return {
      success: false,
      error: `TASKLOOP_LOG_LEVEL=${JSON.stringify(levelText)} is not a log level; use one of ${LOG_LEVELS.join(', ')}`,
    };
  }
  const formatText = env.TASKLOOP_LOG_FORMAT?.trim();
  const format = formatText ? formatText.toLowerCase() : 'text';
  if (!(LOG_FORMATS as readonly string[]).includes(format)) {
    return {
      success: false,
      error: `TASKLOOP_LOG_FORMAT=${JSON.stringify(formatText)} is not a log format; use one of ${LOG_FORMATS.join(', ')}`,
    };
  }
  return {
    success: true,
    data: {
      level: level as LogLevelName,
      sdkLevel: levelText ? (level as LogLevelName) : 'WARN',
      format: format as LogFormat,
      secretValues: resolveSecretValues([], env),
    },
  };
}
