// Keyset cursors of the guide list (decisions §4): a cursor is bound to the key and to the filters
// (`team_id`, `q`) it came from; one that does not decode, was altered, or comes with other filters is
// refused (the route turns the refusal, null here, into 400 invalid_request naming `cursor`).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type CursorBinding, type KeysetPosition, decodeCursor, encodeCursor } from '../../src/domain/keyset-cursor.js';

const SECRET = Buffer.from('0123456789abcdef0123456789abcdef');
const OTHER_SECRET = Buffer.from('fedcba9876543210fedcba9876543210');
const TEAM = '5f0c6c1e-8a57-4f5e-9a57-2f3b8f1d6a10';
const OTHER_TEAM = '9b2e4d7a-1c3f-4e6b-8d2a-7c5e9f0b1a23';
const KEY = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const OTHER_KEY = 'd4c3b2a1-6f5e-4b7a-9d8c-5c4b3a2f1e0d';

const POSITION: KeysetPosition = { createdAt: '2026-11-21T09:30:00.000Z', id: '0d9f8e7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f' };
const BINDING: CursorBinding = { holder: KEY, filters: [TEAM, 'invoice'] };

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function cursor(binding: CursorBinding = BINDING, position: KeysetPosition = POSITION): string {
  return encodeCursor(SECRET, binding, position);
}

function replaceAt(text: string, index: number, ch: string): string {
  return text.slice(0, index) + ch + text.slice(index + 1);
}

