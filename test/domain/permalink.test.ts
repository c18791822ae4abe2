// Permalinks (decisions §2): a slug `[a-z0-9]+(-[a-z0-9]+)*` of at most 120 characters, never
// UUID-shaped, made from the title with a short random suffix at creation.
import { describe, expect, it } from 'vitest';
import { PERMALINK_MAX_LENGTH, PERMALINK_PATTERN, isValidPermalink, makePermalink } from '../../src/domain/guides/permalink.js';

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FALLBACK = /^guide-[a-z0-9]{8}$/;

function expectValidSlug(permalink: string): void {
  expect(permalink).toMatch(SLUG);
  expect(permalink.length).toBeLessThanOrEqual(120);
  expect(permalink).not.toMatch(UUID_SHAPE);
  expect(isValidPermalink(permalink)).toBe(true);
}

const TITLES: readonly (string | null)[] = [
  null,
  '',
  '   ',
  '!!!',
  '--- ... ///',
  '-',
  '🎉🎉🎉',
  'How to export a report',
  '  Leading and trailing  ',
  'Crème brûlée à la française',
  'Ångström Ærø Øresund Straße',
  'İstanbul ǅemal',
  'ＦＵＬＬＷＩＤＴＨ １２３',
  'Kelvin K and ﬁle',
  'C++ / C# — 100% _underscores_',
  'مرحبا بالعالم',
  'שלום עולם',
  '中文标题',
  '日本語のガイド',
  '한국어 안내서',
  'Привет мир',
  'Mixed 中文 and English 2024',
  '12345678-1234-1234-1234-123456789012',
  '12345678',
  'a'.repeat(10_000),
  'word '.repeat(2_000),
  'x'.repeat(112) + ' yz',
  'a-'.repeat(5_000),
  '\u0000\u0007\n\r\t',
  'Ⅻ ½ ² ㎏',
];

describe('makePermalink (decisions §2)', () => {
  for (const title of TITLES) {
    const label = title === null ? 'null' : JSON.stringify(title.length > 40 ? `${title.slice(0, 40)}… (${title.length} chars)` : title);
    it(`a permalink made from the title ${label} is a valid slug of at most 120 characters, never UUID-shaped (decisions §2)`, () => {
      for (let i = 0; i < 20; i++) expectValidSlug(makePermalink(title));
    });
  }

  it('the exported pattern and maximum are those of decisions §2', () => {
    expect(PERMALINK_PATTERN).toBe('^[a-z0-9]+(-[a-z0-9]+)*$');
    expect(PERMALINK_MAX_LENGTH).toBe(120);
  });

  it('a permalink is made from the title: lowercase words joined by hyphens, then a short suffix (decisions §2)', () => {
    expect(makePermalink('How to Export a Report!')).toMatch(/^how-to-export-a-report-[a-z0-9]{8}$/);
  });

  it('accents are dropped, keeping the Latin letters (decisions §2)', () => {
    expect(makePermalink('Crème brûlée à la française')).toMatch(/^creme-brulee-a-la-francaise-[a-z0-9]{8}$/);
  });

  it('an empty, null, blank or punctuation-only title falls back to "guide-xxxxxxxx" (decisions §2)', () => {
    for (const title of [null, '', '   ', '!!!', '--- ... ///', '🎉']) expect(makePermalink(title)).toMatch(FALLBACK);
  });

  it('an Arabic, Hebrew, CJK or Cyrillic title falls back to "guide-xxxxxxxx" (decisions §2)', () => {
    for (const title of ['مرحبا بالعالم', 'שלום עולם', '中文标题', '日本語のガイド', '한국어 안내서', 'Привет мир']) {
      expect(makePermalink(title)).toMatch(FALLBACK);
    }
  });

  it('a very long title (10,000 characters) is cut to at most 120 characters, keeping the suffix (decisions §2)', () => {
    const permalink = makePermalink('a'.repeat(10_000));
    expect(permalink.length).toBeLessThanOrEqual(120);
    expect(permalink).toMatch(/^a+-[a-z0-9]{8}$/);
    const words = makePermalink('word '.repeat(2_000));
    expect(words.length).toBeLessThanOrEqual(120);
    expect(words).toMatch(SLUG);
  });

  it('a cut that ends on a hyphen leaves no double or trailing hyphen (decisions §2)', () => {
    for (let n = 100; n < 125; n++) {
      const permalink = makePermalink('x'.repeat(n) + ' yz');
      expectValidSlug(permalink);
      expect(permalink).not.toContain('--');
    }
  });

  it('a UUID-shaped title still gives a permalink that is not UUID-shaped (decisions §2)', () => {
    for (let i = 0; i < 50; i++) {
      const permalink = makePermalink('12345678-1234-1234-1234-123456789012');
      expect(permalink).not.toMatch(UUID_SHAPE);
      expect(isValidPermalink(permalink)).toBe(true);
    }
  });

  it('a permalink carries a random suffix, so the same title gives different permalinks (decisions §2)', () => {
    const made = new Set(Array.from({ length: 200 }, () => makePermalink('Same title')));
    expect(made.size).toBeGreaterThan(195);
    for (const permalink of made) expect(permalink).toMatch(/^same-title-[a-z0-9]{8}$/);
  });
});

