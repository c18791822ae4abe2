/** The token of an `Authorization: Bearer <token>` header, or null when there is none. */
export function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  return /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? null;
}
