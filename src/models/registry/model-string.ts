import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { isOpenAIReasoningModel } from '../openai/reasoning-models.js';

/** What a model string names. */
export type ModelSpec =
  | { provider: 'google' | 'anthropic'; modelId: string }
  /** `api`: the OpenAI API the model is called through. */
  | { provider: 'openai'; modelId: string; api: 'chat-completions' | 'responses' }
  | { provider: 'openai-compatible'; modelId: string; baseURL: string }
  /** Through the provider's AI SDK package and the bridge (agentctx/models/ai-sdk). */
  | { provider: 'mistral' | 'groq' | 'deepseek'; modelId: string }
  | { provider: 'scripted'; file: string };

const FORMS =
  'gemini-2.5-flash or google:<model>, openai:<model> (or openai-chat:, openai-responses:), anthropic:<model>, openai-compatible:<model>@<baseURL>, mistral:<model>, groq:<model>, deepseek:<model>, scripted:<file>';

/**
 * Reads a model string: `gemini-2.5-flash` or `google:…`, `openai:…`, `anthropic:…`,
 * `openai-compatible:<model>@<baseURL>` (Ollama, llama.cpp, vLLM…), `mistral:…`, `groq:…` and `deepseek:…` (through
 * their AI SDK packages), `scripted:<file>`. Bare `gpt-…`, `o3…` and `claude-…` names are read as OpenAI and
 * Anthropic models. `openai:` sends reasoning models (o-series, gpt-5 family) through the Responses API, which keeps
 * their reasoning across tool calls, and the others through Chat Completions; `openai-chat:…` and
 * `openai-responses:…` choose the API.
 */
export function parseModelString(name: string): ModelSpec {
  const trimmed = name.trim();
  const colon = trimmed.indexOf(':');
  const prefix = colon === -1 ? '' : trimmed.slice(0, colon);
  const rest = colon === -1 ? trimmed : trimmed.slice(colon + 1);
  const need = (value: string, what: string): string => {
    if (value.trim() === '') throw invalid(name, `'${prefix}:' needs ${what} after it`);
    return value.trim();
  };
  switch (prefix) {
    case 'google':
    case 'gemini':
      return { provider: 'google', modelId: need(rest, 'a model name') };
    case 'openai':
      return openAISpec(need(rest, 'a model name'));
    case 'openai-chat':
      return { provider: 'openai', modelId: need(rest, 'a model name'), api: 'chat-completions' };
    case 'openai-responses':
      return { provider: 'openai', modelId: need(rest, 'a model name'), api: 'responses' };
    case 'anthropic':
      return { provider: 'anthropic', modelId: need(rest, 'a model name') };
    case 'mistral':
    case 'groq':
    case 'deepseek':
      return { provider: prefix, modelId: need(rest, 'a model name') };
    case 'scripted':
      return { provider: 'scripted', file: need(rest, 'a script file') };
    case 'openai-compatible': {
      const at = rest.indexOf('@');
      if (at === -1)
        throw invalid(
          name,
          "write the server's base URL after '@', e.g. openai-compatible:llama3@http://127.0.0.1:11434/v1",
        );
      const baseURL = need(rest.slice(at + 1), 'a base URL');
      if (!/^https?:\/\//.test(baseURL)) throw invalid(name, `'${baseURL}' is not an http(s) URL`);
      return { provider: 'openai-compatible', modelId: need(rest.slice(0, at), 'a model name'), baseURL };
    }
  }
  if (/^gemini-/.test(trimmed)) return { provider: 'google', modelId: trimmed };
  if (/^(gpt-|o\d|chatgpt-)/.test(trimmed)) return openAISpec(trimmed);
  if (/^claude-/.test(trimmed)) return { provider: 'anthropic', modelId: trimmed };
  throw invalid(name, `no provider is known for it`);
}

function openAISpec(modelId: string): ModelSpec {
  return { provider: 'openai', modelId, api: isOpenAIReasoningModel(modelId) ? 'responses' : 'chat-completions' };
}

function invalid(name: string, why: string): AgentctxError {
  return new AgentctxError({
    code: 'usage',
    message: `Cannot use model '${name}': ${why}.`,
    hint: `Model strings look like ${FORMS}.`,
  });
}

/**
 * Whether the provider a model string names pairs function responses with calls by id (OpenAI, Anthropic,
 * OpenAI-compatible servers and every provider through the AI SDK do; Gemini pairs by order and name), so a request
 * for it keeps every call id, the ones generated for calls that came without one included. Unknown strings and
 * scripted models: no.
 */
export function modelPairsCallsById(name: string): boolean {
  const provider = providerOf(name);
  return provider !== undefined && provider !== 'google' && provider !== 'scripted';
}

/** Whether the provider a model string names holds deferred tool definitions back itself (Anthropic). */
export function modelLoadsDeferredTools(name: string): boolean {
  return providerOf(name) === 'anthropic';
}

function providerOf(name: string): string | undefined {
  try {
    return parseModelString(name).provider;
  } catch {
    return undefined;
  }
}
