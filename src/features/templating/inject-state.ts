import type { ArtifactTextReader } from '../../contracts/artifact.js';
import { TemplateError } from '../../contracts/errors/template-error.js';
import type { ValueFormat } from '../../contracts/profile.js';
import type { StateScope } from '../../engine/state/state-keys.js';
import { scanTemplate, type ScanOptions } from './scan-template.js';
import { resolveValueFormat } from './value-format.js';
import type { PythonVersion } from '../../engine/python/python-format.js';

export type TemplateOptions = ScanOptions & {
  /** The state the placeholders read: session keys, plus `app:`, `user:` and `temp:` keys under their prefixes. */
  state: Readonly<Record<string, unknown>>;
  /** Where `{artifact.name}` reads from; without it any artifact placeholder is an error, as in ADK. */
  artifacts?: ArtifactTextReader | undefined;
  valueFormat?: ValueFormat | undefined;
  /** The Python whose `str()` the `python` value format reproduces (`Profile.python`); 3.11 when absent. */
  python?: PythonVersion | undefined;
};

/** Where a range of the rendered text came from. */
export type Substitution = {
  /** The placeholder as written in the template. */
  placeholder: string;
  /** Position of the placeholder in the template. */
  templateStart: number;
  templateEnd: number;
  /** Position of the inserted value in the rendered text (equal when the value was empty). */
  start: number;
  end: number;
  source:
    | { kind: 'state'; key: string; scope: StateScope; present: boolean }
    | { kind: 'artifact'; name: string; present: boolean };
};

export type RenderedTemplate = {
  text: string;
  substitutions: Substitution[];
};

/**
 * Fills a template's placeholders with ADK's semantics (`{key}`, `{key?}`, `{app:key}`, `{user:key}`, `{temp:key}`,
 * `{artifact.name}`), also `{state.key}`. Invalid names stay verbatim; inserted values are never scanned again;
 * a missing required key or artifact throws a `TemplateError` and nothing is returned.
 */
export async function injectState(template: string, options: TemplateOptions): Promise<string> {
  // Nothing to fill and, with escapes on, nothing to unescape: the template is the text.
  if (!template.includes('{') && !(options.escapes === true && template.includes('\\'))) return template;
  return (await renderTemplate(template, options)).text;
}

/** `injectState`, and also where every inserted value sits in the result. */
export async function renderTemplate(template: string, options: TemplateOptions): Promise<RenderedTemplate> {
  const format = resolveValueFormat(options.valueFormat, options.python);
  const substitutions: Substitution[] = [];
  let text = '';
  for (const token of scanTemplate(template, options)) {
    if (token.type === 'text') {
      text += token.text;
      continue;
    }
    const target = token.target;
    if (target.kind === 'invalid') {
      text += token.text;
      continue;
    }
    const start = text.length;
    const range = { placeholder: token.text, templateStart: token.start, templateEnd: token.end };
    if (target.kind === 'artifact') {
      const value = await readArtifact(target.name, token.optional, options.artifacts);
      text += value ?? '';
      substitutions.push({
        ...range,
        start,
        end: text.length,
        source: { kind: 'artifact', name: target.name, present: value !== undefined },
      });
      continue;
    }
    const present = Object.hasOwn(options.state, target.key);
    if (!present && !token.optional) throw missingStateKey(target.key);
    text += present ? format(options.state[target.key]) : '';
    substitutions.push({
      ...range,
      start,
      end: text.length,
      source: { kind: 'state', key: target.key, scope: target.scope, present },
    });
  }
  return { text, substitutions };
}

async function readArtifact(
  name: string,
  optional: boolean,
  artifacts: ArtifactTextReader | undefined,
): Promise<string | undefined> {
  if (artifacts === undefined) {
    throw new TemplateError({
      code: 'artifact_store_missing',
      key: name,
      message: 'Artifact service is not initialized.',
      hint: `The template reads {artifact.${name}}: pass an artifact store, or remove the placeholder.`,
    });
  }
  const text = await artifacts.readText(name);
  if (text === undefined && !optional) {
    throw new TemplateError({
      code: 'missing_artifact',
      key: name,
      message: `Artifact ${name} not found.`,
      hint: `Save an artifact named '${name}' first, or write {artifact.${name}?} to make it optional.`,
    });
  }
  return text;
}

function missingStateKey(key: string): TemplateError {
  return new TemplateError({
    code: 'missing_state_key',
    key,
    message: `Context variable not found: \`${key}\`.`,
    hint: `Set state key '${key}' before this call, or write {${key}?} to make it optional.`,
  });
}
