import { readFileSync } from 'node:fs';
import { parseDocument } from '../../src/engine/config/parse-document.js';

export type Vector = {
  component: string;
  name: string;
  input: Record<string, unknown>;
  expected: unknown;
  source: string;
  note?: string;
};

const path = new URL('../fixtures/adk-vectors.json', import.meta.url);

/**
 * The ADK vectors, read so that Python's number types survive: `1.0` stays a float and big integers stay exact
 * (plain JSON.parse would turn both into ordinary numbers).
 */
export async function loadVectors(component: string, options: { pythonNumbers?: boolean } = {}): Promise<Vector[]> {
  const pythonNumbers = options.pythonNumbers ?? true;
  const all = (await parseDocument(readFileSync(path, 'utf8'), {
    filename: 'adk-vectors.json',
    pythonNumbers,
  })) as Vector[];
  const selected = all.filter((vector) => vector.component === component);
  if (selected.length === 0) throw new Error(`no vectors for component ${component}`);
  return selected;
}
