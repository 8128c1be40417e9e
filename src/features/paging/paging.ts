import type { Extension, Processor, ProcessorPlacement } from '../../contracts/agent.js';
import type { Part } from '../../contracts/content.js';
import type { ToolContext } from '../../contracts/contexts.js';
import type { DraftMessage, RequestDraft } from '../../contracts/draft.js';
import type { Source } from '../../contracts/source.js';
import type { ArgsCheck, Tool } from '../../contracts/tool.js';
import { withSystemBlock } from '../../engine/assembly/draft.js';
import { insertProcessor, defineProcessor } from '../../engine/pipeline/pipeline.js';
import { TEMP_PREFIX } from '../../engine/state/state-keys.js';

export type PagingOptions = {
  /** Names the data (`reports`): the tools are `get_<name>`, and state keys start with `<name>:`. */
  name: string;
  /** Fetches one item's text by id; called at most once per item per invocation. */
  load: (id: string, context: ToolContext) => Promise<string> | string;
  /** Most ids one page-in may ask for; more is an error for the model to correct. Default 10. */
  maxPerRead?: number;
  /** What the items are, for the tools' descriptions (`quarterly reports`). */
  description?: string;
  /** Saving a result also pages the working set out (the batch is done); default true. */
  pageOutOnSave?: boolean;
  /**
   * Once a batch's result is saved, its tool traffic (page-in receipts and calls to `batchTools`) leaves the history
   * the model sees; the result stays as its `save_result` call (placement `history`) or is listed in the instruction
   * (placement `system`, where the save leaves too). Keeps every call's prompt near flat however many batches came
   * before. Stored events keep everything. Default true.
   */
  releaseHistory?: boolean;
  /** Other tools whose calls belong to a batch and are released with it (for example a calculation over the batch). */
  batchTools?: readonly string[];
  /**
   * Where the working set goes. `history` (the default): as a user turn right after the receipt of the page-in that
   * loaded it, where it stays while the batch is worked on; saved results stay in the history as the `save_result`
   * calls that made them. Every call's prompt then only grows at its end, so a provider's prompt cache reads
   * everything before the newest turn, the page included from the second call of its batch on. `system`: in the
   * system text, with the saved results listed above it; each batch changes the system text, so
   * the cache misses from there on.
   */
  placement?: 'history' | 'system';
};

/**
 * Everything an agent needs for instruction paging. It is an extension: `llmAgent({ extensions: [reports] })` offers its
 * three tools and places its two processors; or take the pieces (`tools`, `install(pipeline)`) and place them yourself.
 */
export type Paging = Extension & {
  /** `paging:<name>`. */
  readonly name: string;
  /** The page-in, save and list tools, in that order. */
  readonly tools: readonly Tool[];
  /** Its processors, placed as `install` places them. */
  readonly processors: readonly ProcessorPlacement[];
  /** `get_<name>(ids)`: pages items in; its result is one line, never the bodies. */
  readonly pageIn: Tool;
  /** `save_result(task_id, result)`: keeps a result for the session (not temp). */
  readonly saveResult: Tool;
  /** `list_results()`: the results saved so far. */
  readonly listResults: Tool;
  /** With placement `system`: adds the saved results and the current working set to the system text, under clear delimiters. */
  readonly processor: Processor;
  /** Releases the tool traffic of batches already saved from the messages, and (placement `history`) puts the working set after its receipt; runs after `contents`. */
  readonly historyProcessor: Processor;
  /** The pipeline with both processors in place: the system one after the instruction (or sections), the history one after `contents`. */
  install(pipeline: readonly Processor[]): Processor[];
  /** The state key of a cached item (temp: it pages out when the invocation ends). */
  pageKey(id: string): string;
  /** The state key listing the current working set (temp:). */
  readonly workingSetKey: string;
  /** Saved results, by task id, from a state. */
  results(state: Readonly<Record<string, unknown>>): Record<string, string>;
};

const NAME = /^[a-z][a-z0-9_]{0,40}$/;

/**
 * Instruction paging (state as disk, the prompt as RAM): large items live in state, a tool pages the ones the model
 * asks for into the prompt for the current batch only (after its receipt in the history, or in the system text with
 * placement `system`), and the stored history only gets a one-line receipt. Cached bodies and the working set are
 * `temp:` state, so they page out when the invocation ends, in every store.
 *
 * @example
 * const reports = paging({ name: 'reports', load: (id) => fetchReport(id) });
 * const analyst = llmAgent({ name: 'analyst', instruction: 'Analyze the reports you page in.', extensions: [reports] });
 */
