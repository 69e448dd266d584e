// The SDK runtime's telemetry: a Prometheus endpoint for the SDK's own metrics and taskloop's (both recorded
// through the SDK's metric meter), when an address is given.
import type { RuntimeOptions } from '@temporalio/worker';

export type MetricsAddressResult = { success: true; data: string } | { success: false; error: string };

/** `host:port` to bind, e.g. 127.0.0.1:9464 or 0.0.0.0:9464. */
export function parseMetricsAddress(text: string): MetricsAddressResult {
  const match = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535) {
    return {
      success: false,
      error: `expected HOST:PORT to serve Prometheus metrics on, like 127.0.0.1:9464 or 0.0.0.0:9464, got ${JSON.stringify(text)}`,
    };
  }
  return { success: true, data: text.trim() };
}

export function telemetryOptions(metricsAddress: string | undefined): RuntimeOptions['telemetryOptions'] {
  if (!metricsAddress) return undefined;
  const address = parseMetricsAddress(metricsAddress);
  if (!address.success) throw new Error(`TASKLOOP_METRICS / --metrics: ${address.error}`);
  return {
    metrics: {
      prometheus: {
        bindAddress: address.data,
        countersTotalSuffix: true,
        useSecondsForDurations: true,
        histogramBucketOverrides: nodeDurationBuckets,
      },
    },
  };
}

/** Nodes take from a second (claim) to many minutes (code, test): buckets in seconds that tell them apart. */
const nodeDurationBuckets = {
  taskloop_node_duration_seconds: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
};
