import { describe, expect, it } from 'vitest';
import { parseDocument } from './parse-document.js';

// A YAML block scalar that ends the file without a final line break: the values PyYAML 6.0.3 gives (what ADK reads an
// agent file with), obtained with yaml.safe_load on this machine. The yaml package alone adds a line break to the
// first and fourth (issue 47: an ADK sample's instruction came out one '\n' longer than ADK's).
const CASES: [string, unknown][] = [
  ['a: |\n  hello\n  world', { a: 'hello\nworld' }],
  ['a: |\n  hello\n  world\n', { a: 'hello\nworld\n' }],
  ['a: >\n  hello\n  world', { a: 'hello world' }],
  ['a: |+\n  hello\n  world', { a: 'hello\nworld' }],
  ['a: |-\n  hello\n  world', { a: 'hello\nworld' }],
  ['a: |\n  hello\n  world\n\n', { a: 'hello\nworld\n' }],
  ['a: |\n  x\nb: 1', { a: 'x\n', b: 1 }],
  ['a: |\n  x\n  ', { a: 'x\n' }],
];

describe('block scalars at the end of a file', () => {
  for (const [text, expected] of CASES) {
    it(JSON.stringify(text), async () => {
      expect(await parseDocument(text, { filename: 'agent.yaml' })).toEqual(expected);
    });
  }
});
