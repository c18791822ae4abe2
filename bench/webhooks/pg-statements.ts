// `--pg-statements`: what PostgreSQL does for each delivery of a drain, counted by pg_stat_statements on
// the bench's own server (issue 46 asks for the drain's statements and round trips per delivery, before
// and after). Every statement of the drain's database is counted from the reset to the read: the
// workers' claims, outcomes, releases and wake-ups, BEGIN and COMMIT included (each a round trip), and
// how often each was planned (a statement text new to a connection is parsed and planned again).
import pg from 'pg';
import type { StatementProfile } from '../results.js';

const SHOWN = 15;
/** How much of a statement's start tells its kind. */
const KIND_CHARACTERS = 70;

/** Counting on the server of `databaseUrl`, for that database alone. */
export async function countStatements(databaseUrl: string): Promise<{ read(deliveries: number): Promise<StatementProfile> }> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await client.query('SELECT pg_stat_statements_reset()');
  const transactions = async () =>
    Number((await client.query<{ n: string }>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', [database])).rows[0]!.n);
  const transactionsBefore = await transactions();
  return {
    async read(deliveries) {
      try {
        const { rows } = await client.query<{ query: string; calls: string; plans: string; rows: string; exec_ms: number; plan_ms: number }>(
          `SELECT query, calls, plans, rows, total_exec_time AS exec_ms, total_plan_time AS plan_ms
             FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
            WHERE d.datname = $1 AND query NOT LIKE '%pg_stat_statements%' AND query NOT LIKE '%pg_stat_database%'`,
          [database],
        );
        const per = (n: number) => n / deliveries;
        // Statements of one kind differ only past their start (a VALUES list or IN list as long as the
        // group, another number of queues): each kind is counted once, with how many texts it took.
        const kinds = new Map<string, { texts: number; calls: number; plans: number; rows: number; execMs: number; planMs: number }>();
        for (const row of rows) {
          const kind = row.query.replace(/\s+/g, ' ').slice(0, KIND_CHARACTERS);
          const entry = kinds.get(kind) ?? { texts: 0, calls: 0, plans: 0, rows: 0, execMs: 0, planMs: 0 };
          entry.texts++;
          entry.calls += Number(row.calls);
          entry.plans += Number(row.plans);
          entry.rows += Number(row.rows);
          entry.execMs += row.exec_ms;
          entry.planMs += row.plan_ms;
          kinds.set(kind, entry);
        }
        const all = [...kinds].map(([statement, kind]) => ({
          statement,
          texts: kind.texts,
          callsPerDelivery: per(kind.calls),
          plansPerCall: kind.plans / Math.max(1, kind.calls),
          rowsPerCall: kind.rows / Math.max(1, kind.calls),
          execUsPerDelivery: per(kind.execMs * 1000),
          planUsPerDelivery: per(kind.planMs * 1000),
        }));
        const sum = (pick: (entry: (typeof all)[number]) => number) => all.reduce((total, entry) => total + pick(entry), 0);
        return {
          deliveries,
          texts: rows.length,
          callsPerDelivery: sum((entry) => entry.callsPerDelivery),
          plansPerDelivery: sum((entry) => entry.plansPerCall * entry.callsPerDelivery),
          execUsPerDelivery: sum((entry) => entry.execUsPerDelivery),
          planUsPerDelivery: sum((entry) => entry.planUsPerDelivery),
          transactionsPerDelivery: per((await transactions()) - transactionsBefore),
          top: all.sort((a, b) => b.execUsPerDelivery + b.planUsPerDelivery - (a.execUsPerDelivery + a.planUsPerDelivery)).slice(0, SHOWN),
        };
      } finally {
        await client.end();
      }
    },
  };
}

/** The profile in lines for the bench's log (and a person's notes). */
export function statementLines(profile: StatementProfile): string[] {
  const f = (n: number, digits = 2) => n.toFixed(digits);
  return [
    `statements per delivery ${f(profile.callsPerDelivery)} (${profile.texts} texts), planned ${f(profile.plansPerDelivery)}, ` +
      `transactions ${f(profile.transactionsPerDelivery, 3)}; PostgreSQL's own time per delivery: executing ${f(profile.execUsPerDelivery, 1)} µs, planning ${f(profile.planUsPerDelivery, 1)} µs`,
    ...profile.top.map(
      (entry) =>
        `  ${f(entry.callsPerDelivery, 3)}/delivery (${entry.texts} texts), ${f(entry.rowsPerCall, 1)} rows, planned ${f(entry.plansPerCall * 100, 0)} %, ` +
        `exec ${f(entry.execUsPerDelivery, 1)} µs + plan ${f(entry.planUsPerDelivery, 1)} µs: ${entry.statement}`,
    ),
  ];
}
