// The filter behind `q` (decisions §4): the title contains the term, ignoring case for every Unicode
// letter; `%`, `_` and `\` are plain characters. Titles are stored case-folded, so the match is an exact
// substring test on folded text. It comes in two forms: one tested on each row an index walk reads, and,
// for terms of a trigram or more, one answered by the trigram index rather than by reading rows.
import { type Expression, type SqlBool, sql } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Executor } from '../context.js';
import { foldCase } from '../text-fold.js';

export interface TitleSearch {
  /** The term as matched: folded like the stored titles. */
  term: string;
  /** A condition on `g` (the guides table) tested on every row read. */
  perRow: Expression<SqlBool>;
  /** The same condition answered by the trigram index; null for terms shorter than a trigram. */
  indexed: Expression<SqlBool> | null;
  /**
   * Counts the term's matches in the whole service, stopping at `cap`, when the index can say so
   * cheaply (SQLite's FTS5 reads its lists lazily); null where it cannot (pg_trgm builds the whole
   * bitmap first, so a common term would cost what the count is meant to avoid).
   */
  countUpTo: ((db: Executor, cap: number) => Promise<number>) | null;
}

const TRIGRAM = 3;

export function titleSearch(dialect: DialectName, q: string): TitleSearch {
  const term = foldCase(q);
  const trigrams = [...term].length >= TRIGRAM;
  if (dialect === 'sqlite') {
    // Inside an FTS5 string every character is literal except the double quote, which is doubled.
    const phrase = `"${term.replaceAll('"', '""')}"`;
    return {
      term,
      perRow: sql<SqlBool>`instr(g.title_folded, ${term}) > 0`,
      indexed: trigrams ? sql<SqlBool>`g.seq IN (SELECT rowid FROM guides_title_search WHERE guides_title_search MATCH ${phrase})` : null,
      countUpTo: trigrams
        ? async (db, cap) => {
            const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM guides_title_search WHERE guides_title_search MATCH ${phrase} LIMIT ${cap})`.execute(db);
            return rows[0]?.n ?? 0;
          }
        : null,
    };
  }
  const pattern = '%' + term.replace(/[\\%_]/g, '\\$&') + '%';
  return {
    term,
    perRow: sql<SqlBool>`strpos(g.title_folded, ${term}) > 0`,
    // pg_trgm's GIN index answers LIKE '%term%'.
    indexed: trigrams ? sql<SqlBool>`g.title_folded LIKE ${pattern} ESCAPE '\\'` : null,
    countUpTo: null,
  };
}
