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
