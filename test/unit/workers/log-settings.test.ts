import { describe, expect, it } from 'vitest';
import { parseLogSettings } from '../../../workers/log-settings.js';

describe('log settings', () => {
  it('defaults to INFO text for taskloop and WARN for the SDK internals', () => {
    expect(parseLogSettings({})).toEqual({
      success: true,
      data: { level: 'INFO', sdkLevel: 'WARN', format: 'text', secretValues: [] },
    });
  });

  it('applies an asked-for level to both, in any case', () => {
    expect(parseLogSettings({ TASKLOOP_LOG_LEVEL: 'debug', TASKLOOP_LOG_FORMAT: 'JSON' })).toEqual({
      success: true,
      data: { level: 'DEBUG', sdkLevel: 'DEBUG', format: 'json', secretValues: [] },
    });
  });

  it('refuses an unknown level or format, naming the allowed ones', () => {
    expect(parseLogSettings({ TASKLOOP_LOG_LEVEL: 'loud' })).toEqual({
      success: false,
      error: 'TASKLOOP_LOG_LEVEL="loud" is not a log level; use one of TRACE, DEBUG, INFO, WARN, ERROR',
    });
    expect(parseLogSettings({ TASKLOOP_LOG_FORMAT: 'xml' })).toMatchObject({
      success: false,
      error: expect.stringContaining('use one of text, json'),
    });
  });
});
