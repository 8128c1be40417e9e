import type { BuiltInTool } from '../../contracts/request.js';

/**
 * ADK's built-in tools that Gemini runs itself, by the name an agent file gives them (`tools: - name: google_search`),
 * as the built-in tool entry ADK 2.5.0 adds to a Gemini request (google_search_tool.py, url_context_tool.py,
 * enterprise_search_tool.py, google_maps_grounding_tool.py). Sent on the Gemini wire as they are; any other provider
 * refuses the request in one line, as ADK does ("… is not supported for model …").
 */
export const ADK_BUILT_IN_TOOLS: Readonly<Record<string, BuiltInTool>> = Object.freeze({
  google_search: { provider: 'google', type: 'googleSearch' },
  url_context: { provider: 'google', type: 'urlContext' },
  enterprise_web_search: { provider: 'google', type: 'enterpriseWebSearch' },
  google_maps_grounding: { provider: 'google', type: 'googleMaps' },
});

/**
 * ADK's `VertexAiSearchTool(data_store_id=… | search_engine_id=…, data_store_specs, filter, max_results)`
 * (tools/vertex_ai_search_tool.py at 2.5.0): Gemini's retrieval from Vertex AI Search, as the built-in tool entry
 * `{ retrieval: { vertexAiSearch: { datastore | engine, dataStoreSpecs, filter, maxResults } } }` (Vertex AI only).
 * Undefined, with what is wrong, when the arguments are not what ADK accepts.
 */
export function vertexAiSearchTool(args: {
  dataStoreId?: string | undefined;
  searchEngineId?: string | undefined;
  dataStoreSpecs?: readonly { dataStore?: string; filter?: string }[] | undefined;
  filter?: string | undefined;
  maxResults?: number | undefined;
}): BuiltInTool | { error: string } {
  if ((args.dataStoreId === undefined) === (args.searchEngineId === undefined))
    return { error: 'give either data_store_id or search_engine_id, as ADK requires (not both, not neither)' };
  if (args.dataStoreSpecs !== undefined && args.searchEngineId === undefined)
    return { error: 'data_store_specs goes with search_engine_id, as ADK requires' };
  const search = {
    ...(args.dataStoreId === undefined ? {} : { datastore: args.dataStoreId }),
    ...(args.dataStoreSpecs === undefined ? {} : { dataStoreSpecs: args.dataStoreSpecs.map((spec) => ({ ...spec })) }),
    ...(args.searchEngineId === undefined ? {} : { engine: args.searchEngineId }),
    ...(args.filter === undefined ? {} : { filter: args.filter }),
    ...(args.maxResults === undefined ? {} : { maxResults: args.maxResults }),
  };
  return { provider: 'google', type: 'retrieval', settings: { vertexAiSearch: search } };
}
