import { describe, expect, it } from 'vitest';
import { parseMetricsAddress, telemetryOptions } from '../../../workers/telemetry.js';

describe('the metrics endpoint setting', () => {
  it('accepts host:port forms', () => {
    expect(parseMetricsAddress('127.0.0.1:9464')).toEqual({ success: true, data: '127.0.0.1:9464' });
    expect(parseMetricsAddress('[::1]:9464')).toEqual({ success: true, data: '[::1]:9464' });
  });

  it('refuses a value without a port, with an example', () => {
    expect(parseMetricsAddress('9464')).toMatchObject({
      success: false,
      error: expect.stringContaining('like 127.0.0.1:9464'),
    });
    expect(parseMetricsAddress('h:70000').success).toBe(false);
  });

  it('serves Prometheus only when asked', () => {
    expect(telemetryOptions(undefined)).toBeUndefined();
    expect(telemetryOptions('0.0.0.0:9464')?.metrics).toMatchObject({
      prometheus: { bindAddress: '0.0.0.0:9464', countersTotalSuffix: true },
    });
  });
});
