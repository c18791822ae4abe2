// Accessibility checks in the browser tests: axe-core run in the page as it stands. Only serious and
// critical violations fail a test (the bar); each is reported with the rule, what it says and the
// elements it found, so that a failure says what to fix.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

// Evaluated rather than added as a script tag: the console's Content-Security-Policy allows no inline script.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** The serious and critical violations axe finds in the page now, of every rule or only of `rules`. */
export async function seriousViolations(page: Page, rules?: readonly string[]): Promise<string[]> {
  if (!(await page.evaluate<boolean>("'axe' in window"))) await page.evaluate(AXE);
  const options = rules ? JSON.stringify({ runOnly: { type: 'rule', values: rules } }) : '{}';
  const violations = await page.evaluate<Violation[]>(
    `axe.run(document, ${options}).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`,
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** Fails the test, naming `where`, when axe finds a serious or critical violation in the page. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await seriousViolations(page), where).toEqual([]);
}
