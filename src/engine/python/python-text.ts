// Python's str.strip() and str.isidentifier(), which ADK's templating relies on.

// Python's str.isspace(): bidi classes WS, B, S and category Zs. JS's \s differs (it has U+FEFF, lacks U+001C–U+001F and U+0085).
const PYTHON_WHITESPACE = new Set(
  '\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000',
);

export function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PYTHON_WHITESPACE.has(text[start] as string)) start++;
  while (end > start && PYTHON_WHITESPACE.has(text[end - 1] as string)) end--;
  return text.slice(start, end);
}

const IDENTIFIER = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;

/** True for names Python accepts as identifiers; keywords such as `class` included, as `str.isidentifier()` does. */
export function isPythonIdentifier(text: string): boolean {
  return IDENTIFIER.test(text);
}

const STATE_NAME_PREFIXES = new Set(['app', 'user', 'temp']);

/** ADK's valid state name: an identifier, or `app:`/`user:`/`temp:` followed by one. */
export function isValidStateName(name: string): boolean {
  const colon = name.indexOf(':');
  if (colon === -1) return isPythonIdentifier(name);
  if (name.indexOf(':', colon + 1) !== -1) return false;
  return STATE_NAME_PREFIXES.has(name.slice(0, colon)) && isPythonIdentifier(name.slice(colon + 1));
}
