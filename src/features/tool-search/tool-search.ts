import type { Extension, Processor, ProcessorPlacement } from '../../contracts/agent.js';
import type { DraftTool, RequestDraft } from '../../contracts/draft.js';
import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';
import type { Source } from '../../contracts/source.js';
import type { TokenCounter } from '../../contracts/tokens.js';
import type { Tool } from '../../contracts/tool.js';
import { defineProcessor, insertProcessor } from '../../engine/pipeline/pipeline.js';
import { loadTokenCounter } from '../../engine/tokens/token-counter.js';
import { loadedNames } from '../../engine/tools/deferred-tools.js';
import { toolDeclaration } from '../../engine/tools/tool.js';
import { TOOLS_PROCESSOR } from '../tools/tool-declarations.js';
import { buildCatalogue, firstLine, type Catalogue, type CatalogueEntry } from './catalogue.js';
import { loadedTools, type LoadedTool, type ToolSearchScope } from './loaded-tools.js';
import { searchTool } from './search-tool.js';

/** The extension's name, and its processor's. */
export const TOOL_SEARCH = 'tool_search';
/** The tool the model searches with. */
export const SEARCH_TOOLS = 'search_tools';
/** The catalogue's default budget, in tokens. */
export const DEFAULT_CATALOGUE_TOKENS = 1000;

export type ToolSearchOptions = {
  /**
   * Tokens the catalogue of deferred tools (in `search_tools`' description) may take: a line per tool while they fit,
   * then names only, then "and N more". Default 1,000.
   */
  catalogueTokens?: number;
  /** How long what a search loaded stays loaded: the rest of the invocation (the default) or of the session. */
  scope?: ToolSearchScope;
  /** Deferred tools offered in full anyway, in their own place among the other tools (by the name they have in the request). */
  alwaysLoaded?: readonly string[];
};

/** Progressive tool disclosure for an agent: an extension, with its processor and the means to place it yourself. */
export type ToolSearch = Extension & {
  /** `tool_search`. */
  readonly name: string;
  readonly processors: readonly ProcessorPlacement[];
  /** Runs after `tools`: keeps deferred tools out until a search loads them, and adds `search_tools`. */
  readonly processor: Processor;
  /** The pipeline with the processor right after `tools`. */
  install(pipeline: readonly Processor[]): Processor[];
};

/**
 * Progressive tool disclosure (`llmAgent({ toolsets: [mcpToolset({ …, deferred: true })], extensions: [toolSearch()] })`):
 * tools marked `deferred` (or all of a toolset's) leave the request, and one `search_tools` tool takes their place;
 * its description holds a catalogue of them (name and a line each, sorted, within `catalogueTokens`), so it stays
 * byte for byte the same while the tools do. A search (BM25 over names, descriptions and parameter names, local and
 * deterministic) loads the tools it finds: from the next call on their definitions come back, after every other tool,
 * in the order they were first loaded, so what a provider cached stays a prefix. Which tools are loaded is read from
 * the session's `search_tools` responses (of this invocation, or of the session with `scope: 'session'`), so it is the
 * same after a reload. A call to a deferred tool that is not loaded is answered with an `{ error }` saying to search
 * for it first. Without deferred tools it adds nothing. For a model that holds definitions back itself
 * (`Model.loadsDeferredTools`: Anthropic's `defer_loading` and `tool_reference`), the deferred definitions travel in
 * the request's `deferredTools` instead and each search's response loads them where it stands, so the tools array
 * never changes.
 */
