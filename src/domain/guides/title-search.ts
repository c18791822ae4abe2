// The filter behind `q` (decisions §4): the title contains the term, ignoring case for every Unicode
// letter; `%`, `_` and `\` are plain characters. Titles are stored case-folded, so the match is an exact
// substring test on folded text, answered by a trigram index rather than a table scan.
import { type Expression, type SqlBool, sql } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { foldCase } from '../text-fold.js';

export interface TitleSearch {
  /** A condition on `g` (the guides table) that keeps matching titles. */
  condition: Expression<SqlBool>;
  /** True when the condition is answered by the trigram index rather than by reading each row. */
  indexed: boolean;
}

const TRIGRAM = 3;

export function titleSearch(dialect: DialectName, q: string): TitleSearch {
  const term = foldCase(q);
  const indexed = [...term].length >= TRIGRAM;
  if (dialect === 'sqlite') {
    if (!indexed) return { condition: sql<SqlBool>`instr(g.title_folded, ${term}) > 0`, indexed };
    // Inside an FTS5 string every character is literal except the double quote, which is doubled.
    const phrase = `"${term.replaceAll('"', '""')}"`;
    return {
      condition: sql<SqlBool>`g.seq IN (SELECT rowid FROM guides_title_search WHERE guides_title_search MATCH ${phrase})`,
      indexed,
    };
  }
  const pattern = '%' + term.replace(/[\\%_]/g, '\\$&') + '%';
  return { condition: sql<SqlBool>`g.title_folded LIKE ${pattern} ESCAPE '\\'`, indexed };
}
