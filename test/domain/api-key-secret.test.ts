// API key text (decisions §2): a recognizable prefix and a checksum, so that a malformed key is refused
// without a database read and a leaked one can be found by secret scanners; only a hash is stored.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  KEY_PREFIX,
  generateKeySecret,
  hashKeySecret,
  isWellFormedKeySecret,
  keySecretHint,
} from '../../src/domain/api-key-secret.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = /^gsk_[0-9A-Za-z]{38}$/;

function replaceAt(text: string, index: number, ch: string): string {
  return text.slice(0, index) + ch + text.slice(index + 1);
}

describe('API key secret: generation (decisions §2)', () => {
  it('a generated key starts with the recognizable prefix (decisions §2)', () => {
    expect(KEY_PREFIX).toBe('gsk_');
    for (let i = 0; i < 50; i++) expect(generateKeySecret().startsWith(KEY_PREFIX)).toBe(true);
  });

  it('a generated key is well formed: prefix then 38 base62 characters, and passes its own checksum (decisions §2)', () => {
    for (let i = 0; i < 500; i++) {
      const key = generateKeySecret();
      expect(key).toMatch(KEY_SHAPE);
      expect(isWellFormedKeySecret(key)).toBe(true);
    }
  });

  it('generated keys are unique (decisions §2)', () => {
    const keys = new Set(Array.from({ length: 5000 }, () => generateKeySecret()));
    expect(keys.size).toBe(5000);
  });

  it('generated keys use the whole base62 alphabet in their random part (decisions §2)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) for (const ch of generateKeySecret().slice(KEY_PREFIX.length, KEY_PREFIX.length + 32)) seen.add(ch);
    expect([...seen].sort().join('')).toBe([...BASE62].sort().join(''));
  });
});

describe('API key secret: the checksum refuses a malformed key without a database read (decisions §2)', () => {
  it('a one-character change at every position of a key is refused (decisions §2)', () => {
    const key = generateKeySecret();
    const accepted: string[] = [];
    for (let i = 0; i < key.length; i++) {
      for (const ch of BASE62 + '_') {
        if (ch === key[i]) continue;
        const altered = replaceAt(key, i, ch);
        if (isWellFormedKeySecret(altered)) accepted.push(`position ${i}: ${key[i]}→${ch}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('a one-character change is refused for many keys (checksum, decisions §2)', () => {
    for (let n = 0; n < 50; n++) {
      const key = generateKeySecret();
      for (let i = KEY_PREFIX.length; i < key.length; i++) {
        const ch = key[i] === 'a' ? 'b' : 'a';
        expect(isWellFormedKeySecret(replaceAt(key, i, ch)), `${key} at ${i}`).toBe(false);
      }
    }
  });

  it('two neighbouring characters swapped are refused (decisions §2)', () => {
    const key = generateKeySecret();
    for (let i = KEY_PREFIX.length; i < key.length - 1; i++) {
      if (key[i] === key[i + 1]) continue;
      const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
      expect(isWellFormedKeySecret(swapped), `swap at ${i}`).toBe(false);
    }
  });

  it('a key with the wrong prefix is refused (decisions §2)', () => {
    const body = generateKeySecret().slice(KEY_PREFIX.length);
    for (const prefix of ['', 'gsk', 'GSK_', 'gsk-', 'sk_', 'gsk__', 'xgsk_', 'ghp_']) {
      expect(isWellFormedKeySecret(prefix + body), prefix).toBe(false);
    }
  });

  it('a key of the wrong length is refused (decisions §2)', () => {
    const key = generateKeySecret();
    expect(isWellFormedKeySecret(key.slice(0, -1))).toBe(false);
    expect(isWellFormedKeySecret(key + 'a')).toBe(false);
    expect(isWellFormedKeySecret(key + key.slice(KEY_PREFIX.length))).toBe(false);
    expect(isWellFormedKeySecret(KEY_PREFIX)).toBe(false);
    expect(isWellFormedKeySecret('')).toBe(false);
  });

  it('a key with a non-base62 character is refused (decisions §2)', () => {
    const key = generateKeySecret();
    for (const ch of ['-', '_', '+', '/', '=', '.', 'é', 'Ａ', '０', '\u0000']) {
      expect(isWellFormedKeySecret(replaceAt(key, 10, ch)), JSON.stringify(ch)).toBe(false);
    }
  });

  it('a key with whitespace added or inside is refused (decisions §2)', () => {
    const key = generateKeySecret();
    for (const bad of [` ${key}`, `${key} `, `${key}\n`, `\t${key}`, replaceAt(key, 12, ' '), `Bearer ${key}`]) {
      expect(isWellFormedKeySecret(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('a made-up key of the right shape is refused by the checksum (decisions §2)', () => {
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      let made = KEY_PREFIX;
      for (let j = 0; j < 38; j++) made += BASE62[Math.floor(Math.random() * 62)];
      if (isWellFormedKeySecret(made)) accepted++;
    }
    expect(accepted).toBe(0);
    expect(isWellFormedKeySecret(KEY_PREFIX + '0'.repeat(38))).toBe(false);
    expect(isWellFormedKeySecret(KEY_PREFIX + 'a'.repeat(38))).toBe(false);
  });
});

describe('API key secret: hash and hint (decisions §2)', () => {
  it('the hash is the hex SHA-256 of the key (decisions §2)', () => {
    const key = generateKeySecret();
    const hash = hashKeySecret(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
  });

  it('the hash is stable for one key and differs between keys (decisions §2)', () => {
    const key = generateKeySecret();
    expect(hashKeySecret(key)).toBe(hashKeySecret(key));
    expect(hashKeySecret(key)).toBe(hashKeySecret(`${key}`.slice(0)));
    expect(hashKeySecret(key)).not.toBe(hashKeySecret(generateKeySecret()));
    expect(hashKeySecret(key)).not.toBe(hashKeySecret(key.toUpperCase()));
  });

  it('the hash does not contain the key (only a hash is stored, decisions §2)', () => {
    const key = generateKeySecret();
    expect(hashKeySecret(key)).not.toContain(key.slice(KEY_PREFIX.length));
  });

  it('the hint is a prefix of the key, shorter than the key, and shows the recognizable prefix (decisions §2)', () => {
    for (let i = 0; i < 100; i++) {
      const key = generateKeySecret();
      const hint = keySecretHint(key);
      expect(key.startsWith(hint)).toBe(true);
      expect(hint.length).toBeLessThan(key.length);
      expect(hint.startsWith(KEY_PREFIX)).toBe(true);
    }
  });

  it('the hint reveals too little of the key to use or guess it (decisions §2)', () => {
    const key = generateKeySecret();
    const hint = keySecretHint(key);
    expect(isWellFormedKeySecret(hint)).toBe(false);
    // At least 22 of the 32 random base62 characters (over 128 bits) stay hidden.
    expect(hint.length - KEY_PREFIX.length).toBeLessThanOrEqual(10);
  });
});
