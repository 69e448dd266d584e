// Each model call as a span, a child of the activity that makes it (coder, reviewer, judge): provider, model,
// role and tokens as attributes, never the prompt, the reply or a key. A no-op while tracing is off.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import path from 'node:path';
import type { ModelProvider } from './types.js';

const tracer = trace.getTracer('taskloop');

/** Wraps the provider's `complete` in place (it keeps the provider's other members, such as a script's position). */
export function traceModelCalls<P extends ModelProvider>(provider: P): P {
  const colon = provider.spec.indexOf(':');
  const system = provider.spec.slice(0, colon);
  const rest = provider.spec.slice(colon + 1);
  // A scripted model's spec is a file path: its name is enough to tell scripts apart.
  const model = system === 'scripted' ? path.basename(rest) : rest;
  const complete = provider.complete.bind(provider);
  provider.complete = (request) =>
    tracer.startActiveSpan(
      `chat ${model}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.system': system,
          'gen_ai.request.model': model,
          'taskloop.role': request.role,
          'taskloop.tools': request.tools.length,
        },
      },
      async (span) => {
        try {
          const turn = await complete(request);
          span.setAttributes({
            'gen_ai.usage.input_tokens': turn.usage?.inputTokens ?? 0,
            'gen_ai.usage.output_tokens': turn.usage?.outputTokens ?? 0,
            'taskloop.tool_calls': turn.toolCalls.length,
          });
          return turn;
        } catch (error) {
          // The error's name only: a provider's message may quote the request.
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  return provider;
}
