import { describe, expect, it } from 'vitest';
import { otlpTracesUrl, startTracing } from '../../../platform/tracing.js';

describe('tracing from the standard OTEL_* variables', () => {
  it('exports to the traces endpoint, or to /v1/traces under the general one', () => {
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      otlpTracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://tempo:4318/v1/traces',
      }),
    ).toBe('http://tempo:4318/v1/traces');
  });

  it('is off without an endpoint, or when the SDK or the traces exporter is turned off', async () => {
    expect(otlpTracesUrl({})).toBeUndefined();
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(
      otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBeUndefined();
    expect(await startTracing({ env: {}, serviceName: 'test' })).toBeUndefined();
  });
});