describe('isValidPermalink (decisions §2)', () => {
  it('a plain slug is valid (decisions §2)', () => {
    for (const text of ['a', '1', 'how-to-export-x7k2mq', 'guide-abc123', 'a-b-c-1-2-3']) expect(isValidPermalink(text), text).toBe(true);
  });

  it('a slug of exactly 120 characters is valid and one of 121 is not (decisions §2)', () => {
    expect(isValidPermalink('a'.repeat(120))).toBe(true);
    expect(isValidPermalink('a'.repeat(121))).toBe(false);
    expect(isValidPermalink(`${'ab-'.repeat(39)}abc`)).toBe(true);
    expect(isValidPermalink(`${'ab-'.repeat(40)}a`)).toBe(false);
  });

  it('a UUID-shaped string is not a permalink, in any letter case (decisions §2)', () => {
    expect(isValidPermalink('0d9f8e7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f')).toBe(false);
    expect(isValidPermalink('00000000-0000-0000-0000-000000000000')).toBe(false);
    expect(isValidPermalink('12345678-1234-1234-1234-123456789012')).toBe(false);
    expect(isValidPermalink('0D9F8E7C-6B5A-4C3D-8E2F-1A0B9C8D7E6F')).toBe(false);
  });

  it('almost-UUID slugs that are not UUID-shaped are valid (decisions §2)', () => {
    expect(isValidPermalink('0d9f8e7c-6b5a-4c3d-8e2f-1a0b9c8d7e6')).toBe(true);
    expect(isValidPermalink('0d9f8e7c-6b5a-4c3d-8e2f-1a0b9c8d7e6fa')).toBe(true);
    expect(isValidPermalink('0d9f8e7c-6b5a-4c3d-8e2f-1a0b9c8d7e6g')).toBe(true);
  });

  it('uppercase is not a permalink (decisions §2)', () => {
    for (const text of ['How-to', 'A', 'guide-ABC123']) expect(isValidPermalink(text), text).toBe(false);
  });

  it('an empty string is not a permalink (decisions §2)', () => {
    expect(isValidPermalink('')).toBe(false);
  });

  it('double, leading or trailing hyphens are not a permalink (decisions §2)', () => {
    for (const text of ['a--b', '-a', 'a-', '-', '--', 'a---b']) expect(isValidPermalink(text), text).toBe(false);
  });

  it('characters outside [a-z0-9-] are not a permalink (decisions §2)', () => {
    for (const text of ['a_b', 'a b', 'a.b', 'a/b', 'é', 'crème', '中文', 'a\nb', 'a\n', ' a', 'a%20b']) {
      expect(isValidPermalink(text), JSON.stringify(text)).toBe(false);
    }
  });
});
