// Searching guide titles by words, ignoring accents (issue 34, MCP's search_guides;
// src/domain/guides/word-search.ts): the same trigram index kinds as v1's title search (0001), over the
// same folded titles, with accents taken off on both sides. v1's `q` keeps its own index, which tells
// `é` from `e` as decisions §4 wants. Only additions: an older process runs on beside them.
//
// On PostgreSQL `unaccent` is not immutable (its dictionary could change), so an index cannot use it
// directly: guide_plain wraps it, naming the extension's schema, so that it also works where the search
// path is empty (pg_restore rebuilds the index that way).
import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { createTitleIndex } from './title-index.js';

export function guideTitleWords(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') {
        await sql`CREATE EXTENSION IF NOT EXISTS unaccent`.execute(db);
        const { rows } = await sql<{ schema: string }>`
          SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent'`.execute(db);
        const schema = sql.id(rows[0]!.schema);
        await sql`CREATE FUNCTION guide_plain(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
          AS $$ SELECT ${schema}.unaccent(${sql.lit(`${rows[0]!.schema}.unaccent`)}::regdictionary, $1) $$`.execute(db);
        await sql`CREATE INDEX guides_title_words ON guides USING gin (guide_plain(title_folded) gin_trgm_ops)`.execute(db);
        return;
      }
      await createTitleIndex(db, 'guides_title_words', 'trigram remove_diacritics 1');
      await sql`INSERT INTO guides_title_words(guides_title_words) VALUES ('rebuild')`.execute(db);
    },
  };
}
