// `--only footprint` (issue 33): the disk an event, a delivery attempt and an audit event take, with their
// indexes, on SQLite and on PostgreSQL, so that EVENTS_RETENTION_DAYS, WEBHOOK_ATTEMPTS_RETENTION_DAYS and
// AUDIT_RETENTION_DAYS can be sized. On a fresh store, a service makes one real guide.created event, its
// delivered attempt and the guide's audit event (through the management API as the operator, delivered to
// the benchmark's receiver); with the service stopped, the bench writes `--footprint-events` copies of each
// (new ids, the same lengths) straight into the store, and reads what the tables and their indexes grew by:
// SQLite's dbstat (pages) and the file, PostgreSQL's pg_total_relation_size (heap, TOAST and indexes). The
// audit figure is an estimate for rows like that one (its text is printed): a person's action carries an
// actor id more, a change the names of its fields.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { BenchOptions } from '../options.js';
import type { Child } from '../processes.js';
import type { FootprintResult, FootprintStore } from '../results.js';
import { serviceStarter } from '../services.js';
import type { BenchServers } from '../test-servers.js';
import { startReceiver } from '../webhooks/bench-services.js';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The text an audit row holds: the sum of its values' bytes. */
const textBytes = (row: Record<string, unknown>) => Object.values(row).reduce<number>((sum, value) => sum + (typeof value === 'string' ? Buffer.byteLength(value) : 0), 0);

/**
 * A fresh store with one real guide.created event and its delivered attempt: a service (ROLE=all) on it
 * makes them through the management API, delivered to the benchmark's receiver; then the service stops.
 */
async function realEventAndAttempt(databaseUrl: string, dataDir: string): Promise<void> {
  const children: Child[] = [];
  try {
    const receiver = await startReceiver(children);
    const service = await serviceStarter(children, { databaseUrl, dataDir })('all');
    const organization = await service.admin.post<{ id: string }>('/organizations', { name: 'Footprint Outfitters', plan: 'growth' });
    const team = await service.admin.post<{ id: string }>('/teams', { name: 'Customer Support', organization_id: organization.id });
    await service.admin.post('/webhook-endpoints', { home: { type: 'team', id: team.id }, url: `${receiver.url}/footprint`, events: ['guide.created'] });
    await service.admin.post('/guides', { team_id: team.id, title: 'Reset a password from the sign-in page', description: 'For customers who cannot sign in' });
    const { timedOut } = await receiver.waitFor(1, 30_000);
    if (timedOut) throw new Error('the guide.created delivery never arrived');
  } finally {
    // A stopped service has written the outcomes of what it sent.
    for (const child of children.reverse()) await child.stop();
  }
}

const DAY_MS = 86_400_000;