export function paging(options: PagingOptions): Paging {
  if (!NAME.test(options.name))
    throw new TypeError(`paging name '${options.name}' must be lowercase letters, digits and underscores`);
  const name = options.name;
  const maxPerRead = options.maxPerRead ?? 10;
  const what = options.description ?? name;
  const pageKey = (id: string) => `${TEMP_PREFIX}${name}:page:${id}`;
  const workingSetKey = `${TEMP_PREFIX}${name}:working_set`;
  const resultPrefix = `${name}:result:`;
  const results = (state: Readonly<Record<string, unknown>>): Record<string, string> => {
    const found: Record<string, string> = {};
    for (const key of Object.keys(state).sort())
      if (key.startsWith(resultPrefix)) found[key.slice(resultPrefix.length)] = String(state[key]);
    return found;
  };

  const inHistory = (options.placement ?? 'history') === 'history';
  if (options.placement !== undefined && options.placement !== 'history' && options.placement !== 'system') {
    throw new TypeError(`paging placement must be 'history' or 'system', not ${JSON.stringify(options.placement)}`);
  }
  const where = inHistory ? 'into the conversation, right after this call' : 'into your instruction';
  const pageIn: Tool = Object.freeze({
    name: `get_${name}`,
    description: `Loads up to ${maxPerRead} ${what} by id ${where}, where you can read them in full. The previous batch is replaced. Returns only a receipt.`,
    parameters: {
      type: 'object',
      properties: { ids: { type: 'array', items: { type: 'string' }, description: `At most ${maxPerRead} ids.` } },
      required: ['ids'],
    },
    checkArgs: (args: Record<string, unknown>): ArgsCheck => {
      const ids = args['ids'];
      if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string' && id !== ''))
        return { ok: false, issues: ['ids: expected a non-empty list of ids'] };
      if (ids.length > maxPerRead)
        return {
          ok: false,
          issues: [`ids: ${ids.length} ids asked for; at most ${maxPerRead} per read, so split them into batches`],
        };
      return { ok: true, value: { ids: [...new Set(ids as string[])] } };
    },
    execute: async (args: Record<string, unknown>, context: ToolContext) => {
      const ids = args['ids'] as string[];
      let fetched = 0;
      for (const id of ids) {
        if (context.state.has(pageKey(id))) continue;
        context.state.set(pageKey(id), await options.load(id, context));
        fetched++;
      }
      context.state.set(workingSetKey, ids);
      return {
        result: `${ids.length} loaded (${fetched} fetched, ${ids.length - fetched} already cached); their text is ${inHistory ? 'below' : 'in your instruction'} now.`,
      };
    },
  });

  const saveResult: Tool = Object.freeze({
    name: 'save_result',
    description: `Saves an intermediate result under a task id, kept for the whole session. Saving also releases the current batch from your ${inHistory ? 'conversation' : 'instruction'}.`,
    parameters: {
      type: 'object',
      properties: { task_id: { type: 'string' }, result: { type: 'string' } },
      required: ['task_id', 'result'],
    },
    checkArgs: (args: Record<string, unknown>): ArgsCheck =>
      typeof args['task_id'] === 'string' && args['task_id'] !== '' && typeof args['result'] === 'string'
        ? { ok: true, value: args }
        : { ok: false, issues: ['task_id (not empty) and result must be strings'] },
    execute: (args: Record<string, unknown>, context: ToolContext) => {
      context.state.set(`${resultPrefix}${String(args['task_id'])}`, args['result']);
      if (options.pageOutOnSave !== false) context.state.set(workingSetKey, []);
      return { result: `Saved result ${String(args['task_id'])}.` };
    },
  });

  const listResults: Tool = Object.freeze({
    name: 'list_results',
    description: 'Lists the intermediate results saved so far in this session.',
    parameters: { type: 'object', properties: {} },
    execute: (_args: Record<string, unknown>, context: ToolContext) => ({ results: results(context.state.toRecord()) }),
  });

  const label = name.toUpperCase();
  const pageText = (state: Readonly<Record<string, unknown>>): { text: string; shown: string[] } | undefined => {
    const ids = state[workingSetKey];
    if (!Array.isArray(ids) || ids.length === 0) return undefined;
    const shown = (ids as unknown[]).filter(
      (id): id is string => typeof id === 'string' && typeof state[pageKey(id)] === 'string',
    );
    if (shown.length === 0) return undefined;
    const body = shown.map((id) => `### ${id}\n${String(state[pageKey(id)])}`).join('\n\n');
    return {
      text: `--- BEGIN ${label} (${shown.length}: ${shown.join(', ')}) ---\n${body}\n--- END ${label} ---`,
      shown,
    };
  };
  const processor = defineProcessor({
    name: `paging:${name}`,
    process(draft, context): RequestDraft {
      if (inHistory) return draft;
      let next = draft;
      const saved = results(context.state);
      const savedIds = Object.keys(saved);
      if (options.releaseHistory !== false && savedIds.length > 0) {
        const lines = savedIds.map((id) => `${id}: ${saved[id] ?? ''}`).join('\n');
        next = withSystemBlock(
          next,
          `--- SAVED RESULTS (${savedIds.length}) ---\n${lines}\n--- END SAVED RESULTS ---`,
          {
            kind: 'page',
            processor: `paging:${name}`,
            agent: context.agent.name,
            field: `state ${resultPrefix}*`,
            note: 'results saved so far; the batches behind them are released from the history',
          },
        );
      }
      const page = pageText(context.state);
      if (page === undefined) return next;
      return withSystemBlock(next, page.text, {
        kind: 'page',
        processor: `paging:${name}`,
        agent: context.agent.name,
        field: `state ${workingSetKey}`,
        note: `paged in: ${page.shown.join(', ')}`,
      });
    },
  });

  // In the history, a saved result stays as the save_result call that made it; in the system text it is listed there.
  const released = new Set([
    pageIn.name,
    listResults.name,
    ...(inHistory ? [] : [saveResult.name]),
    ...(options.batchTools ?? []),
  ]);
  const historyProcessor = defineProcessor({
    name: `paging:${name}:history`,
    process(draft, context): RequestDraft {
      const messages =
        options.releaseHistory === false
          ? draft.messages
          : releaseSavedBatches(draft.messages, saveResult.name, released);
      const page = inHistory ? pageText(context.state) : undefined;
      if (page === undefined) return messages === draft.messages ? draft : { ...draft, messages };
      const source: Source = {
        kind: 'page',
        processor: `paging:${name}:history`,
        agent: context.agent.name,
        field: `state ${workingSetKey}`,
        note: `paged in: ${page.shown.join(', ')}`,
      };
      return {
        ...draft,
        messages: withPageAfterReceipt(messages, pageIn.name, {
          message: { role: 'user', content: [{ text: page.text }] },
          sources: [source],
        }),
      };
    },
  });

  const install = (pipeline: readonly Processor[]): Processor[] => {
    const anchor = pipeline.some((step) => step.name === 'instructions') ? 'instructions' : 'sections';
    return insertProcessor(
      insertProcessor(pipeline, { after: anchor }, processor),
      { after: 'contents' },
      historyProcessor,
    );
  };
  // The same places as `install`: the working set after the instruction (or the sections), the release after `contents`.
  const processors: ProcessorPlacement[] = [
    { processor, after: ['instructions', 'sections'] },
    { processor: historyProcessor, after: 'contents' },
  ];

  return Object.freeze({
    name: `paging:${name}`,
    tools: Object.freeze([pageIn, saveResult, listResults]),
    processors: Object.freeze(processors),
    pageIn,
    saveResult,
    listResults,
    processor,
    historyProcessor,
    install,
    pageKey,
    workingSetKey,
    results,
  });
}

