/** The token of an `Authorization: Bearer <token>` header, or null when there is none. */
export function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  return /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? null;
}

/** The protection space of every bearer credential the service takes (API keys, the admin token). */
const REALM = 'guide-service';

/**
 * The `WWW-Authenticate` challenge every 401 carries (RFC 9110 §11.6.1, RFC 6750 §3): bare when the request
 * sent no bearer token (none, or another scheme), with error="invalid_token" and `refused` (plain words,
 * no quote or backslash) as its description when the token it sent was refused.
 */
export function bearerChallenge(refused?: string): Record<'www-authenticate', string> {
  const challenge = `Bearer realm="${REALM}"`;
  return { 'www-authenticate': refused === undefined ? challenge : `${challenge}, error="invalid_token", error_description="${refused}"` };
}
