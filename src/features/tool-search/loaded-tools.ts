import type { Event } from '../../contracts/event.js';
import { loadedNames } from '../../engine/tools/deferred-tools.js';

/** How long a search's tools stay loaded: for the rest of the invocation, or the rest of the session. */
export type ToolSearchScope = 'invocation' | 'session';

/** A tool some search loaded: which, and the search that loaded it first. */
export type LoadedTool = {
  readonly name: string;
  /** The event that holds the search's response. */
  readonly eventId: string;
  /** The search call's id, when it had one. */
  readonly callId: string | undefined;
  /** What the model searched for. */
  readonly query: string;
};

/**
 * The tools `searchTool`'s responses loaded for an agent, in the order they were first loaded, each once: read from the
 * session's events (the responses' `loaded` lists), of the current invocation or of the whole session. Nothing is kept
 * anywhere else, so the same events always give the same tools, after a reload too.
 */
export function loadedTools(
  events: readonly Event[],
  options: { agent: string; searchTool: string; scope: ToolSearchScope; invocationId: string },
): LoadedTool[] {
  const loaded = new Map<string, LoadedTool>();
  for (const event of events) {
    if (event.author !== options.agent || event.partial === true) continue;
    if (options.scope === 'invocation' && event.invocationId !== options.invocationId) continue;
    for (const part of event.content?.parts ?? []) {
      if (!('functionResponse' in part) || part.functionResponse.name !== options.searchTool) continue;
      const response = part.functionResponse.response;
      const query = typeof response?.['query'] === 'string' ? response['query'] : '';
      for (const name of loadedNames(response)) {
        if (!loaded.has(name)) loaded.set(name, { name, eventId: event.id, callId: part.functionResponse.id, query });
      }
    }
  }
  return [...loaded.values()];
}
