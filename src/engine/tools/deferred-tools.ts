import type { LlmRequest, ToolDeclaration } from '../../contracts/request.js';

/**
 * The names a loader's function response loads: the strings of its `loaded` list, each once, in order. Anything
 * else in the response (and a `loaded` that is not a list) loads nothing.
 */
export function loadedNames(response: Record<string, unknown> | undefined): string[] {
  const names = response?.['loaded'];
  if (!Array.isArray(names)) return [];
  return [...new Set(names.filter((name): name is string => typeof name === 'string'))];
}

/**
 * The deferred definitions the request's messages load (named by a loader response that is in them), in the order
 * they are first loaded, each once. These are the ones a provider puts in the prompt; the rest stay out of it.
 */
export function referencedDeferredTools(request: Pick<LlmRequest, 'deferredTools' | 'messages'>): ToolDeclaration[] {
  const deferred = request.deferredTools;
  if (deferred === undefined) return [];
  const byName = new Map(deferred.declarations.map((declaration) => [declaration.name, declaration]));
  const found = new Map<string, ToolDeclaration>();
  for (const message of request.messages) {
    for (const part of message.content) {
      if (!('functionResponse' in part) || part.functionResponse.name !== deferred.loader) continue;
      for (const name of loadedNames(part.functionResponse.response)) {
        const declaration = byName.get(name);
        if (declaration !== undefined && !found.has(name)) found.set(name, declaration);
      }
    }
  }
  return [...found.values()];
}

/**
 * The request for a provider that cannot hold definitions back: the loaded deferred definitions become ordinary
 * tools after the others (the form tool search assembles for such models), and `deferredTools` goes. A request
 * without deferred definitions is returned as it is.
 */
export function withDeferredToolsLoaded(request: LlmRequest): LlmRequest {
  if (request.deferredTools === undefined) return request;
  const { deferredTools: _deferred, ...rest } = request;
  const offered = new Set(request.tools.map((tool) => tool.name));
  return {
    ...rest,
    tools: [...request.tools, ...referencedDeferredTools(request).filter((tool) => !offered.has(tool.name))],
  };
}
