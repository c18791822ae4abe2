// The references' example requests and answers, recorded from a real run: data files that
// `RECORD_EXAMPLES=1 npx vitest run test/http/reference-examples.test.ts` writes, which that test checks
// against the service's answers of today.
import type { RecordedExample } from '../openapi-document.js';
import admin from './recorded/admin.json' with { type: 'json' };
import v1 from './recorded/v1.json' with { type: 'json' };

export const ADMIN_EXAMPLES: Record<string, RecordedExample> = admin;
export const V1_EXAMPLES: Record<string, RecordedExample> = v1;
