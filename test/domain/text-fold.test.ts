// Case folding behind `q` and team ordering (decisions §4): `q` matches when the title contains it,
// ignoring case for all Unicode letters (`ÉCRAN` finds `écran`). Titles are stored folded and the term is
// folded the same way, then matched as a plain substring, so these tests check both equality of folds and
// the substring match that the search actually performs.
import { describe, expect, it } from 'vitest';
import { foldCase } from '../../src/domain/text-fold.js';

/** What the title search does: a substring test on folded text. */
function finds(title: string, q: string): boolean {
  return foldCase(title).includes(foldCase(q));
}

describe('foldCase (decisions §4)', () => {
  it('ÉCRAN folds to écran (decisions §4)', () => {
    expect(foldCase('ÉCRAN')).toBe('écran');
  });

  it('ÉCRAN finds écran and écran finds ÉCRAN (decisions §4)', () => {
    expect(finds('Régler l’écran', 'ÉCRAN')).toBe(true);
    expect(finds('RÉGLER L’ÉCRAN', 'écran')).toBe(true);
  });

  it('ASCII letters fold to lowercase and other characters are kept (decisions §4)', () => {
    expect(foldCase('Hello, World! 123 %_\\')).toBe('hello, world! 123 %_\\');
  });

  it('folding is idempotent (titles are stored folded, decisions §4)', () => {
    for (const text of ['ÉCRAN', 'Straße', 'ΟΔΟΣ', 'İstanbul', 'ǅemal', 'ﬁle', 'Ꮳ']) {
      expect(foldCase(foldCase(text))).toBe(foldCase(text));
    }
  });

  it('STRASSE and straße fold equal, and each finds the other (decisions §4)', () => {
    expect(foldCase('STRASSE')).toBe(foldCase('straße'));
    expect(finds('Hauptstraße 5', 'STRASSE')).toBe(true);
    expect(finds('HAUPTSTRASSE 5', 'straße')).toBe(true);
  });

  it('capital sharp s ẞ (U+1E9E) folds like ß and SS: STRAẞE finds straße (decisions §4)', () => {
    expect(foldCase('STRAẞE')).toBe(foldCase('straße'));
    expect(foldCase('STRAẞE')).toBe(foldCase('STRASSE'));
    expect(finds('HAUPTSTRAẞE', 'straße')).toBe(true);
  });

  it('Greek final sigma ς, sigma σ and capital Σ fold equal (decisions §4)', () => {
    expect(foldCase('ς')).toBe(foldCase('σ'));
    expect(foldCase('Σ')).toBe(foldCase('σ'));
    expect(foldCase('ΟΔΟΣ')).toBe(foldCase('οδος'));
    expect(foldCase('ΟΔΟΣ')).toBe(foldCase('οδοσ'));
    expect(finds('Η ΟΔΟΣ', 'οδος')).toBe(true);
  });

  it('a search term ending in sigma finds a title where that sigma is inside a word: ΑΣ finds Ασφάλεια (decisions §4)', () => {
    expect(finds('Ασφάλεια', 'ΑΣ')).toBe(true);
    expect(finds('Ασφάλεια', 'ασ')).toBe(true);
    expect(finds('ΑΣΦΑΛΕΙΑ', 'ασ')).toBe(true);
  });

  it('a title word ending in sigma is found by a longer term that continues past it (decisions §4)', () => {
    expect(finds('ΟΔΟΣ', 'οδοσ')).toBe(true);
    expect(finds('οδος', 'ΟΔΟΣ')).toBe(true);
  });

  it('precomposed (NFC) and decomposed (NFD) é fold equal and find each other (decisions §4)', () => {
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    expect(foldCase(nfc)).toBe(foldCase(nfd));
    expect(foldCase('CAFE\u0301')).toBe(foldCase(nfc));
    expect(finds(`Le ${nfd}`, 'CAFÉ')).toBe(true);
    expect(finds(`LE ${nfc.toUpperCase()}`, nfd)).toBe(true);
  });

  it('a letter whose case mapping decomposes still folds equal to its other case: ΐ and Ϊ́ (decisions §4)', () => {
    // U+0390 and U+03AA U+0301 are the lower- and uppercase of the same letter.
    expect(foldCase('\u0390')).toBe(foldCase('\u03AA\u0301'));
    expect(foldCase('\u0390').normalize('NFC')).toBe(foldCase('\u0390'));
  });

  it('Cyrillic, Armenian and Cherokee letters fold case (decisions §4)', () => {
    expect(finds('Настройки ЭКРАНА', 'экрана')).toBe(true);
    expect(finds('ՀԱՅԵՐԵՆ', 'հայերեն')).toBe(true);
    expect(foldCase('Ꭰ')).toBe(foldCase('ꭰ'));
  });

  it('compatibility letters fold with their plain forms where Unicode case folding does: µ/μ, ſ/s, ﬁ/FI (decisions §4)', () => {
    expect(foldCase('µ')).toBe(foldCase('Μ'));
    expect(foldCase('ſ')).toBe(foldCase('S'));
    expect(finds('ﬁle', 'FILE')).toBe(true);
  });

  it('titlecase digraphs fold with their upper and lower forms: ǅ Ǆ ǆ (decisions §4)', () => {
    expect(foldCase('ǅ')).toBe(foldCase('Ǆ'));
    expect(foldCase('ǆ')).toBe(foldCase('Ǆ'));
  });

  it('text without case (CJK, Arabic, emoji, digits) is unchanged (decisions §4)', () => {
    for (const text of ['中文标题', 'مرحبا', '🎉✅', '12345', '']) expect(foldCase(text)).toBe(text.normalize('NFC'));
  });

  it('%, _ and \\ are plain characters that fold to themselves (decisions §4)', () => {
    expect(foldCase('100%_\\')).toBe('100%_\\');
    expect(finds('a_b', '_')).toBe(true);
    expect(finds('ab', '_')).toBe(false);
  });
});
