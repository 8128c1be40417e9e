// agentctx/web: the web inspector (a Hono app over a session store) and the function that serves it.
export { createInspectorApp } from './inspector-app.js';
export type { InspectorOptions } from './inspector-app.js';
export { serveInspector } from './serve-inspector.js';
export type { ServedInspector, ServeInspectorOptions } from './serve-inspector.js';
export { CONTENT_SECURITY_POLICY } from './security-headers.js';
export type { CallView, MessageView, PartView, SystemBlockView, ToolView } from './call-view.js';
export type { CallDiff, DiffRow, ItemStatus } from './call-diff.js';
export type { ChartCall, ChartCompaction, SessionChart } from './session-chart.js';
export type { FoundPlace, SessionFind } from './find-in-session.js';
export type { InvocationView, TimelineItem } from './session-timeline.js';
