// The read requests of issue 5, built from the ids and keys the bulk loader printed. Search terms come from
// the loader's vocabulary (src/cli/bulk-data.ts): "fjord" is one of its rare words and lands in the first
// organization's teams; "report" is one of its common words, in about a tenth of all titles.
import type { ScenarioGroup } from '../options.js';
import type { LoadedIds } from '../store.js';

export interface ReadScenario {
  id: string;
  label: string;
  group: Exclude<ScenarioGroup, 'webhooks'>;
  key: string;
  path: string;
  /** Scenarios that also run on the smaller stores, for the scaling ratio. */
  scaling: boolean;
}

export const RARE_TERM = 'fjord';
export const COMMON_TERM = 'report';

/** Deep cursors are found by paging (see deep-cursor.ts) and filled in per key. */
export interface DeepCursors {
  organization: string | null;
  team: string | null;
}

export function readScenarios(ids: LoadedIds, deep: DeepCursors): ReadScenario[] {
  const scenarios: ReadScenario[] = [
    { id: 'list-org', label: 'GET /v1/guides?limit=50, organization key (20 teams)', group: 'list', key: ids.organizationKey, path: '/v1/guides?limit=50', scaling: true },
    { id: 'list-team', label: 'GET /v1/guides?limit=50, team key', group: 'list', key: ids.teamKey, path: '/v1/guides?limit=50', scaling: true },
  ];
  if (deep.organization) {
    scenarios.push({ id: 'deep-org', label: 'the same, halfway down (organization key)', group: 'deep', key: ids.organizationKey, path: `/v1/guides?limit=50&cursor=${encodeURIComponent(deep.organization)}`, scaling: false });
  }
  if (deep.team) {
    scenarios.push({ id: 'deep-team', label: 'the same, halfway down (team key)', group: 'deep', key: ids.teamKey, path: `/v1/guides?limit=50&cursor=${encodeURIComponent(deep.team)}`, scaling: false });
  }
  scenarios.push(
    { id: 'search-rare', label: `GET /v1/guides?q=${RARE_TERM} (rare), organization key`, group: 'search', key: ids.organizationKey, path: `/v1/guides?limit=50&q=${RARE_TERM}`, scaling: true },
    { id: 'search-common', label: `GET /v1/guides?q=${COMMON_TERM} (common), organization key`, group: 'search', key: ids.organizationKey, path: `/v1/guides?limit=50&q=${COMMON_TERM}`, scaling: true },
    { id: 'detail-long', label: 'GET /v1/guides/{id}, 50+ steps, growth plan', group: 'detail', key: ids.organizationKey, path: `/v1/guides/${ids.longGuideId}`, scaling: false },
    { id: 'detail-preview', label: 'GET /v1/guides/{id}, preview on a free plan', group: 'detail', key: ids.freeTeamKey, path: `/v1/guides/${ids.freeGuideId}`, scaling: false },
    { id: 'members', label: 'GET /v1/members, a team of 2,000 members', group: 'members', key: ids.teamKey, path: `/v1/members?team_id=${ids.bigTeamId}`, scaling: false },
  );
  return scenarios;
}

/** Which scenario a deep one is compared with. */
export const FIRST_PAGE_OF: Record<string, string> = { 'deep-org': 'list-org', 'deep-team': 'list-team' };
