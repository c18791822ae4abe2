// Reading SQLite's EXPLAIN QUERY PLAN: does a statement read a whole table? "SCAN g" is a table scan;
// "SCAN g USING INDEX …" walks an index, "SEARCH …" seeks one, and "SCAN t0" of a co-routine or a
// materialized subquery reads rows the plan produced itself, not a table.
export function hasTableScan(plan: readonly string[]): boolean {
  const derived = new Set<string>();
  for (const line of plan) {
    const named = /^(?:CO-ROUTINE|MATERIALIZE) (\S+)/.exec(line);
    if (named) derived.add(named[1]!);
  }
  return plan.some((line) => {
    const scan = /^SCAN (\S+)(.*)$/.exec(line);
    if (!scan) return false;
    const [, name, rest] = scan;
    if (name === 'CONSTANT' || derived.has(name!)) return false;
    return !/\bUSING\b|VIRTUAL TABLE/.test(rest!);
  });
}
