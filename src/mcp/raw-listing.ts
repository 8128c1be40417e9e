import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * The transport, with each `tools/list` result's tools handed to `keep` as the server sent them, before the SDK parses
 * them. The SDK's parse puts the keys its schema knows first (`type`, `properties`, `required`, then `$defs` and the
 * rest), so a tool's input schema would reach the model in another order than the server wrote it; ADK sends it as it
 * came, and so does agentctx, from what is kept here.
 */
export function keepRawListings(transport: Transport, keep: (tools: readonly unknown[]) => void): Transport {
  let handler: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set(next: Transport['onmessage']) {
      handler =
        next === undefined
          ? undefined
          : (message, extra) => {
              const result = (message as { result?: { tools?: unknown } }).result;
              if (result !== undefined && Array.isArray(result.tools)) keep(result.tools);
              next(message, extra);
            };
    },
  });
  return transport;
}
