/**
 * Text every store keeps exactly: well-formed Unicode (no lone surrogate, which UTF-8 cannot encode: SQLite
 * changes it, PostgreSQL and file names refuse it) and no NUL (which PostgreSQL text cannot hold). Identifiers —
 * app names, user ids, session ids, event ids, state keys, artifact names — must be such text, because stores put
 * them in columns, paths and URLs as they are. Values are free: they are stored as JSON, whose escapes keep both.
 */
export function identifierProblem(text: string): string | undefined {
  const nul = text.indexOf('\u0000');
  const lone = loneSurrogateAt(text);
  if (nul === -1 && lone === -1) return undefined;
  if (lone === -1 || (nul !== -1 && nul < lone)) return `contains a NUL character (\\u0000) at index ${nul}`;
  const unit = text.charCodeAt(lone).toString(16).padStart(4, '0');
  return `contains a lone surrogate (\\u${unit}) at index ${lone}: it is not well-formed Unicode`;
}

/** The hint every refused identifier carries. */
export const IDENTIFIER_HINT =
  'Ids, state keys and artifact names must be well-formed Unicode text without NUL characters: every store keeps them as UTF-8 text.';

/** The index of the first surrogate code unit that is not half of a pair, or -1. */
export function loneSurrogateAt(text: string): number {
  if (isWellFormed?.call(text) === true) return -1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i += 1;
        continue;
      }
    }
    return i;
  }
  return -1;
}

// ES2024's String.prototype.isWellFormed (Node 20+), a fast path for long text; the loop above is the rule.
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * `text` with each lone surrogate and NUL replaced by U+FFFD: what every store keeps the same way. For free text kept
 * in plain text columns that is only ever read (an error message, a model's name for a call), where refusing would
 * lose the record; identifiers are refused instead (`identifierProblem`).
 */
export function storableText(text: string): string {
  if (!text.includes('\u0000') && loneSurrogateAt(text) === -1) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += text.slice(i, i + 2);
      i += 1;
    } else {
      out += unit === 0 || (unit >= 0xd800 && unit <= 0xdfff) ? '\ufffd' : text[i];
    }
  }
  return out;
}
