// The SDK's types are generated from the OpenAPI document the service serves, never copied by hand: this
// test fails when the checked-in types differ from what the current service generates.
// `npm run generate` (UPDATE_SDK_TYPES=1) writes them anew.
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../test/support/service.js';

const GENERATED = new URL('../src/generated/v1.ts', import.meta.url);
const HEADER = `// Generated from the service's OpenAPI document (GET /v1/openapi.json) by openapi-typescript.
// Do not edit: run \`npm run generate\` in sdk/ after changing a v1 schema.\n\n`;

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());

it('the checked-in types are what the served OpenAPI document generates', async () => {
  const response = await t.service.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(response.statusCode).toBe(200);
  const generated = HEADER + astToString(await openapiTS(response.json(), { alphabetize: false, exportType: false }));
  if (process.env.UPDATE_SDK_TYPES === '1') writeFileSync(GENERATED, generated);
  expect(readFileSync(GENERATED, 'utf8'), 'sdk/src/generated/v1.ts is out of date: run `npm run generate` in sdk/').toBe(generated);
});
