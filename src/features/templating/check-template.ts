import type { StateScope } from '../../engine/state/state-keys.js';
import { scanTemplate, type ScanOptions } from './scan-template.js';

export type CheckTemplateOptions = ScanOptions & {
  /** State to check placeholders against; without it every placeholder is `unchecked`. */
  state?: Readonly<Record<string, unknown>> | undefined;
  /** Names of the artifacts that exist; `undefined` means no artifact store, where ADK fails on any `{artifact.…}`. */
  artifactNames?: readonly string[] | undefined;
};

export type PlaceholderStatus = 'resolves' | 'missing' | 'optional-missing' | 'no-artifact-store' | 'unchecked';

export type TemplatePlaceholder = {
  text: string;
  start: number;
  end: number;
  kind: 'state' | 'artifact';
  /** The state key or the artifact name looked up. */
  key: string;
  scope: StateScope | 'artifact';
  optional: boolean;
  /** Written `{state.key}`. */
  alias: boolean;
  status: PlaceholderStatus;
};

/** Brace text that will reach the model exactly as written. */
export type TemplateLiteral = {
  text: string;
  start: number;
  end: number;
  reason: 'not-a-name' | 'unmatched-brace';
};

/** Something that works, but probably not as the author meant. */
export type TemplateNote = {
  start: number;
  end: number;
  message: string;
};

export type TemplateReport = {
  placeholders: TemplatePlaceholder[];
  literals: TemplateLiteral[];
  notes: TemplateNote[];
  /** False when rendering against the given state would throw. */
  ok: boolean;
};

/**
 * Lists what a template will do before it runs: each placeholder with its scope and whether it resolves,
 * and every piece of brace text that will be left verbatim (ADK leaves those silently, and users find out at run time).
 */
export function checkTemplate(template: string, options: CheckTemplateOptions = {}): TemplateReport {
  const placeholders: TemplatePlaceholder[] = [];
  const literals: TemplateLiteral[] = [];
  const notes: TemplateNote[] = [];
  const artifactNames = options.artifactNames === undefined ? undefined : new Set(options.artifactNames);
  for (const token of scanTemplate(template, options)) {
    if (token.type === 'text') {
      collectUnmatchedBraces(template, token.start, token.end, options.escapes === true, literals);
      continue;
    }
    const { target } = token;
    const base = { text: token.text, start: token.start, end: token.end, optional: token.optional };
    if (target.kind === 'invalid') {
      literals.push({ text: token.text, start: token.start, end: token.end, reason: 'not-a-name' });
      continue;
    }
    if (target.kind === 'artifact') {
      const status: PlaceholderStatus =
        artifactNames === undefined ? 'no-artifact-store' : statusOf(artifactNames.has(target.name), token.optional);
      placeholders.push({ ...base, kind: 'artifact', key: target.name, scope: 'artifact', alias: false, status });
    } else {
      const status: PlaceholderStatus =
        options.state === undefined ? 'unchecked' : statusOf(Object.hasOwn(options.state, target.key), token.optional);
      placeholders.push({ ...base, kind: 'state', key: target.key, scope: target.scope, alias: target.alias, status });
    }
    if (/^\{\{/.test(token.text) && /\}\}$/.test(token.text)) {
      notes.push({
        start: token.start,
        end: token.end,
        message: `${token.text} is a placeholder, not an escape: ADK replaces doubled braces too. For literal braces enable escapes and write \\{...\\}.`,
      });
    }
  }
  const ok = placeholders.every((p) => p.status !== 'missing' && p.status !== 'no-artifact-store');
  return { placeholders, literals, notes, ok };
}

function statusOf(present: boolean, optional: boolean): PlaceholderStatus {
  if (present) return 'resolves';
  return optional ? 'optional-missing' : 'missing';
}

function collectUnmatchedBraces(
  template: string,
  start: number,
  end: number,
  escapes: boolean,
  out: TemplateLiteral[],
): void {
  for (let i = start; i < end; i++) {
    const char = template[i];
    if (char !== '{' && char !== '}') continue;
    if (escapes && isEscaped(template, i)) continue;
    out.push({ text: char, start: i, end: i + 1, reason: 'unmatched-brace' });
  }
}

function isEscaped(template: string, index: number): boolean {
  return template[index - 1] === '\\' && template[index - 2] !== '\\';
}
