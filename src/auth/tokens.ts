// Secrets of the console (sign-in link tokens, session tokens, CSRF tokens): 256 random bits in
// base64url. Only their SHA-256 is stored; they carry enough entropy that a slow hash adds nothing.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newConsoleToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashConsoleToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Compares two secrets in constant time whatever their lengths. */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** A token as the console hands them out: base64url of 32 bytes. Anything else is refused unread. */
export function isConsoleTokenShaped(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}