export function toolSearch(options: ToolSearchOptions = {}): ToolSearch {
  const issues: ValidationIssue[] = [];
  const budget = options.catalogueTokens ?? DEFAULT_CATALOGUE_TOKENS;
  if (!Number.isInteger(budget) || budget < 1)
    issues.push({
      path: 'catalogueTokens',
      message: `expected a whole number of tokens ≥ 1, got ${String(options.catalogueTokens)}`,
    });
  const scope = options.scope ?? 'invocation';
  if (scope !== 'invocation' && scope !== 'session')
    issues.push({ path: 'scope', message: `expected 'invocation' or 'session', got ${JSON.stringify(options.scope)}` });
  const always = options.alwaysLoaded ?? [];
  if (!Array.isArray(always) || !always.every((name) => typeof name === 'string'))
    issues.push({ path: 'alwaysLoaded', message: 'expected a list of tool names' });
  if (issues.length > 0) throw new ValidationError({ subject: 'toolSearch', issues });
  const alwaysLoaded = new Set(always);
  const catalogues = new CatalogueCache(budget);

  const processor = defineProcessor({
    name: TOOL_SEARCH,
    async process(draft, context): Promise<RequestDraft> {
      const isDeferred = (entry: DraftTool): boolean =>
        entry.tool?.deferred === true && !alwaysLoaded.has(entry.declaration.name);
      const deferred = draft.tools.filter(isDeferred);
      if (deferred.length === 0) return draft;
      if (draft.tools.some((entry) => entry.declaration.name === SEARCH_TOOLS)) {
        throw new Error(
          `the agent already offers a tool named '${SEARCH_TOOLS}', which the tool search needs for itself; rename that tool`,
        );
      }
      const agent = context.agent.name;
      const byName = new Map(deferred.map((entry) => [entry.declaration.name, entry]));
      const loaded = loadedTools(context.events, {
        agent,
        searchTool: SEARCH_TOOLS,
        scope,
        invocationId: context.invocationId,
      }).filter((tool) => byName.has(tool.name));
      const catalogue = catalogues.get(
        deferred.map((entry) => ({ name: entry.declaration.name, description: entry.declaration.description })),
        await loadTokenCounter(),
      );
      const search = searchTool(SEARCH_TOOLS, deferred, catalogue);
      const source: Source = {
        kind: 'tool',
        processor: TOOL_SEARCH,
        extension: TOOL_SEARCH,
        agent,
        field: SEARCH_TOOLS,
        note: catalogueNote(deferred.length, catalogue, budget, loaded.length),
      };
      const stable = [
        ...draft.tools.filter((entry) => !isDeferred(entry)),
        { declaration: toolDeclaration(search), source, tool: search },
      ];
      if (context.loadsDeferredTools === true) return withNativeLoading(draft, stable, deferred, loaded);
      const loadedNames = new Set(loaded.map((tool) => tool.name));
      return {
        ...draft,
        tools: [...stable, ...loaded.map((tool) => loadedEntry(byName.get(tool.name) as DraftTool, tool))],
        handlers: [
          ...(draft.handlers ?? []),
          ...deferred
            .filter((entry) => !loadedNames.has(entry.declaration.name))
            .map((entry) => notLoaded(entry.declaration.name, entry.declaration.description)),
        ],
      };
    },
  });
  return Object.freeze({
    name: TOOL_SEARCH,
    processors: Object.freeze([{ processor, after: TOOLS_PROCESSOR }]),
    processor,
    install: (pipeline: readonly Processor[]) => insertProcessor(pipeline, { after: TOOLS_PROCESSOR }, processor),
  });
}

/**
 * The form for a model that holds definitions back itself (Anthropic): every deferred definition travels in
 * `deferredTools`, and the provider shows a definition where a `search_tools` response in the messages loads it, so
 * the tools array is the same on every call. A tool loaded in scope whose search is no longer in the messages (a
 * compaction summarized it) is offered in full after the others instead; one a response in the messages loads is
 * callable whatever the scope, since the model sees it.
 */
function withNativeLoading(
  draft: RequestDraft,
  stable: readonly DraftTool[],
  deferred: readonly DraftTool[],
  loaded: readonly LoadedTool[],
): RequestDraft {
  const byName = new Map(deferred.map((entry) => [entry.declaration.name, entry]));
  const shown = searchesInMessages(draft, byName);
  const inFull = loaded.filter((tool) => !shown.has(tool.name));
  const inFullNames = new Set(inFull.map((tool) => tool.name));
  const held = deferred.filter((entry) => !inFullNames.has(entry.declaration.name));
  return {
    ...draft,
    tools: [
      ...stable,
      ...inFull.map((tool) =>
        loadedEntry(
          byName.get(tool.name) as DraftTool,
          tool,
          'its search is no longer in the history, so offered in full',
        ),
      ),
    ],
    deferredTools: {
      loader: SEARCH_TOOLS,
      tools: held.map((entry) => heldEntry(entry, shown.get(entry.declaration.name))),
    },
    handlers: [
      ...(draft.handlers ?? []),
      ...held.flatMap((entry) => {
        if (!shown.has(entry.declaration.name))
          return [notLoaded(entry.declaration.name, entry.declaration.description)];
        return entry.tool === undefined ? [] : [entry.tool];
      }),
    ],
  };
}

