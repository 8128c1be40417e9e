import { AgentctxError } from '../core/errors/agentctx-error.js';
import type { Model } from '../core/model/model.js';
import { parseScript } from '../models/scripted/parse-script.js';
import { createScriptedModel } from '../models/scripted/scripted-model.js';
import { loadDocumentFile } from './load-document-file.js';

/**
 * A model from its name: `scripted:<file>` answers from a script file (YAML or JSON). Provider names
 * (`gemini-…`, `openai:…`, `anthropic:…`) need their adapters.
 */
export async function resolveModel(name: string, cwd: string): Promise<Model> {
  if (name.startsWith('scripted:')) {
    const file = name.slice('scripted:'.length);
    if (file === '') throw new AgentctxError({ code: 'usage', message: "'scripted:' needs a script file.", hint: 'Write scripted:path/to/script.yaml.' });
    const { value, filename } = await loadDocumentFile(file, cwd);
    return createScriptedModel(parseScript(value, filename), { modelId: file });
  }
  throw new AgentctxError({
    code: 'usage',
    message: `No adapter for model '${name}' in this version.`,
    hint: 'Use --model scripted:<file> to run offline with a scripted model.',
  });
}

/** Resolves every model name the agents use, once each, before anything runs. */
export async function resolveModels(names: Iterable<string>, cwd: string): Promise<Map<string, Model>> {
  const models = new Map<string, Model>();
  for (const name of names) if (!models.has(name)) models.set(name, await resolveModel(name, cwd));
  return models;
}
