/**
 * @module agentctx/mcp
 * Tools from MCP servers (stdio and Streamable HTTP) for agents, on the official TypeScript SDK.
 */
export { McpError } from '../contracts/errors/mcp-error.js';
export { mcpToolset } from './mcp-toolset.js';
export type { McpToolInfo, McpToolset, McpToolsetOptions } from './mcp-toolset.js';
export type { McpToolsetSettings } from '../contracts/mcp.js';
export type { McpHttpServer, McpServer, McpStdioServer } from './mcp-server.js';
