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
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the session is gone (401), so that the console can ask to sign in again. */
let onSignedOut = (): void => {};
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/**
 * Sends a request and answers its JSON body as T: the caller names what the path answers, which is taken
 * on trust from the service (nothing checks it here). A 204 answers null, so such paths are called with
 * T = null.
 */
async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, { detail: 'The service cannot be reached. Check the connection and try again.' });
  }
  if (response.status === 204) return null as T;
  const payload: unknown = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new ApiError(response.status, payload as Problem);
    if (response.status === 401 && !url.startsWith('/console/api/session')) onSignedOut();
    throw error;
  }
  return payload as T;
}

/** The management API under /admin/v1. */
export const api = {
  get: <T>(path: string) => call<T>('GET', `/admin/v1${path}`),
  post: <T = unknown>(path: string, body?: unknown) => call<T>('POST', `/admin/v1${path}`, body),
  patch: <T = unknown>(path: string, body: unknown) => call<T>('PATCH', `/admin/v1${path}`, body),
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
