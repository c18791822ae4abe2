// The code the guides at /docs show is kept as files in docs/examples/, so that the tests run exactly what
// readers copy (test/docs/webhook-verifiers.test.ts). Both src/ and dist/ sit beside docs/.
import { readFileSync } from 'node:fs';

const EXAMPLES = new URL('../../../docs/examples/', import.meta.url);

/** The text of docs/examples/<name>. */
export function exampleFile(name: string): string {
  return readFileSync(new URL(name, EXAMPLES), 'utf8');
}
