// The shape of the source's imports (the developers' guide, "Architecture"): they point down, http →
// domain → db, and no module reaches itself again through others, type-only imports included, so each
// layer can be read, tested and changed without the ones above it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', 'src');

/** Every TypeScript module under src/, with the modules under src/ it imports or re-exports from. */
function importGraph(): Map<string, string[]> {
  const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((file) => file.endsWith('.ts')).map((file) => join(SRC, file));
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const local = importedFiles
        .map(({ fileName }) => fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')))
        .filter((target) => known.has(target));
      return [file, local];
    }),
  );
}

/** The groups of modules that import each other round a loop (Tarjan's strongly connected components). */
function importLoops(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (module: string): void => {
    order.set(module, next);
    low.set(module, next++);
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!order.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(module, Math.min(low.get(module)!, order.get(target)!));
    }
    if (low.get(module) !== order.get(module)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(relative(SRC, member));
    } while (member !== module);
    if (group.length > 1 || graph.get(module)!.includes(module)) loops.push(group.sort());
  };
  for (const module of graph.keys()) if (!order.has(module)) visit(module);
  return loops;
}

/** The imports of modules under `from` that reach into any of `above`. */
function importsInto(graph: Map<string, string[]>, from: string, above: readonly string[]): string[] {
  const inside = (file: string, folder: string) => relative(SRC, file).startsWith(`${folder}/`);
  return [...graph]
    .filter(([module]) => inside(module, from))
    .flatMap(([module, targets]) => targets.filter((target) => above.some((folder) => inside(target, folder))).map((target) => `${relative(SRC, module)} → ${relative(SRC, target)}`));
}

describe('the source’s imports', () => {
  const graph = importGraph();

  it('form no loop: no module imports itself back through others, type-only imports included', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(importLoops(graph)).toEqual([]);
  });

  it('point down: the store imports nothing above it, and the domain nothing of HTTP, the console, the worker, mail or authentication', () => {
    expect(importsInto(graph, 'db', ['domain', 'http', 'console', 'webhooks', 'mail', 'auth', 'cli', 'metrics'])).toEqual([]);
    expect(importsInto(graph, 'domain', ['http', 'console', 'webhooks', 'mail', 'auth', 'cli', 'metrics'])).toEqual([]);
  });
});
