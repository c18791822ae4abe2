/**
 * Folds case for every Unicode letter so that `ÉCRAN` finds `écran` and `STRASSE` finds `straße`
 * (decisions §4). Upper-casing first maps letters with one-way lowercase together; the sharp s and
 * the word-final sigma, whose lowercase depends on position, are spelled out; the last normalization
 * makes canonically equal results equal strings. Titles are stored folded; a search term is folded the
 * same way before matching.
 */
export function foldCase(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase().replaceAll('ς', 'σ').replaceAll('ß', 'ss').normalize('NFC');
}

/** The rule v1's title search applies in SQL (guides/title-search.ts), for a title and a term already folded. */
export function titleContains(foldedTitle: string, term: string): boolean {
  return foldedTitle.includes(term);
}
