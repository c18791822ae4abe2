// SQLite: a trigram index over the guides' folded titles, kept in step with the table by triggers (an FTS5
// table whose content is the guides table). v1's title search has one (0001); MCP's word search another
// that takes accents off (0018).
import { type Kysely, sql } from 'kysely';

export async function createTitleIndex(db: Kysely<any>, name: string, tokenize: string): Promise<void> {
  const index = sql.id(name);
  await sql`CREATE VIRTUAL TABLE ${index} USING fts5(title_folded, content='guides', content_rowid='seq', tokenize=${sql.lit(tokenize)})`.execute(db);
  await sql`CREATE TRIGGER ${sql.id(`${name}_insert`)} AFTER INSERT ON guides BEGIN
    INSERT INTO ${index}(rowid, title_folded) VALUES (new.seq, new.title_folded);
  END`.execute(db);
  await sql`CREATE TRIGGER ${sql.id(`${name}_delete`)} AFTER DELETE ON guides BEGIN
    INSERT INTO ${index}(${index}, rowid, title_folded) VALUES ('delete', old.seq, old.title_folded);
  END`.execute(db);
  await sql`CREATE TRIGGER ${sql.id(`${name}_update`)} AFTER UPDATE OF title_folded ON guides BEGIN
    INSERT INTO ${index}(${index}, rowid, title_folded) VALUES ('delete', old.seq, old.title_folded);
    INSERT INTO ${index}(rowid, title_folded) VALUES (new.seq, new.title_folded);
  END`.execute(db);
}