// The deferred tools the `search_tools` responses among the messages load, with the first search that loads each.
function searchesInMessages(
  draft: RequestDraft,
  deferred: ReadonlyMap<string, DraftTool>,
): Map<string, { query: string; callId: string | undefined }> {
  const shown = new Map<string, { query: string; callId: string | undefined }>();
  for (const { message } of draft.messages) {
    for (const part of message.content) {
      if (!('functionResponse' in part) || part.functionResponse.name !== SEARCH_TOOLS) continue;
      const query = part.functionResponse.response?.['query'];
      for (const name of loadedNames(part.functionResponse.response)) {
        if (deferred.has(name) && !shown.has(name))
          shown.set(name, { query: typeof query === 'string' ? query : '', callId: part.functionResponse.id });
      }
    }
  }
  return shown;
}

function heldEntry(entry: DraftTool, search: { query: string; callId: string | undefined } | undefined): DraftTool {
  const note =
    search === undefined
      ? 'deferred: the provider holds it back until a search loads it'
      : `deferred, loaded by ${SEARCH_TOOLS}(${JSON.stringify(search.query)})${search.callId === undefined ? '' : `, call ${search.callId}`}: the provider shows it where that response is`;
  return {
    ...entry,
    source: { ...entry.source, note: entry.source.note === undefined ? note : `${entry.source.note}; ${note}` },
  };
}

// A loaded tool keeps its source (an MCP server's tool stays that server's), with a note naming the search.
function loadedEntry(entry: DraftTool, tool: LoadedTool, why?: string): DraftTool {
  const note = `loaded by ${SEARCH_TOOLS}(${JSON.stringify(tool.query)}), ${tool.callId === undefined ? '' : `call ${tool.callId}, `}event ${tool.eventId}${why === undefined ? '' : `; ${why}`}`;
  return {
    ...entry,
    source: { ...entry.source, note: entry.source.note === undefined ? note : `${entry.source.note}; ${note}` },
  };
}

function catalogueNote(deferred: number, catalogue: Catalogue, budget: number, loaded: number): string {
  const parts = [`catalogue of ${deferred} deferred tools in ${catalogue.tokens} tokens (budget ${budget})`];
  if (catalogue.named > 0 || catalogue.omitted > 0)
    parts.push(`${catalogue.described} with a line, ${catalogue.named} by name only, ${catalogue.omitted} left out`);
  parts.push(`${loaded} loaded`);
  return parts.join('; ');
}

// Answers a call to a deferred tool that no search loaded yet (the request does not offer it).
function notLoaded(name: string, description: string): Tool {
  const words = name
    .replace(/[_.:-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return Object.freeze({
    name,
    description,
    execute: () => ({
      error: `Tool '${name}' is not loaded yet. Call ${SEARCH_TOOLS} first with words for what you need (for example ${JSON.stringify(words)}); it loads the tools it finds for your next step.`,
    }),
  });
}

// The catalogue is counted in tokens, which takes a few milliseconds: kept for the last few sets of deferred tools.
class CatalogueCache {
  private readonly entries = new Map<string, Catalogue>();
  constructor(private readonly budget: number) {}

  get(tools: readonly CatalogueEntry[], counter: TokenCounter): Catalogue {
    const key = JSON.stringify(tools.map((tool) => [tool.name, firstLine(tool.description)]));
    let catalogue = this.entries.get(key);
    if (catalogue === undefined) {
      catalogue = buildCatalogue(tools, this.budget, counter);
      if (this.entries.size >= 8) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, catalogue);
    }
    return catalogue;
  }
}
