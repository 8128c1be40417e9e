import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { Model } from '../../contracts/model.js';
import type { Script } from '../scripted/script.js';
import type { RetryOptions } from '../shared/retry.js';
import { parseModelString } from './model-string.js';

export type ResolveModelOptions = {
  /** Where keys and base URLs are read; `process.env` when absent. */
  env?: Readonly<Record<string, string | undefined>>;
  retry?: RetryOptions | false;
  /** Reads a script file for `scripted:<file>`; without it scripted models must be made in code. */
  loadScript?: (file: string) => Promise<Script>;
};

/**
 * A model from its string: `gemini-2.5-flash` or `google:…`, `openai:…` (Responses for reasoning models, else Chat
 * Completions; `openai-chat:…` and `openai-responses:…` choose), `anthropic:…`, `openai-compatible:<model>@<baseURL>`,
 * `mistral:…`, `groq:…`, `deepseek:…` (through their AI SDK packages),
 * `scripted:<file>`. Each provider's module (and SDK) loads only when a model
 * of it is asked for. A missing key or an unknown provider is one clear error.
 */
export async function resolveModel(name: string, options: ResolveModelOptions = {}): Promise<Model> {
  const spec = parseModelString(name);
  const common = {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  };
  switch (spec.provider) {
    case 'google': {
      const { createGeminiModel } = await import('../gemini/index.js');
      return createGeminiModel({ model: spec.modelId, ...common });
    }
    case 'openai': {
      const { createOpenAIModel, createOpenAIResponsesModel } = await import('../openai/index.js');
      return spec.api === 'responses'
        ? createOpenAIResponsesModel({ model: spec.modelId, ...common })
        : createOpenAIModel({ model: spec.modelId, ...common });
    }
    case 'openai-compatible': {
      const { createOpenAICompatibleModel } = await import('../openai/index.js');
      return createOpenAICompatibleModel({ model: spec.modelId, baseURL: spec.baseURL, ...common });
    }
    case 'anthropic': {
      const { createAnthropicModel } = await import('../anthropic/index.js');
      return createAnthropicModel({ model: spec.modelId, ...common });
    }
    case 'mistral':
    case 'groq':
    case 'deepseek': {
      const { createNamedAiSdkModel } = await import('../ai-sdk/named-providers.js');
      return createNamedAiSdkModel(spec.provider, { model: spec.modelId, ...common });
    }
    case 'scripted': {
      if (options.loadScript === undefined) {
        throw new AgentctxError({
          code: 'usage',
          message: `Cannot load the script of '${name}' here.`,
          hint: 'Pass loadScript, or make the model with createScriptedModel.',
        });
      }
      const { createScriptedModel } = await import('../scripted/scripted-model.js');
      // Nobody holding a model by its name can read what it was asked, and a server would keep every request forever.
      return createScriptedModel(await options.loadScript(spec.file), { modelId: spec.file, record: false });
    }
  }
}