describe('guide cursor: round trip (decisions §4)', () => {
  it('a position in a ranked list (MCP word search) keeps its rank; a rank that is not a small whole number is refused even when signed', () => {
    const ranked = { ...POSITION, rank: 3 };
    expect(decodeCursor(SECRET, BINDING, cursor(BINDING, ranked))).toEqual(ranked);
    for (const rank of [-1, 100, 1.5, Number.NaN]) expect(decodeCursor(SECRET, BINDING, cursor(BINDING, { ...POSITION, rank }))).toBeNull();
  });

  it('a cursor decodes, with the same key and filters, to the position it was made from (decisions §4)', () => {
    expect(decodeCursor(SECRET, BINDING, cursor())).toEqual(POSITION);
  });

  it('a cursor made without filters decodes without filters (decisions §4)', () => {
    const binding: CursorBinding = { holder: KEY, filters: [undefined, undefined] };
    expect(decodeCursor(SECRET, binding, cursor(binding))).toEqual(POSITION);
  });

  it('an absent filter is the same whether it is written undefined or null (decisions §4)', () => {
    const made = cursor({ holder: KEY, filters: [undefined, 'q'] });
    expect(decodeCursor(SECRET, { holder: KEY, filters: [null, 'q'] }, made)).toEqual(POSITION);
  });

  it('a cursor with a Unicode, quote- and pipe-holding q round-trips (decisions §4)', () => {
    const binding: CursorBinding = { holder: KEY, filters: [TEAM, 'ÉCRAN "x" | 100% _\\ 🎉'] };
    expect(decodeCursor(SECRET, binding, cursor(binding))).toEqual(POSITION);
  });

  it('a cursor is opaque URL-safe text (decisions §4, spec next_cursor)', () => {
    expect(cursor()).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(cursor()).not.toContain(POSITION.id);
  });

  it('many positions round-trip (decisions §4)', () => {
    for (let i = 0; i < 200; i++) {
      const ms = Date.UTC(2020, 0, 1) + i * 7_919_311_123;
      const hex = randomBytes(16).toString('hex');
      const position = {
        createdAt: new Date(ms).toISOString(),
        id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`,
      };
      expect(decodeCursor(SECRET, BINDING, cursor(BINDING, position))).toEqual(position);
    }
  });
});

describe('guide cursor: an altered cursor is refused (decisions §4)', () => {
  it('a cursor whose payload was altered is refused (decisions §4)', () => {
    const good = cursor();
    const [payload, tag] = good.split('.') as [string, string];
    const middle = Math.floor(payload.length / 2);
    const altered = replaceAt(payload, middle, payload[middle] === 'A' ? 'B' : 'A');
    expect(decodeCursor(SECRET, BINDING, `${altered}.${tag}`)).toBeNull();
  });

  it('a cursor naming another position with the original MAC is refused (decisions §4)', () => {
    const [, tag] = cursor().split('.') as [string, string];
    const forged = Buffer.from(`2030-01-01T00:00:00.000Z|${POSITION.id}`).toString('base64url');
    expect(decodeCursor(SECRET, BINDING, `${forged}.${tag}`)).toBeNull();
  });

  it('a cursor whose MAC was altered is refused (decisions §4)', () => {
    const good = cursor();
    const dot = good.indexOf('.');
    const index = dot + 5;
    const altered = replaceAt(good, index, good[index] === 'A' ? 'B' : 'A');
    expect(decodeCursor(SECRET, BINDING, altered)).toBeNull();
  });

  it('every one-character change anywhere in a cursor is refused (decisions §4: "was altered")', () => {
    const good = cursor();
    const accepted: string[] = [];
    for (let i = 0; i < good.length; i++) {
      for (const ch of BASE64URL + '.') {
        if (ch === good[i]) continue;
        const altered = replaceAt(good, i, ch);
        if (decodeCursor(SECRET, BINDING, altered) !== null) accepted.push(`position ${i}: ${good[i]}→${ch}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('a truncated cursor is refused (decisions §4)', () => {
    const good = cursor();
    const [payload, tag] = good.split('.') as [string, string];
    for (const bad of [good.slice(0, -1), good.slice(1), good.slice(0, good.length / 2), payload, `${payload}.`, `.${tag}`, tag, `${payload.slice(0, -4)}.${tag}`]) {
      expect(decodeCursor(SECRET, BINDING, bad), bad).toBeNull();
    }
  });

  it('garbage is refused (decisions §4)', () => {
    for (const bad of ['x', '.', '..', 'abc.def', 'null', '{"id":1}', '%00', '!!!!.!!!!!!!!!!!!!!!!!!!!!!', 'a.b.c', `${'A'.repeat(82)}.${'A'.repeat(22)}`, randomBytes(60).toString('base64url') + '.' + randomBytes(16).toString('base64url')]) {
      expect(decodeCursor(SECRET, BINDING, bad), bad).toBeNull();
    }
  });

  it('an empty cursor is refused (decisions §4)', () => {
    expect(decodeCursor(SECRET, BINDING, '')).toBeNull();
  });

  it('a huge cursor is refused (decisions §4)', () => {
    const [, tag] = cursor().split('.') as [string, string];
    expect(decodeCursor(SECRET, BINDING, `${'A'.repeat(1_000_000)}.${tag}`)).toBeNull();
    expect(decodeCursor(SECRET, BINDING, cursor().repeat(10_000))).toBeNull();
    expect(decodeCursor(SECRET, BINDING, `${cursor()}${'A'.repeat(100_000)}`)).toBeNull();
  });

  it('a cursor with padding, whitespace or a line break added is refused (decisions §4)', () => {
    const good = cursor();
    for (const bad of [`${good}=`, `${good}==`, ` ${good}`, `${good} `, `${good}\n`, `\n${good}`, good.replace('.', ' .')]) {
      expect(decodeCursor(SECRET, BINDING, bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('a cursor holding characters outside base64url (+, /, =, %) is refused (decisions §4)', () => {
    const good = cursor();
    for (const ch of ['+', '/', '=', '%']) {
      expect(decodeCursor(SECRET, BINDING, replaceAt(good, 0, ch)), ch).toBeNull();
      expect(decodeCursor(SECRET, BINDING, replaceAt(good, good.length - 1, ch)), ch).toBeNull();
    }
  });
});

describe('guide cursor: bound to the key and the filters (decisions §4)', () => {
  it('a cursor used by another holder (key) is refused (decisions §4)', () => {
    expect(decodeCursor(SECRET, { holder: OTHER_KEY, filters: BINDING.filters }, cursor())).toBeNull();
    expect(decodeCursor(SECRET, { holder: 'admin', filters: BINDING.filters }, cursor())).toBeNull();
  });

  it('a cursor used with another team_id is refused (decisions §4)', () => {
    expect(decodeCursor(SECRET, { holder: KEY, filters: [OTHER_TEAM, 'invoice'] }, cursor())).toBeNull();
  });

  it('a cursor used with another q is refused (decisions §4)', () => {
    for (const q of ['invoices', 'Invoice', 'invoice ', '', 'inv']) {
      expect(decodeCursor(SECRET, { holder: KEY, filters: [TEAM, q] }, cursor()), q).toBeNull();
    }
  });

  it('a cursor made with a filter is refused without it, and one made without a filter is refused with it (decisions §4)', () => {
    expect(decodeCursor(SECRET, { holder: KEY, filters: [undefined, 'invoice'] }, cursor())).toBeNull();
    expect(decodeCursor(SECRET, { holder: KEY, filters: [TEAM, undefined] }, cursor())).toBeNull();
    const unfiltered = cursor({ holder: KEY, filters: [undefined, undefined] });
    expect(decodeCursor(SECRET, { holder: KEY, filters: [TEAM, undefined] }, unfiltered)).toBeNull();
    expect(decodeCursor(SECRET, { holder: KEY, filters: [undefined, 'invoice'] }, unfiltered)).toBeNull();
  });

  it('an empty q is a different filter from no q (decisions §4)', () => {
    const withEmpty = cursor({ holder: KEY, filters: [TEAM, ''] });
    expect(decodeCursor(SECRET, { holder: KEY, filters: [TEAM, undefined] }, withEmpty)).toBeNull();
  });

  it('a team_id moved into the q position is refused (filters are positional, decisions §4)', () => {
    const made = cursor({ holder: KEY, filters: [TEAM, undefined] });
    expect(decodeCursor(SECRET, { holder: KEY, filters: [undefined, TEAM] }, made)).toBeNull();
  });

  it('a holder and filter split differently is refused (the binding is unambiguous, decisions §4)', () => {
    const made = cursor({ holder: 'a|b', filters: ['c', undefined] });
    expect(decodeCursor(SECRET, { holder: 'a', filters: ['b|c', undefined] }, made)).toBeNull();
    const made2 = cursor({ holder: 'a","b', filters: [undefined, undefined] });
    expect(decodeCursor(SECRET, { holder: 'a', filters: ['b', undefined] }, made2)).toBeNull();
  });

  it('a cursor checked with another secret is refused (decisions §4)', () => {
    expect(decodeCursor(OTHER_SECRET, BINDING, cursor())).toBeNull();
    expect(decodeCursor(Buffer.alloc(0), BINDING, cursor())).toBeNull();
  });
});

describe('guide cursor: a correctly signed payload must still name a position (decisions §2, §4)', () => {
  it('a signed payload with an extra "|" field is refused (decisions §4)', () => {
    const made = encodeCursor(SECRET, BINDING, { createdAt: POSITION.createdAt, id: `${POSITION.id}|extra` });
    expect(decodeCursor(SECRET, BINDING, made)).toBeNull();
    const made2 = encodeCursor(SECRET, BINDING, { createdAt: `${POSITION.createdAt}|x`, id: POSITION.id });
    expect(decodeCursor(SECRET, BINDING, made2)).toBeNull();
  });

  it('a signed payload with a non-UUID id is refused (ids are UUIDs, decisions §2)', () => {
    for (const id of ['not-a-uuid', '', '123', `${POSITION.id}0`, POSITION.id.replace(/-/g, ''), 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz']) {
      const made = encodeCursor(SECRET, BINDING, { createdAt: POSITION.createdAt, id });
      expect(decodeCursor(SECRET, BINDING, made), id).toBeNull();
    }
  });

  it('a signed payload with a malformed timestamp is refused (RFC 3339 UTC with milliseconds, decisions §2)', () => {
    for (const createdAt of [
      '',
      '2026-11-21',
      '2026-11-21T09:30:00Z',
      '2026-11-21T09:30:00.000',
      '2026-11-21T09:30:00.000+01:00',
      '2026-11-21 09:30:00.000Z',
      '2026-11-21T09:30:00.000z',
      '2026-11-21T09:30:00.0000Z',
      'yesterday',
      '1763717400000',
    ]) {
      const made = encodeCursor(SECRET, BINDING, { createdAt, id: POSITION.id });
      expect(decodeCursor(SECRET, BINDING, made), createdAt).toBeNull();
    }
  });
});
