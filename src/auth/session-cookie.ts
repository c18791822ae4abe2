// The session cookie: HttpOnly (scripts never see the token), SameSite=Strict (no other site's page
// makes the browser send it), Secure when the console is served over https, Path=/ so that it reaches
// both the console and the management API.
import { SESSION_TTL_MS } from './sessions.js';

export const SESSION_COOKIE = 'console_session';

/** The value of one cookie in a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}

function attributes(secure: boolean, maxAgeSeconds: number): string {
  return `Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export function sessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; ${attributes(secure, Math.floor(SESSION_TTL_MS / 1000))}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; ${attributes(secure, 0)}`;
}
