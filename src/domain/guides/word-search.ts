// Searching guides by words, as an assistant asks (issue 34, MCP's search_guides): the words of the
// question in any order, ignoring case and accents, with the words that say nothing about a guide ("how
// do I", "the", "a") left out; a guide matches when its title contains at least one of them (as a part of
// a word: "password" finds "passwords"), and the guides that contain more of them come first, then the
// newest. Each word is looked up in the accent-free trigram index of titles (migration 0018); a word of
// two letters, too short for a trigram, only counts towards the rank of guides another word found, unless
// the question has no longer word, when the titles of the teams asked about are read.
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DialectName } from '../../db/database.js';
import type { Executor } from '../context.js';
import { afterRankedPosition, type KeysetPosition } from '../keyset-cursor.js';
import { foldCase } from '../text-fold.js';

/** Words a question is made of that say nothing about which guide answers it (English). */
const STOP_WORDS = new Set(
  (
    'a about an and are as at be can could do does for from get got has have how i in into is it its me my need ' +
    'of on or our please should so some that the their there this to use using want we what when where which who ' +
    'why will with would you your'
  ).split(' '),
);

/** Words searched at most: the first ones of a long question. */
export const MAX_WORDS = 8;
const TRIGRAM = 3;

/** What a title is compared as: case folded as v1 folds it, accents taken off. */
function plain(text: string): string {
  return foldCase(text).normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

/** The words searched for in `question`, each once, in order: letters and digits, stop words left out. */
export function searchWords(question: string): string[] {
  const words = plain(question).split(/[^\p{L}\p{N}]+/u).filter((word) => [...word].length >= 2 && !STOP_WORDS.has(word));
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/** Whether the title of `g` contains `word`, accents and case aside; `indexed` when the trigram index answers it. */
function containsWord(dialect: DialectName, word: string): { condition: Expression<SqlBool>; indexed: boolean } {
  const indexed = [...word].length >= TRIGRAM;
  if (dialect === 'sqlite') {
    // The index's tokenizer takes accents off the word as it did off the titles.
    if (indexed) return { condition: sql<SqlBool>`g.seq IN (SELECT rowid FROM guides_title_words WHERE guides_title_words MATCH ${`"${word.replaceAll('"', '""')}"`})`, indexed };
    return { condition: sql<SqlBool>`instr(g.title_folded, ${word}) > 0`, indexed };
  }
  const pattern = '%' + word.replace(/[\\%_]/g, '\\$&') + '%';
  return { condition: sql<SqlBool>`guide_plain(g.title_folded) LIKE ${pattern} ESCAPE '\\'`, indexed };
}

/**
 * On PostgreSQL the words as the store takes accents off (unaccent's rules go further than Unicode's
 * decomposition: `ł`, `ø`, `æ`), so that a word and a title meet in the same spelling.
 */
async function storeSpelling(db: Executor, dialect: DialectName, words: string[]): Promise<string[]> {
  if (dialect === 'sqlite' || words.length === 0) return words;
  const { rows } = await sql<{ word: string }>`SELECT guide_plain(w) AS word FROM unnest(CAST(${words} AS text[])) WITH ORDINALITY AS t(w, n) ORDER BY n`.execute(db);
  return rows.map((row) => row.word);
}

export interface RankedPosition {
  id: string;
  created_at: string;
  /** How many of the words the title contains. */
  rank: number;
}

export interface WordSearch {
  /** Whose guides: teams, or every team of an organization. */
  owners: Expression<SqlBool>;
  /** Conditions on `g` every guide listed meets (visible ones only). */
  conditions: Expression<SqlBool>[];
  words: string[];
  after: KeysetPosition | null;
  fetch: number;
}

/** The positions of the guides matching the words, most words first, then newest; empty for no words. */
export async function rankedPositions(db: Executor, dialect: DialectName, search: WordSearch): Promise<RankedPosition[]> {
  const words = await storeSpelling(db, dialect, search.words);
  if (words.length === 0) return [];
  const tests = words.map((word) => containsWord(dialect, word));
  const finders = tests.some((test) => test.indexed) ? tests.filter((test) => test.indexed) : tests;
  const rank: RawBuilder<number> = sql<number>`(${sql.join(tests.map((test) => sql`CASE WHEN ${test.condition} THEN 1 ELSE 0 END`), sql` + `)})`;
  let inner = db
    .selectFrom('guides as g')
    .select(['g.id', 'g.created_at', rank.as('rank')])
    .where(search.owners)
    .where(sql<SqlBool>`(${sql.join(finders.map((test) => test.condition), sql` OR `)})`);
  for (const condition of search.conditions) inner = inner.where(condition);
  let ranked = db.selectFrom(inner.as('r')).select(['r.id', 'r.created_at', 'r.rank']);
  if (search.after) ranked = ranked.where(afterRankedPosition('r', search.after));
  const rows = await ranked.orderBy('r.rank', 'desc').orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(search.fetch).execute();
  return rows.map((row) => ({ id: row.id, created_at: row.created_at, rank: Number(row.rank) }));
}
