// Erasure leaves no bytes (issue 41; shared decisions §10 "Erasure"): once POST /users/{id}/erase has
// answered, the store keeps no older copy of the person's address or name below its rows either. On the
// embedded store: not in the database file, its write-ahead log or its shared-memory index, read as raw
// bytes (deleted content is zeroed as it is freed, and the log is emptied), nor in a backup taken after
// the erasure. On PostgreSQL: no row version, live or dead, of a table the erasure touched, nor an entry
// of their B-tree indexes, holds them (the tables are vacuumed); what the data files' free space and a
// physical backup taken before still hold is said in README.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { copySqliteStore } from '../../../src/cli/sqlite-backup.js';
import { requestLink, signIn } from '../../console/sessions.js';
import { organizationWithTeams, startTestService, type TestService } from '../../support/service.js';
import { testDatabase, usingPostgres } from '../../support/test-database.js';

const token = Math.random().toString(36).slice(2, 10);
const EMAIL = `residue.${token}@erasure.example`;
const NAME = `Residue Quist ${token}`;

/** Whether `bytes` hold the address or the name, in any ASCII letter case. */
const holdsThem = (bytes: Buffer) => {
  const text = bytes.toString('latin1').toLowerCase();
  return text.includes(EMAIL.toLowerCase()) || text.includes(NAME.toLowerCase());
};

/** A person in two teams, an organization admin, renamed once, with member events, mail and a session; erased. */
async function personErased(t: TestService): Promise<{ erase: number }> {
  const { organization, teams } = await organizationWithTeams(t, 'growth', 2);
  const person = await t.admin('POST', '/users', { email: EMAIL, name: NAME });
  for (const [i, team] of teams.entries()) await t.admin('PUT', `/teams/${team.id}/members/${person.id}`, { role: i === 0 ? 'ADMIN' : 'VIEWER' });
  await t.admin('PUT', `/teams/${teams[1].id}/members/${person.id}`, { role: 'EDITOR' });
  await t.admin('PUT', `/organizations/${organization.id}/admins/${person.id}`);
  await t.admin('DELETE', `/teams/${teams[1].id}/members/${person.id}`);
  await signIn(t, EMAIL);
  expect((await requestLink(t, EMAIL)).statusCode).toBe(202);
  const erase = await t.adminRaw('POST', `/users/${person.id}/erase`);
  return { erase: erase.statusCode };
}

const dirs: string[] = [];
let t: TestService | undefined;
afterAll(async () => {
  await t?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.runIf(!usingPostgres)('on the embedded store', () => {
  it('no byte of their address or name is left in the database file, its write-ahead log, its shared-memory index, or a backup taken after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-bytes-'));
    dirs.push(dir);
    const file = join(dir, 'service.db');
    t = await startTestService({ DATABASE_URL: `file:${file}` });
    const files = [file, `${file}-wal`, `${file}-shm`];
    const { erase } = await personErased(t);
    expect(erase).toBe(204);
    const leftIn = files.filter((path) => existsSync(path) && holdsThem(readFileSync(path)));
    expect(leftIn, 'files of the store that still hold them').toEqual([]);
    // The store was written meanwhile, so the check would see them if the files held them (the file
    // holds the rows of the organization made before).
    expect(readFileSync(file).includes(Buffer.from('growth'))).toBe(true);

    const backup = join(dir, 'after.db');
    await copySqliteStore(file, backup);
    expect(holdsThem(readFileSync(backup)), 'a backup taken after the erasure holds them').toBe(false);
  }, 60_000);

  it('while a backup holds an older snapshot, the log cannot be emptied: the erasure answers 503 with Retry-After, and its repeat afterwards finishes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-bytes-'));
    dirs.push(dir);
    const file = join(dir, 'service.db');
    await t?.close();
    t = await startTestService({ DATABASE_URL: `file:${file}` });
    const person = await t.admin('POST', '/users', { email: EMAIL, name: NAME });
    // A backup's connection: a read transaction on the store as it is now, held (sqlite-backup.ts).
    const reader = new Database(file, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('select count(*) from users').get();
    let answer;
    try {
      answer = await t.adminRaw('POST', `/users/${person.id}/erase`);
    } finally {
      reader.exec('COMMIT');
      reader.close();
    }
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.json().code).toBe('service_unavailable');
    expect(answer.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect((await t.adminRaw('POST', `/users/${person.id}/erase`)).statusCode).toBe(204);
    expect([file, `${file}-wal`].filter((path) => existsSync(path) && holdsThem(readFileSync(path)))).toEqual([]);
  }, 60_000);
});

describe.runIf(usingPostgres)('on PostgreSQL', () => {
  it('no row version, live or dead, of the tables erasure touches, nor an entry of their B-tree indexes, holds their address or name', async () => {
    const database = await testDatabase();
    t = await startTestService(database.env);
    const { erase } = await personErased(t);
    expect(erase).toBe(204);
    // pageinspect reads the pages as they are on disk, dead row versions included; it needs a superuser.
    const admin = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('CREATE EXTENSION IF NOT EXISTS pageinspect');
      const relations = await sql<{ name: string; kind: string; am: string | null }>`
        select c.relname as name, c.relkind as kind, a.amname as am from pg_class c
        left join pg_am a on a.oid = c.relam
        where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'i', 't')
          and (c.relkind = 'r' or a.amname = 'btree' or c.relkind = 't')`.execute(t.service.store.db);
      const found: string[] = [];
      let tuples = 0;
      for (const relation of relations.rows) {
        const { rows: size } = await admin.query(`select pg_relation_size($1::regclass) / current_setting('block_size')::int as pages`, [relation.name]);
        for (let page = relation.kind === 'i' ? 1 : 0; page < Number(size[0].pages); page++) {
          const query =
            relation.kind === 'i'
              ? `select decode(data, 'hex') as bytes from bt_page_items(get_raw_page($1, $2)) where data is not null`
              : `select t_data as bytes from heap_page_items(get_raw_page($1, $2)) where t_data is not null`;
          const { rows } = await admin.query<{ bytes: Buffer }>(query, [relation.name, page]);
          tuples += rows.length;
          if (rows.some((row) => holdsThem(row.bytes))) found.push(`${relation.name} page ${page}`);
        }
      }
      expect(tuples, 'row versions and index entries read').toBeGreaterThan(50);
      expect(found, 'pages with a row version or index entry that holds them').toEqual([]);
    } finally {
      await admin.end();
      await t.close();
      t = undefined;
      await database.drop();
    }
  }, 60_000);
});
