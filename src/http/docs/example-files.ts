// The code the guides at /docs show is kept as files in docs/examples/, so that the tests run exactly what
// readers copy (test/docs/webhook-verifiers.test.ts). The project's docs/ is found from this module's
// folder upwards, whether it runs from src/, dist/ or a test's build in .test-build/<id>/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function examplesFolder(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(folder, 'docs', 'examples');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(folder);
    if (parent === folder) throw new Error('docs/examples/ is not beside the service: deploy the project with its docs/ folder');
    folder = parent;
  }
}

const EXAMPLES = examplesFolder();

/** The text of docs/examples/<name>. */
export function exampleFile(name: string): string {
  return readFileSync(join(EXAMPLES, name), 'utf8');
}
