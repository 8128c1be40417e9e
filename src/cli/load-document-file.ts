import { dirname, relative, resolve } from 'node:path';
import { parseDocument } from '../engine/config/parse-document.js';
import { readInputFile } from './read-input-file.js';

/**
 * Reads a YAML or JSON file. A document that asks for `valueFormat: python` is read a second time keeping Python's
 * number types (`1.0` stays a float), which only the source text still shows.
 */
export async function loadDocumentFile(path: string, cwd: string): Promise<{ value: unknown; filename: string }> {
  const text = await readInputFile(path, cwd);
  const value = await parseDocument(text, { filename: path });
  const python =
    typeof value === 'object' && value !== null && (value as Record<string, unknown>)['valueFormat'] === 'python';
  return { value: python ? await parseDocument(text, { filename: path, pythonNumbers: true }) : value, filename: path };
}

/** Loads files that other files name (`configPath`, a case's `agent`), relative to the naming file. */
export function relativeLoader(
  cwd: string,
): (reference: string, from: string) => Promise<{ value: unknown; filename: string }> {
  return (reference, from) => {
    const target = relative(cwd, resolve(cwd, dirname(from), reference)) || reference;
    return loadDocumentFile(target, cwd);
  };
}
