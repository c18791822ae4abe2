// What the events feed tests share: one feed page that must be answered 200.
import { expect } from 'vitest';
import type { TestService } from '../../support/service.js';

export interface FeedAnswer {
  data: any[];
  next_cursor: string | null;
}

export async function feedPage(t: TestService, key: string, query = ''): Promise<FeedAnswer> {
  const response = await t.get(`/v1/events${query}`, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as FeedAnswer;
}
