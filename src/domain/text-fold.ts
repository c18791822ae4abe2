/**
 * Folds case for every Unicode letter so that `ÉCRAN` finds `écran` and `STRASSE` finds `straße`
 * (decisions §4). Upper-casing first maps letters with one-way lowercase (ß, final sigma) together.
 * Titles are stored folded; a search term is folded the same way before matching.
 */
export function foldCase(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase();
}
