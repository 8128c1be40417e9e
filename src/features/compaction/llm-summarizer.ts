import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Event } from '../../contracts/event.js';
import type { Model } from '../../contracts/model.js';
import type { Profile, ProfileName } from '../../contracts/profile.js';
import type { LlmRequest, RequestConfig } from '../../contracts/request.js';
import type { SummarizeOptions, Summarizer, Summary } from '../../contracts/summarizer.js';
import { resolveProfile } from '../../engine/profile/profiles.js';
import { SUMMARIZER_AGENT } from '../../engine/runner/side-call.js';
import { renderEvents, renderEventsAdk } from './render-events.js';

/** agentctx's default prompt; `{conversation_history}` is where the history goes. */
export const DEFAULT_SUMMARY_PROMPT: string = [
  'Below is the earlier part of a conversation between a user and an AI agent, with the tools the agent called and what they returned.',
  'Write a summary the agent can continue from without the original: keep the facts and figures found, the decisions made and why, what the user asked for, and every question or task still open.',
  'Be concise; leave out greetings and repetition.',
  '',
  '{conversation_history}',
].join('\n');

/** ADK's default prompt, byte for byte: its `\n` are a backslash and an `n`, because its source escapes them twice. */
export const ADK_SUMMARY_PROMPT =
  'The following is a conversation history between a user and an AI agent. Please summarize the conversation, focusing on key information and decisions made, as well as any unresolved questions or tasks. The summary should be concise and capture the essence of the interaction.\\n\\n{conversation_history}';

export type LlmSummarizerOptions = {
  model: Model;
  /**
   * The prompt, with `{conversation_history}` where the history goes; other literal braces are doubled (`{{`, `}}`),
   * as in ADK's Python templates.
   */
  promptTemplate?: string;
  /** Settings for the summarizer's own call (a lower `maxOutputTokens`, a cheaper `model`…). */
  config?: RequestConfig;
  /** Longest tool argument, result or message kept whole in the history shown; longer ones are shortened. Default 4000. */
  maxPartChars?: number;
  /** Whose default prompt and rendering to use (the profile's `summaryPrompt`): ADK's renders text parts only, lines joined by a literal backslash-n. Default `agentctx`. */
  profile?: ProfileName | Profile;
};

/** Summarizes with a language model, one call per compaction, as ADK's `LlmEventSummarizer` does. */
export class LlmSummarizer implements Summarizer {
  readonly name = 'llm';
  readonly model: Model;
  readonly #template: string;
  readonly #config: RequestConfig;
  readonly #maxPartChars: number;
  readonly #adk: boolean;
  readonly #options: LlmSummarizerOptions;

  constructor(options: LlmSummarizerOptions) {
    this.#options = options;
    this.model = options.model;
    this.#adk = resolveProfile(options.profile).summaryPrompt === 'adk';
    // An empty template falls back to the default, as in ADK.
    this.#template = options.promptTemplate || (this.#adk ? ADK_SUMMARY_PROMPT : DEFAULT_SUMMARY_PROMPT);
    checkTemplate(this.#template);
    this.#config = { ...options.config };
    this.#maxPartChars = options.maxPartChars ?? 4000;
  }

  /** The same summarizer — prompt, settings, profile — calling another model (the runner's recording wrapper of it). */
  withModel(model: Model): LlmSummarizer {
    return new LlmSummarizer({ ...this.#options, model });
  }

  /** The request the summarizer sends for these events. */
  request(events: readonly Event[]): LlmRequest {
    const history = this.#adk ? renderEventsAdk(events) : renderEvents(events, this.#maxPartChars).join('\n');
    return {
      system: '',
      tools: [],
      messages: [{ role: 'user', content: [{ text: fillTemplate(this.#template, history) }] }],
      config: { ...this.#config },
    };
  }

  async summarize(events: readonly Event[], options: SummarizeOptions = {}): Promise<Summary | undefined> {
    if (events.length === 0) return undefined;
    const response = await this.model.generate(this.request(events), {
      signal: options.signal,
      agentName: SUMMARIZER_AGENT,
    });
    if (response.errorCode !== undefined)
      throw new Error(`the summarizer's model answered with an error: ${response.errorMessage ?? response.errorCode}`);
    if (response.content === undefined) return undefined;
    // A model's thoughts are not part of its summary (ADK keeps them).
    const parts = this.#adk
      ? response.content.parts
      : response.content.parts.filter((part) => !('text' in part) || part.thought !== true);
    if (parts.length === 0) return undefined;
    // ADK forces the summary's role to model, whatever the provider returned.
    return { content: { role: 'model', parts }, ...(response.usage === undefined ? {} : { usage: response.usage }) };
  }
}

const FIELD = /\{\{|\}\}|\{([^{}]*)\}|[{}]/g;

// Python's str.format, for the one field a summary prompt has: doubled braces are literal, any other field is an error.
function checkTemplate(template: string): void {
  for (const match of template.matchAll(FIELD)) {
    if (match[0] === '{{' || match[0] === '}}' || match[1] === 'conversation_history') continue;
    const problem = match[1] === undefined ? `a single '${match[0]}'` : `the field {${match[1]}}`;
    throw new ValidationError({
      subject: 'promptTemplate',
      issues: [
        { path: '', message: `has ${problem} at character ${match.index}; only {conversation_history} is filled` },
      ],
      hint: 'Write literal braces twice: {{ and }}.',
    });
  }
}

function fillTemplate(template: string, history: string): string {
  return template.replace(FIELD, (match) => (match === '{{' ? '{' : match === '}}' ? '}' : history));
}
