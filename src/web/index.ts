// agentctx/web: the web inspector (a Hono app over a session store) and the function that serves it.
export { createInspectorApp } from './inspector-app.js';
export type { InspectorOptions } from './inspector-app.js';
export type { NamedComparison } from './comparison-routes.js';
export { serveInspector } from './serve-inspector.js';
export type { ServedInspector, ServeInspectorOptions } from './serve-inspector.js';
export { CONTENT_SECURITY_POLICY } from './security-headers.js';
