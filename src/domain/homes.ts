// Where an API key or a webhook endpoint belongs: a team, or an organization (and so each of its teams).
import type { KeyHomeType } from '../db/schema.js';

export interface Home {
  type: KeyHomeType;
  id: string;
}

/** The home a row of a resource that has one (an API key, a webhook endpoint) belongs to. */
export function homeOf(row: { home_type: KeyHomeType; home_id: string }): Home {
  return { type: row.home_type, id: row.home_id };
}
