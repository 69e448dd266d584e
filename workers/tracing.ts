// The worker's half of tracing: Temporal's OpenTelemetry interceptors (workflow spans through the exporter sink,
// activity spans from the propagated headers), and each activity span named by the node of the task it runs.
import { trace } from '@opentelemetry/api';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInboundCallsInterceptor, WorkerOptions } from '@temporalio/worker';
import type { Context as ActivityContext } from '@temporalio/activity';
import { createRequire } from 'node:module';
import type { Tracing } from '../platform/tracing.js';

const require = createRequire(import.meta.url);

/** The workflow interceptors module: it must be in the workflow bundle (bundleWorkflowCode's workflowInterceptorModules). */
export const tracingWorkflowModule = () =>
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** Activity type → the node of the task loop it is (DESIGN.md: claim, code, test, review, judge, commit). */
const nodeOfActivity: Record<string, string> = {
  claimWorktree: 'claim',
  runCoder: 'code',
  runTests: 'test',
  reviewChanges: 'review',
  judgeChange: 'judge',
  askJudgeModel: 'judge',
  commitWorktree: 'commit',
  removeWorktree: 'cleanup',
};

/** Renames the active `RunActivity:<type>` span to its node, keeping the type as an attribute. */
class NodeSpanInterceptor implements ActivityInboundCallsInterceptor {
  constructor(private readonly ctx: ActivityContext) {}

  execute: ActivityInboundCallsInterceptor['execute'] = (input, next) => {
    const { activityType, workflowExecution } = this.ctx.info;
    const span = trace.getActiveSpan();
    span?.setAttributes({
      'temporal.activity.type': activityType,
      'temporal.workflow.id': workflowExecution?.workflowId ?? '',
    });
    const node = nodeOfActivity[activityType];
    if (node) span?.updateName(node).setAttribute('taskloop.node', node);
    return next(input);
  };
}

/** Worker options that trace: interceptors and the sink workflow spans leave the sandbox through. */
export function workerTracingOptions(
  tracing: Tracing,
  { bundled }: { bundled: boolean },
): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  return {
    interceptors: {
      // The activities' own client (Context.current().client): what it sends a workflow, such as a failure's report to
      // the learning workflow, carries the activity's span, so it stays in the task's trace.
      client: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] },
      // A prebuilt bundle already holds the module (the worker would only warn that it ignores it).
      workflowModules: bundled ? [] : [tracingWorkflowModule()],
      // The OpenTelemetry interceptor comes first, so the node interceptor runs inside its span.
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
        (ctx) => ({ inbound: new NodeSpanInterceptor(ctx) }),
      ],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
