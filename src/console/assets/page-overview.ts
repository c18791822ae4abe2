// An organization's overview (issue 35, item 3): every webhook endpoint and every API key of the
// organization and its teams on one page, the endpoints that fail or are paused first and the keys that
// have expired or expire soonest first, each endpoint linking to its own page. Read with the management
// API an organization admin already has: each home's endpoints (with their health) and keys.
import { api, query } from './api.js';
import type { Answer, ApiKey, Endpoint, EndpointHealth, HomeType } from './api-types.js';
import type { SectionContext } from './context.js';
import { errorBox, fill, h, loading, table, time } from './dom.js';

interface Place {
  type: HomeType;
  id: string;
  name: string;
}

interface EndpointRow {
  place: Place;
  endpoint: Endpoint;
  health: EndpointHealth;
}

/** How much an endpoint needs looking at: paused, then failing (more failures first), then healthy. */
function trouble(row: EndpointRow): number {
  if (row.endpoint.status === 'paused') return 1_000_000;
  return row.health.consecutive_failures;
}

function stateOf(row: EndpointRow): HTMLElement {
  if (row.endpoint.status === 'paused') return h('span', { class: 'badge paused' }, 'Paused');
  const failures = row.health.consecutive_failures;
  if (failures > 0) return h('span', { class: 'badge failing' }, `Failing: ${failures} in a row`);
  return h('span', { class: 'badge ok' }, 'Active');
}

const rate = (health: EndpointHealth) => (health.success_rate === null ? 'Nothing sent' : `${Math.round(health.success_rate * 1000) / 10} %`);

/** Expired keys first, then by how soon they expire; keys that never expire last. */
const expiryOrder = (key: ApiKey) => (key.expires_at === null ? Number.POSITIVE_INFINITY : Date.parse(key.expires_at));

export async function overviewPage(context: SectionContext): Promise<void> {
  const { main, home, session } = context;
  const title = h('h1', { tabindex: -1 }, `All teams · ${home.name}`);
  fill(main, title, loading('Loading every team’s endpoints and keys…'));
  const places: Place[] = [
    { type: 'organization', id: home.id, name: `${home.name} (organization)` },
    ...session.teams.filter((team) => team.organization_id === home.id).map((team): Place => ({ type: 'team', id: team.id, name: team.name ?? 'Unnamed team' })),
  ];
  try {
    const perPlace = await Promise.all(
      places.map(async (place) => {
        const homeQuery = query({ home_type: place.type, home_id: place.id });
        const [endpoints, keys] = await Promise.all([
          api.get<Answer<Endpoint[]>>(`/webhook-endpoints?${homeQuery}`),
          api.get<Answer<ApiKey[]>>(`/api-keys?${homeQuery}`),
        ]);
        const healths = await Promise.all(endpoints.data.map((endpoint) => api.get<Answer<EndpointHealth>>(`/webhook-endpoints/${endpoint.id}/health`)));
        return {
          endpoints: endpoints.data.map((endpoint, i): EndpointRow => ({ place, endpoint, health: healths[i]!.data })),
          keys: keys.data.map((key) => ({ place, key })),
        };
      }),
    );
    const endpoints = perPlace.flatMap((each) => each.endpoints).sort((a, b) => trouble(b) - trouble(a));
    const keys = perPlace.flatMap((each) => each.keys).sort((a, b) => expiryOrder(a.key) - expiryOrder(b.key));
    const failing = endpoints.filter((row) => trouble(row) > 0).length;
    fill(
      main,
      title,
      h('p', { class: 'muted' }, `The endpoints and keys of ${home.name} and its ${places.length - 1} ${places.length === 2 ? 'team' : 'teams'}.`),
      h('h2', {}, 'Webhook endpoints'),
      h('p', {}, endpoints.length === 0 ? 'No endpoints.' : failing === 0 ? 'Every endpoint is active and delivering.' : `${failing} of ${endpoints.length} need a look: they are listed first.`),
      endpoints.length > 0 &&
        table(
          'Webhook endpoints of every team',
          ['Endpoint', 'Of', 'State', 'Success, 24 hours', 'Last delivery'],
          endpoints.map((row) => [
            h('a', { href: `#/${row.place.type}/${row.place.id}/webhooks/${row.endpoint.id}`, class: 'url' }, row.endpoint.url),
            row.place.name,
            stateOf(row),
            rate(row.health),
            row.health.last_attempt ? time(row.health.last_attempt.sent_at) : h('span', { class: 'muted' }, 'None yet'),
          ]),
        ),
      h('h2', {}, 'API keys'),
      keys.length === 0
        ? h('p', {}, 'No keys.')
        : table(
            'API keys of every team',
            ['Key', 'Of', 'Expires', 'Last used'],
            keys.map(({ place, key }) => [
              h('a', { href: `#/${place.type}/${place.id}/keys` }, key.name),
              place.name,
              key.expires_at ? [key.expires_at < new Date().toISOString() ? h('strong', {}, 'Expired ') : null, time(key.expires_at)] : 'Never',
              key.last_used_at ? time(key.last_used_at) : h('span', { class: 'muted' }, 'Not yet'),
            ]),
          ),
    );
  } catch (error) {
    fill(main, title, errorBox(error));
  }
}
