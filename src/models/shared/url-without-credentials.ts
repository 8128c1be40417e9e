// Query parameters that carry a credential (Google's `key=`, and the names other APIs give a key or token).
const CREDENTIAL_PARAMETERS: ReadonlySet<string> = new Set(['key', 'api_key', 'api-key', 'apikey', 'access_token']);

/**
 * The URL without the credentials it may carry: a `user:password@` part and credential query parameters are dropped.
 * The rest is kept character for character (not re-encoded), so a URL that carries none comes back unchanged.
 */
export function urlWithoutCredentials(url: string): string {
  const withoutUser = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1');
  const match = /^([^?#]*)\?([^#]*)(#.*)?$/.exec(withoutUser);
  if (match === null) return withoutUser;
  const [, path = '', query = '', fragment = ''] = match;
  const kept = query.split('&').filter((pair) => !CREDENTIAL_PARAMETERS.has(parameterName(pair)));
  return `${path}${kept.length === 0 ? '' : `?${kept.join('&')}`}${fragment}`;
}

function parameterName(pair: string): string {
  const name = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}
