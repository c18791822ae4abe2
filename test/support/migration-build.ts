// The "next release" of a build for deploy tests: a copy of the compiled service with one migration more.
// The migration is written as a compiled module beside the others and added to the compiled migration
// list (src/db/migrate.ts, `migrationList`), so the copy is what the next build would be if that
// migration were committed. The edit fails loudly when the compiled list no longer looks as expected.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Build } from './build.js';

export interface ExtraMigration {
  /** The migration's name; it must sort after every migration the build has (Kysely applies in name order). */
  name: string;
  /** The name the module exports the migration under. */
  exportName: string;
  /** The module's JavaScript (ESM), exporting `exportName`: a Kysely Migration object. */
  source: string;
}

/** `function migrationList(store) { return {` in the compiled src/db/migrate.ts. */
const LIST_OPENING = /function migrationList\(\w+\) \{\n(\s*)return \{\n/g;
/** One entry of that list: `'0001_initial': initial(store.dialect),`. */
const LIST_ENTRY = /^\s*'([^']+)': /gm;

export function buildWithMigration(build: Build, migration: ExtraMigration): Build {
  const outDir = dirname(build.main);
  const nextDir = join(dirname(outDir), `${basename(outDir)}-next`);
  cpSync(outDir, nextDir, { recursive: true });
  const migratePath = join(nextDir, 'db', 'migrate.js');
  const compiled = readFileSync(migratePath, 'utf8');
  const openings = [...compiled.matchAll(LIST_OPENING)];
  if (openings.length !== 1) {
    throw new Error(`${migratePath}: expected one "function migrationList(store) { return {" to add ${migration.name} to, found ${openings.length}; has src/db/migrate.ts changed shape?`);
  }
  const known = [...compiled.matchAll(LIST_ENTRY)].map((match) => match[1]!);
  if (known.length === 0) throw new Error(`${migratePath}: found no migration names in migrationList`);
  const later = known.filter((name) => name >= migration.name);
  if (later.length > 0) throw new Error(`the extra migration ${migration.name} must sort after every migration of the build, but ${later.join(', ')} do not sort before it`);
  const opening = openings[0]!;
  const indent = `${opening[1]}    `;
  const at = opening.index! + opening[0].length;
  const file = `${migration.name}.js`;
  const patched =
    `import { ${migration.exportName} } from './migrations/${file}';\n` +
    compiled.slice(0, at) +
    `${indent}'${migration.name}': ${migration.exportName},\n` +
    compiled.slice(at);
  writeFileSync(migratePath, patched);
  writeFileSync(join(nextDir, 'db', 'migrations', file), migration.source);
  return { main: join(nextDir, basename(build.main)), remove: async () => rmSync(nextDir, { recursive: true, force: true }) };
}
