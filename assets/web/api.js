// Reads the inspector's JSON API. A token, when the inspector needs one, is kept for this tab only (sessionStorage)
// and sent as `Authorization: Bearer …`; `#token=…` in the address sets it and is removed from the address at once.

const TOKEN_KEY = 'agentctx-inspector-token';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function setToken(token) {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

/** GETs `/api/<path>` (segments already encoded) and returns its JSON; throws `ApiError` with the server's message. */
export async function getJson(path) {
  const headers = { accept: 'application/json' };
  const stored = token();
  if (stored) headers.authorization = `Bearer ${stored}`;
  let response;
  try {
    response = await fetch(`/api/${path}`, { headers, cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'unreachable', 'The inspector does not answer: is agentctx web still running?');
  }
  const body = await response.json().catch(() => null);
  if (!response.ok)
    throw new ApiError(
      response.status,
      body?.error?.code ?? 'error',
      body?.error?.message ?? `HTTP ${response.status}`,
    );
  return body;
}

/** The API path of a session: `apps/<app>/users/<user>/sessions/<id>`, each part encoded. */
export function sessionPath(route) {
  return `apps/${encodeURIComponent(route.app)}/users/${encodeURIComponent(route.user)}/sessions/${encodeURIComponent(route.session)}`;
}