async function onSqlite(events: number, log: (line: string) => void): Promise<FootprintStore> {
  const dir = mkdtempSync(join(tmpdir(), 'guide-service-bench-footprint-'));
  try {
    const path = join(dir, 'service.db');
    await realEventAndAttempt(`file:${path}`, dir);
    const db = new Database(path);
    try {
      db.pragma('journal_mode = WAL');
      const event = db.prepare("SELECT * FROM events WHERE type = 'guide.created'").get() as Record<string, unknown>;
      const attempt = db.prepare("SELECT * FROM webhook_attempts WHERE event_id = ? AND status = 'delivered'").get(event.id) as Record<string, unknown> | undefined;
      if (!attempt) throw new Error('the guide.created attempt was not delivered');
      const audit = db.prepare("SELECT * FROM audit_events WHERE action = 'guide.created'").get() as Record<string, unknown> | undefined;
      if (!audit) throw new Error('the guide.created audit event is missing');
      const sizes = (): Record<string, number> => {
        const rows = db.prepare("SELECT coalesce(s.tbl_name, d.name) AS owner, sum(d.pgsize) AS used FROM dbstat d LEFT JOIN sqlite_schema s ON s.name = d.name GROUP BY owner").all() as { owner: string; used: number }[];
        return Object.fromEntries(rows.map((row) => [row.owner, row.used]));
      };
      const fileBytes = () => (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
      const before = sizes();
      const fileBefore = fileBytes();

      const eventColumns = Object.keys(event).filter((column) => column !== 'seq');
      const attemptColumns = Object.keys(attempt).filter((column) => column !== 'seq');
      const insertEvent = db.prepare(`INSERT INTO events (${eventColumns.join(', ')}) VALUES (${eventColumns.map((c) => `@${c}`).join(', ')})`);
      const insertAttempt = db.prepare(`INSERT INTO webhook_attempts (${attemptColumns.join(', ')}) VALUES (${attemptColumns.map((c) => `@${c}`).join(', ')})`);
      const auditColumns = Object.keys(audit);
      const insertAudit = db.prepare(`INSERT INTO audit_events (${auditColumns.join(', ')}) VALUES (${auditColumns.map((c) => `@${c}`).join(', ')})`);
      const start = Date.now() - DAY_MS;
      const started = performance.now();
      for (let done = 0; done < events; ) {
        const batch = Math.min(10_000, events - done);
        db.transaction(() => {
          for (let i = 0; i < batch; i++, done++) {
            const at = new Date(start + done).toISOString();
            const id = randomUUID();
            insertEvent.run({ ...event, id, created_at: at, payload: String(event.payload).replace(String(event.id), id).replace(String(event.created_at), at) });
            const delivery = randomUUID();
            insertAttempt.run({
              ...attempt,
              id: delivery,
              event_id: id,
              created_at: at,
              due_at: at,
              sent_at: at,
              request_headers: String(attempt.request_headers).replace(String(attempt.id), delivery).replace(String(event.id), id),
            });
            insertAudit.run({ ...audit, id: randomUUID(), created_at: at, target_id: randomUUID(), request_id: audit.request_id === null ? null : randomUUID() });
          }
        })();
      }
      log(`  footprint (SQLite): ${events.toLocaleString('en')} events, attempts and audit rows written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      const after = sizes();
      const grew = (tables: string[]) => tables.reduce((sum, table) => sum + ((after[table] ?? 0) - (before[table] ?? 0)), 0) / events;
      return {
        store: 'sqlite',
        events,
        eventBytes: grew(['events']),
        attemptBytes: grew(['webhook_attempts']),
        auditBytes: grew(['audit_events']),
        fileBytesPerEvent: (fileBytes() - fileBefore) / events,
        payloadBytes: Buffer.byteLength(String(event.payload)),
        requestHeadersBytes: Buffer.byteLength(String(attempt.request_headers)),
        auditTextBytes: textBytes(audit),
      };
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres(events: number, servers: BenchServers, log: (line: string) => void): Promise<FootprintStore> {
  const databaseUrl = await servers.newDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'guide-service-bench-footprint-pg-'));
  try {
    await realEventAndAttempt(databaseUrl, dir);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const event = (await client.query("SELECT id, payload FROM events WHERE type = 'guide.created'")).rows[0] as { id: string; payload: string };
      const attempt = (await client.query("SELECT id, request_headers FROM webhook_attempts WHERE event_id = $1 AND status = 'delivered'", [event.id])).rows[0] as
        | { id: string; request_headers: string }
        | undefined;
      if (!attempt) throw new Error('the guide.created attempt was not delivered');
      const audit = (await client.query("SELECT * FROM audit_events WHERE action = 'guide.created'")).rows[0] as Record<string, unknown> | undefined;
      if (!audit) throw new Error('the guide.created audit event is missing');
      const tables = ['events', 'webhook_attempts', 'audit_events'];
      const sizes = async (): Promise<Record<string, number>> => {
        const { rows } = await client.query<{ name: string; bytes: string }>(`SELECT name, pg_total_relation_size(name::regclass) AS bytes FROM unnest($1::text[]) AS name`, [tables]);
        return Object.fromEntries(rows.map((row) => [row.name, Number(row.bytes)]));
      };
      const before = await sizes();
      const started = performance.now();
      // The template's own columns, each copy with new ids (same lengths) and its own time; an attempt per event.
      await client.query(
        `INSERT INTO events (id, type, team_id, organization_id, payload, created_at)
         SELECT n.id, e.type, e.team_id, e.organization_id, replace(e.payload, e.id, n.id), e.created_at
         FROM events e, (SELECT gen_random_uuid()::text AS id FROM generate_series(1, $2)) n WHERE e.id = $1`,
        [event.id, events],
      );
      await client.query(
        `INSERT INTO webhook_attempts (id, event_id, endpoint_id, attempt_number, auto_retry, status, due_at, sent_at, duration_ms, request_headers, response_status, response_body, error, next_attempt_at, created_at)
         SELECT n.id, n.event_id, a.endpoint_id, a.attempt_number, a.auto_retry, a.status, a.due_at, a.sent_at, a.duration_ms,
                replace(replace(a.request_headers, a.id, n.id), a.event_id, n.event_id), a.response_status, a.response_body, a.error, a.next_attempt_at, a.created_at
         FROM webhook_attempts a, (SELECT gen_random_uuid()::text AS id, id AS event_id FROM events WHERE id <> $1) n WHERE a.id = $2`,
        [event.id, attempt.id],
      );
      // Each copy a millisecond before the next, as the log's key (created_at, id) is written in time order.
      await client.query(
        `INSERT INTO audit_events (created_at, id, actor_type, actor_id, action, target_type, target_id, home_type, home_id, tenant_id, address, request_id, changed)
         SELECT to_char((a.created_at::timestamptz - interval '1 day' + n * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                gen_random_uuid()::text, a.actor_type, a.actor_id, a.action, a.target_type, gen_random_uuid()::text, a.home_type, a.home_id, a.tenant_id,
                a.address, CASE WHEN a.request_id IS NULL THEN NULL ELSE gen_random_uuid()::text END, a.changed
         FROM audit_events a, generate_series(1, $2) n WHERE a.id = $1`,
        [audit.id, events],
      );
      log(`  footprint (PostgreSQL): ${events.toLocaleString('en')} events, attempts and audit rows written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      const after = await sizes();
      const grew = (table: string) => ((after[table] ?? 0) - (before[table] ?? 0)) / events;
      return {
        store: 'postgres',
        events,
        eventBytes: grew('events'),
        attemptBytes: grew('webhook_attempts'),
        auditBytes: grew('audit_events'),
        fileBytesPerEvent: null,
        payloadBytes: Buffer.byteLength(event.payload),
        requestHeadersBytes: Buffer.byteLength(attempt.request_headers),
        auditTextBytes: textBytes(audit),
      };
    } finally {
      await client.end();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runFootprintBench(
  options: BenchOptions,
  postgres: (() => BenchServers) | null,
  log: (line: string) => void,
): Promise<{ result: FootprintResult; problems: string[] }> {
  const problems: string[] = [];
  const result: FootprintResult = { events: options.footprintEvents, stores: [] };
  const report = (store: FootprintStore) => {
    result.stores.push(store);
    log(
      `  footprint ${store.store.padEnd(8)} event ${store.eventBytes.toFixed(0)} B, attempt ${store.attemptBytes.toFixed(0)} B, audit ${store.auditBytes.toFixed(0)} B a row` +
        (store.fileBytesPerEvent === null ? '' : ` (file: ${store.fileBytesPerEvent.toFixed(0)} B per event with its attempt and audit row)`),
    );
  };
  try {
    report(await onSqlite(options.footprintEvents, log));
  } catch (error) {
    problems.push(`footprint on SQLite failed: ${message(error)}`);
  }
  if (postgres) {
    try {
      report(await onPostgres(options.footprintEvents, postgres(), log));
    } catch (error) {
      problems.push(`footprint on PostgreSQL failed: ${message(error)}`);
    }
  }
  return { result, problems };
}
