// The text of an API key (decisions §2): a recognizable prefix, 32 random base62 characters and a
// 6-character checksum. The prefix lets secret scanners find a leaked key; the checksum lets the service
// refuse a mistyped or made-up key without reading the database. Only a SHA-256 hash is stored: the key
// has 190 bits of entropy, so a slow hash adds nothing, and the look-up is by hash so the time it takes
// says nothing about the key.
import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const KEY_PREFIX = 'gsk_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksum(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH);
}

export function generateKeySecret(): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  return KEY_PREFIX + random + checksum(random);
}

/** True when the text has the key's shape and its checksum matches: worth a database look-up. */
export function isWellFormedKeySecret(text: string): boolean {
  if (!KEY_SHAPE.test(text)) return false;
  const random = text.slice(KEY_PREFIX.length, KEY_PREFIX.length + RANDOM_LENGTH);
  return text.endsWith(checksum(random));
}

/** The runs of text that are a key without its prefix (its random part and matching checksum). */
const KEY_BODY_RUN = new RegExp(`(?<![0-9A-Za-z])[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}(?![0-9A-Za-z])`, 'g');

/**
 * The key bodies in a text: what is left of a key whose prefix was dropped or encoded (`gsk%5F…`). The
 * checksum tells them from other runs of letters and digits (one in 62^6 matches by chance).
 */
export function keyBodiesIn(text: string): string[] {
  const found: string[] = [];
  for (const [run] of text.matchAll(KEY_BODY_RUN)) if (run.endsWith(checksum(run.slice(0, RANDOM_LENGTH)))) found.push(run);
  return found;
}

export function hashKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** What a person sees to tell keys apart, never enough to use one. */
export function keySecretHint(secret: string): string {
  return secret.slice(0, KEY_PREFIX.length + 4);
}
