// The management API as the console calls it: the session cookie goes along by itself, and every change
// carries the session's CSRF token. Failures become ApiError with the problem's words.
import type { Answer, Problem, Session, SignInLinkSent } from './api-types.js';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly detail: string;
  readonly requestId: string | undefined;

  constructor(status: number, problem: Problem) {
    super(problem.detail ?? `The service answered ${status}`);
    this.status = status;
    this.code = problem.code;
    this.detail = problem.detail ?? this.message;
    this.requestId = problem.request_id;
  }
}

let csrfToken: string | null = null;
// Set by a 401 of the management API; the next call first looks for a session signed in meanwhile (the
// cookie is shared by the tabs) and takes its CSRF token, so a retry works without reloading.
let sessionEnded = false;
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
  // A session the shell took (a sign-in, a page drawn again) is the tab's from now on.
  if (token) sessionEnded = false;
}

/** Called when the session is gone (401), so that the console can ask to sign in again. */
let onSignedOut = (): void => {};
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}
/**
 * Asked when a tab whose session ended finds a session again (signed in in another tab): answers whether
 * the tab may go on as it, which it may only as the same person.
 */
let onSignedBackIn = (_session: Session): boolean => false;
export function whenSignedBackIn(handler: (session: Session) => boolean): void {
  onSignedBackIn = handler;
}

/** What a call refused for an ended session says: the page stays as it is, input included. */
export const SESSION_ENDED = 'Your session has ended, so this was not done. What you typed is still here: sign in again in another tab, then try again.';
const SOMEONE_ELSE = 'Someone else is signed in now (in another tab), so this was not done. Reload the page to work as them.';

async function findNewSession(): Promise<void> {
  let session: Session;
  try {
    session = (await call<Answer<Session>>('GET', '/console/api/session')).data;
  } catch {
    return; // Still signed out: the call itself is refused and says so.
  }
  if (!onSignedBackIn(session)) throw new ApiError(401, { detail: SOMEONE_ELSE });
  sessionEnded = false;
  csrfToken = session.csrf_token;
}

/**
 * The Idempotency-Key of each change (shared decisions §11): one per change the person makes, kept until
 * the service has answered it. A second click while the first is on its way, or the same change sent
 * again after the connection failed or the service could not answer, goes with the same key, so the
 * service does it once and answers both alike.
 */
const keys = new Map<string, string>();
function newKey(): string {
  // getRandomValues works where randomUUID does not (a page served over plain http to another host).
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** How long the service asks a repeat to wait while the first is answered (idempotency_key_in_use). */
const IN_USE_WAIT_MS = 1000;
/** How many times at most: a first answer that takes longer than this is said to be late (the 409's words). */
const IN_USE_WAITS = 30;

/**
 * Sends a request and answers its JSON body as T: the caller names what the path answers, which is taken
 * on trust from the service (nothing checks it here). A 204 answers null, so such paths are called with
 * T = null.
 */
async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const management = url.startsWith('/admin/v1/');
  if (management && sessionEnded) await findNewSession();
  const headers: Record<string, string> = { accept: 'application/json' };
  const payloadText = body === undefined ? undefined : JSON.stringify(body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const change = management && method !== 'GET' ? `${method} ${url} ${payloadText ?? ''}` : null;
  if (change !== null) {
    if (!keys.has(change)) keys.set(change, newKey());
    headers['idempotency-key'] = keys.get(change)!;
  }
  let response: Response;
  for (let waited = 0; ; waited++) {
    try {
      response = await fetch(url, { method, headers, body: payloadText, credentials: 'same-origin' });
    } catch {
      throw new ApiError(0, { detail: 'The service cannot be reached. Check the connection and try again.' });
    }
    // The same change, sent a moment ago, is still being answered: its answer is this one's too.
    if (response.status !== 409 || response.headers.get('retry-after') === null || change === null || waited >= IN_USE_WAITS) break;
    await new Promise((resolve) => setTimeout(resolve, IN_USE_WAIT_MS));
  }
  // Answered: the next change, even an identical one, is a new one. A failure the service may not have
  // seen through (5xx) keeps the key for the person's next try.
  if (change !== null && response.status < 500) keys.delete(change);
  if (response.status === 204) return null as T;
  const payload: unknown = await response.json().catch(() => ({}));
  if (!response.ok) {
    if (response.status === 401 && management) {
      sessionEnded = true;
      onSignedOut();
      // Without the code: the API's (invalid_key, for no credentials) would only puzzle here.
      throw new ApiError(401, { detail: SESSION_ENDED, request_id: (payload as Problem).request_id });
    }
    throw new ApiError(response.status, payload as Problem);
  }
  return payload as T;
}

/** The management API under /admin/v1. */
export const api = {
  get: <T>(path: string) => call<T>('GET', `/admin/v1${path}`),
  post: <T = unknown>(path: string, body?: unknown) => call<T>('POST', `/admin/v1${path}`, body),
  patch: <T = unknown>(path: string, body: unknown) => call<T>('PATCH', `/admin/v1${path}`, body),
  put: <T = unknown>(path: string, body?: unknown) => call<T>('PUT', `/admin/v1${path}`, body),
  del: (path: string) => call<null>('DELETE', `/admin/v1${path}`),
};

/** The console's sign-in API under /console/api. */
export const signInApi = {
  whoAmI: () => call<Answer<Session>>('GET', '/console/api/session'),
  requestLink: (email: string) => call<Answer<SignInLinkSent>>('POST', '/console/api/sign-in-links', { email }),
  withLink: (token: string) => call<Answer<Session>>('POST', '/console/api/session', { token }),
  withAdminToken: (adminToken: string) => call<Answer<Session>>('POST', '/console/api/session/operator', { admin_token: adminToken }),
  signOut: () => call<null>('DELETE', '/console/api/session'),
};

/** A query string of the parameters that have a value. */
export const query = (params: Record<string, string | number | null | undefined>): string =>
  new URLSearchParams(
    Object.entries(params).flatMap(([name, value]) => (value === undefined || value === null || value === '' ? [] : [[name, String(value)]])),
  ).toString();
