// The management API as the console calls it: the session cookie goes along by itself, and every change
// carries the session's CSRF token. Failures become ApiError with the problem's words.

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail ?? `The service answered ${status}`);
    this.status = status;
    this.code = problem.code;
    this.detail = problem.detail ?? this.message;
    this.requestId = problem.request_id;
  }
}

let csrfToken = null;
export function setCsrfToken(token) {
  csrfToken = token;
}

/** Called when the session is gone (401), so that the console can ask to sign in again. */
let onSignedOut = () => {};
export function whenSignedOut(handler) {
  onSignedOut = handler;
}

async function call(method, url, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, { detail: 'The service cannot be reached. Check the connection and try again.' });
  }
  if (response.status === 204) return null;
  const payload = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new ApiError(response.status, payload);
    if (response.status === 401 && !url.startsWith('/console/api/session')) onSignedOut();
    throw error;
  }
  return payload;
}

/** The management API under /admin/v1. */
export const api = {
  get: (path) => call('GET', `/admin/v1${path}`),
  post: (path, body) => call('POST', `/admin/v1${path}`, body),
  patch: (path, body) => call('PATCH', `/admin/v1${path}`, body),
  del: (path) => call('DELETE', `/admin/v1${path}`),
};

/** The console's sign-in API under /console/api. */
export const signInApi = {
  whoAmI: () => call('GET', '/console/api/session'),
  requestLink: (email) => call('POST', '/console/api/sign-in-links', { email }),
  withLink: (token) => call('POST', '/console/api/session', { token }),
  withAdminToken: (adminToken) => call('POST', '/console/api/session/operator', { admin_token: adminToken }),
  signOut: () => call('DELETE', '/console/api/session'),
};

export const query = (params) =>
  new URLSearchParams(Object.entries(params).filter(([, value]) => value !== undefined && value !== null && value !== '')).toString();
