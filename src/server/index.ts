/**
 * @module agentctx/server
 * The HTTP API on `node:http`: sessions, turns streamed as server-sent events, recorded model calls. Stateless
 * between requests, so several processes can serve one database. `createAdkServer` speaks Google ADK's API server
 * protocol instead, for ADK's dev UI and clients (docs/adk-compatibility.md).
 */
export { createServer } from './create-server.js';
export { createAdkServer } from './adk/create-adk-server.js';
export type { AdkServerOptions } from './adk/create-adk-server.js';
export type { HostSettings } from './http-host.js';
export type { AgentctxServer, ServerAddress, ServerOptions } from './create-server.js';
export type { ErrorBody } from './http-error.js';
export type { NewSessionDefaults } from './route-context.js';
