import type { Model } from '../contracts/model.js';
import { resolveModel as resolveByName } from '../models/registry/resolve-model.js';
import { parseScript } from '../models/scripted/parse-script.js';
import { loadDocumentFile } from './load-document-file.js';

/**
 * A model from its name, as the CLI takes it: provider strings read their keys from the environment; `scripted:<file>`
 * reads a script file (YAML or JSON) relative to the working folder.
 */
export function resolveModel(
  name: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Model> {
  return resolveByName(name, {
    env,
    loadScript: async (file) => {
      const { value, filename } = await loadDocumentFile(file, cwd);
      return parseScript(value, filename);
    },
  });
}
