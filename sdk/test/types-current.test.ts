// The SDK's types are generated from the OpenAPI documents the service serves, never copied by hand: this
// test fails when the checked-in types differ from what the current service generates. v1's document
// gives the reads; the management API's gives the operations of a management key (webhooks:manage).
// `npm run generate` (UPDATE_SDK_TYPES=1) writes them anew.
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../test/support/service.js';

type Document = { paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>> };

/** The management API's document with only the operations a management key may call: what the SDK offers. */
function managementKeyOperations(document: Document): Document {
  const paths = Object.entries(document.paths).flatMap(([path, item]) => {
    const kept = Object.entries(item).filter(([, operation]) => operation.security?.some((scheme) => 'managementKey' in scheme));
    return kept.length === 0 ? [] : [[path, Object.fromEntries(kept)] as const];
  });
  return { ...document, paths: Object.fromEntries(paths) };
}

const DOCUMENTS = [
  { file: 'v1.ts', url: '/v1/openapi.json', headers: {}, narrow: (document: Document) => document },
  { file: 'admin.ts', url: '/admin/v1/openapi.json', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, narrow: managementKeyOperations },
];

let t: TestService;
beforeAll(async () => {
  // The examples the documents carry name the service by its PUBLIC_URL: here, the SDK's example one.
  t = await startTestService({ PUBLIC_URL: 'https://guides.example.com' });
});
afterAll(() => t.close());

it.each(DOCUMENTS)('the checked-in $file is what the served $url generates', async ({ file, url, headers, narrow }) => {
  const response = await t.service.app.inject({ method: 'GET', url, headers });
  expect(response.statusCode).toBe(200);
  const header = `// Generated from the service's OpenAPI document (GET ${url}) by openapi-typescript.
// Do not edit: run \`npm run generate\` in sdk/ after changing one of its schemas.\n\n`;
  const generated = header + astToString(await openapiTS(narrow(response.json()) as never, { alphabetize: false, exportType: false }));
  const target = new URL(`../src/generated/${file}`, import.meta.url);
  if (process.env.UPDATE_SDK_TYPES === '1') writeFileSync(target, generated);
  expect(readFileSync(target, 'utf8'), `sdk/src/generated/${file} is out of date: run \`npm run generate\` in sdk/`).toBe(generated);
});