/**
 * The messages with the page right after the latest receipt of a page-in (the one that loaded the working set), so
 * it keeps its place in the prompt while its batch is worked on; at the end when no receipt is in view.
 */
function withPageAfterReceipt(
  messages: readonly DraftMessage[],
  pageInName: string,
  page: DraftMessage,
): DraftMessage[] {
  let receipt = -1;
  messages.forEach((entry, index) => {
    if (entry.message.content.some((part) => 'functionResponse' in part && part.functionResponse.name === pageInName))
      receipt = index;
  });
  const at = receipt === -1 ? messages.length : receipt + 1;
  return [...messages.slice(0, at), page, ...messages.slice(at)];
}

/**
 * The messages without the tool traffic of saved batches: every call and response of the released tools up to the
 * latest saved result. A batch's calls are answered before its result is saved, and one model turn's responses
 * arrive together, so calls and responses always leave in pairs; text around them stays.
 */
function releaseSavedBatches(
  messages: readonly DraftMessage[],
  saveName: string,
  released: ReadonlySet<string>,
): DraftMessage[] {
  let cut = -1;
  messages.forEach((entry, index) => {
    if (entry.message.content.some((part) => 'functionResponse' in part && part.functionResponse.name === saveName))
      cut = index;
  });
  if (cut === -1) return [...messages];
  const kept: DraftMessage[] = [];
  messages.forEach((entry, index) => {
    if (index > cut) {
      kept.push(entry);
      return;
    }
    const content: Part[] = [];
    const sources: Source[] = [];
    entry.message.content.forEach((part, partIndex) => {
      const tool =
        'functionCall' in part
          ? part.functionCall.name
          : 'functionResponse' in part
            ? part.functionResponse.name
            : undefined;
      if (tool !== undefined && released.has(tool)) return;
      content.push(part);
      sources.push(entry.sources[partIndex] as Source);
    });
    if (content.length === entry.message.content.length) kept.push(entry);
    else if (content.length > 0) kept.push({ message: { role: entry.message.role, content }, sources });
  });
  return kept;
}
