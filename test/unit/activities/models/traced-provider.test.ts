import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceModelCalls } from '../../../../activities/models/traced-provider.js';
import { ModelProblem, type CompletionRequest, type ModelProvider } from '../../../../activities/models/types.js';
import { startTracing, type Tracing } from '../../../../platform/tracing.js';

const request: CompletionRequest = {
  role: 'reviewer',
  messages: [{ role: 'user', content: 'the planted prompt text' }],
  tools: [],
};

describe('model calls as spans', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing | undefined;
  beforeAll(async () => {
    tracing = await startTracing({ serviceName: 'test', spanProcessor: new SimpleSpanProcessor(exporter) });
  });
  afterAll(async () => {
    await tracing?.shutdown();
  });

  it('records provider, model, role and tokens under the active span, and never the prompt or reply', async () => {
    const provider = traceModelCalls({
      spec: 'openai:gpt-4o-mini',
      complete: async () => ({
        content: 'the planted reply',
        toolCalls: [],
        usage: { inputTokens: 12, outputTokens: 3 },
      }),
      consumed: () => 7,
    } as ModelProvider & { consumed: () => number });
    await trace.getTracer('test').startActiveSpan('review', async (parent) => {
      await provider.complete(request);
      parent.end();
    });
    const [call, parent] = exporter.getFinishedSpans();
    expect(call?.name).toBe('chat gpt-4o-mini');
    expect(call?.parentSpanId).toBe(parent?.spanContext().spanId);
    expect(call?.attributes).toMatchObject({
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
      'taskloop.role': 'reviewer',
    });
    expect(JSON.stringify(call?.attributes)).not.toMatch(/planted/);
    // The provider's other members stay.
    expect(provider.consumed()).toBe(7);
  });

  it('marks a failed call with the error kind only, and rethrows it', async () => {
    exporter.reset();
    const provider = traceModelCalls({
      spec: 'scripted:/tmp/some/turns.json',
      complete: () => Promise.reject(new ModelProblem('the reply quoted the planted prompt text')),
    } as ModelProvider);
    await expect(provider.complete(request)).rejects.toThrow(ModelProblem);
    const [call] = exporter.getFinishedSpans();
    expect(call?.name).toBe('chat turns.json');
    expect(call?.status).toMatchObject({ code: 2, message: 'ModelProblem' });
  });
});
