// OpenTelemetry tracing for one process (the CLI or a worker): on only when the standard OTEL_* variables name an
// OTLP endpoint, exported over OTLP/HTTP. Registered globally so Temporal's interceptors, the activity context and
// taskloop's model-call spans all share one context and propagate it through Temporal headers.
// The SDK is loaded only when tracing starts: with tracing off a command pays nothing for it.
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { packageVersion } from './version.js';

export interface Tracing {
  resource: Resource;
  /** Where every span of this process goes (worker spans, and workflow spans through the exporter sink). */
  spanProcessor: SpanProcessor;
  /** Flushes what is still buffered and stops exporting. */
  shutdown(): Promise<void>;
}

/** The OTLP/HTTP traces URL the standard variables name, or undefined when tracing is off. */
export function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER?.trim() === 'none') return undefined;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

let started: Tracing | undefined;

/**
 * Starts tracing for this process when the environment asks for it (or a span processor is given, as tests do);
 * undefined otherwise, and nothing is registered: Temporal's and taskloop's spans are then no-ops.
 */
export async function startTracing(options: {
  env?: NodeJS.ProcessEnv;
  serviceName: string;
  spanProcessor?: SpanProcessor;
}): Promise<Tracing | undefined> {
  if (started) return started;
  const env = options.env ?? process.env;
  const url = otlpTracesUrl(env);
  if (!url && !options.spanProcessor) return undefined;
  const [{ context, propagation, trace }, { AsyncLocalStorageContextManager }, { OTLPTraceExporter }, resources, sdk] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace-base'),
    ]);
  const { envDetectorSync, Resource } = resources;
  const { BasicTracerProvider, BatchSpanProcessor } = sdk;
  const resource = Resource.default()
    .merge(envDetectorSync.detect())
    .merge(
      new Resource({
        'service.name': env.OTEL_SERVICE_NAME?.trim() || options.serviceName,
        'service.version': packageVersion(),
      }),
    );
  const spanProcessor = options.spanProcessor ?? new BatchSpanProcessor(new OTLPTraceExporter({ url }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register({ contextManager: new AsyncLocalStorageContextManager() });
  started = {
    resource,
    spanProcessor,
    async shutdown() {
      // An unreachable collector costs the spans still buffered, never the command or the worker.
      await provider.shutdown().catch((error: unknown) => {
        process.stderr.write(`taskloop: traces not exported to ${url ?? 'the span processor'}: ${String(error)}\n`);
      });
      trace.disable();
      context.disable();
      propagation.disable();
      started = undefined;
    },
  };
  return started;
}

/** Flushes and stops this process's tracing, if it started (the CLI calls it once before it exits). */
export async function stopTracing(): Promise<void> {
  commandSpan?.end();
  commandSpan = undefined;
  await started?.shutdown();
}

let commandName = 'taskloop';
let commandSpan: import('@opentelemetry/api').Span | undefined;

/** The name of the one span a CLI invocation makes (e.g. `taskloop run`); every traced call is its child. */
export function nameCommandSpan(name: string): void {
  commandName = name;
}

/** The client calls that act on a workflow; reads (describe, query: what waiting commands poll) make no span. */
const tracedCalls = [
  'start',
  'startWithDetails',
  'signal',
  'signalWithStart',
  'startUpdate',
  'startUpdateWithStart',
  'terminate',
  'cancel',
] as const;

/**
 * The CLI's client interceptor: one trace per invocation at most. Each call that acts on a workflow gets its span
 * (and hands it on in the headers, so the workflow joins the trace) under one span of the whole command, started
 * with the first such call and ended by stopTracing; polling reads go untraced.
 */
export async function cliTracingInterceptor() {
  const [{ context, trace }, inner] = await Promise.all([import('@opentelemetry/api'), tracingClientInterceptor()]);
  const underCommand = <T>(call: () => Promise<T>): Promise<T> => {
    commandSpan ??= trace.getTracer('taskloop-cli').startSpan(commandName, {}, context.active());
    return context.with(trace.setSpan(context.active(), commandSpan), call);
  };
  const interceptor: Record<string, unknown> = {};
  for (const name of tracedCalls) {
    const method = (inner as unknown as Record<string, (input: unknown, next: unknown) => Promise<unknown>>)[name];
    if (method)
      interceptor[name] = (input: unknown, next: unknown) => underCommand(() => method.call(inner, input, next));
  }
  return interceptor as import('@temporalio/client').WorkflowClientInterceptor;
}

/** Temporal's client interceptor that starts each workflow inside a span and hands it on in the headers. */
export async function tracingClientInterceptor() {
  const { OpenTelemetryWorkflowClientInterceptor } = await import('@temporalio/interceptors-opentelemetry');
  return new OpenTelemetryWorkflowClientInterceptor();
}
