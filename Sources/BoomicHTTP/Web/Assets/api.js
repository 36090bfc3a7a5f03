// The page's API (BASE/api/…): JSON over fetch. Every change carries the session's CSRF token
// in X-CSRF-Token; an answer 401 (no session, or it ended) sends the browser to the login page.
// A failure throws an APIError with the server's one-line message.

export class APIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

let current = null;

/// The session: { user, csrf, version, api }, asked once per page load.
export function session() {
  current ??= request('GET', 'session');
  return current;
}

/// The address of an API path, for <img src> and <audio src> (the cookie goes with them).
export function url(path, params) {
  return 'api/' + path + query(params);
}

/// `?a=1&b=2` from an object, leaving out null and undefined; '' for none.
export function query(params) {
  if (!params) return '';
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v));
  return parts.length ? '?' + parts.join('&') : '';
}

export function get(path, params) {
  return request('GET', path + query(params));
}

export function post(path, body) {
  return request('POST', path, body ?? {});
}

export function put(path, body) {
  return request('PUT', path, body ?? {});
}

export function del(path) {
  return request('DELETE', path);
}

export async function logout() {
  try { await post('logout'); } finally { location.assign('login?out'); }
}

async function request(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET' && method !== 'HEAD') headers['X-CSRF-Token'] = (await session()).csrf;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const answer = await fetch('api/' + path, {
    method, headers, credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (answer.status === 401) {
    location.assign('login?expired');
    throw new APIError(401, 'Not logged in.');
  }
  if (answer.status === 204) return null;
  const data = await answer.json().catch(() => null);
  if (!answer.ok) throw new APIError(answer.status, data?.error ?? answer.statusText);
  return data;
}
