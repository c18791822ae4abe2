// Permalinks (decisions §2): a slug made from the title with a short random suffix, at most 120
// characters, never shaped like a UUID, unique across the service.
import { randomInt } from 'node:crypto';
import { isUuidShaped } from '../ids.js';

export const PERMALINK_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';
export const PERMALINK_MAX_LENGTH = 120;
const SLUG = new RegExp(PERMALINK_PATTERN);
const SUFFIX_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const SUFFIX_LENGTH = 8;

export function isValidPermalink(text: string): boolean {
  return text.length <= PERMALINK_MAX_LENGTH && SLUG.test(text) && !isUuidShaped(text);
}

function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function makePermalink(title: string | null): string {
  const base = slugify(title ?? '').slice(0, PERMALINK_MAX_LENGTH - SUFFIX_LENGTH - 1).replace(/-+$/, '') || 'guide';
  let suffix = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) suffix += SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)];
  return `${base}-${suffix}`;
}
