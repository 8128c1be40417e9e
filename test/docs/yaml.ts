import { stringify } from 'yaml';

/** YAML as the docs and tests write it: block style, no line folding. */
export function stringifyYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0 });
}
