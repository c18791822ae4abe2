// A deploy step with a management key (webhooks:manage): this environment's endpoint registered once,
// however often the step runs or retries, and the secret its receiver verifies deliveries with.
import { GuideService } from '@guide-service/sdk';

const client = new GuideService({ apiKey: process.env.GUIDE_MANAGEMENT_KEY!, baseUrl: process.env.GUIDE_URL! });
const home = { type: 'team', id: process.env.GUIDE_TEAM_ID! } as const;
const url = process.env.WEBHOOK_URL!;

const existing = (await client.webhookEndpoints.list(home)).find((endpoint) => endpoint.url === url);
// The same Idempotency-Key for the same registration: two runs at once still make one endpoint.
const created = existing ? null : await client.webhookEndpoints.create({ home, url, events: ['guide.created', 'guide.updated'] }, { idempotencyKey: `register:${url}` });
export const endpointId = existing?.id ?? created!.id;
// For the receiver's webhook-signature check: in the creation's answer, or asked for (each ask is audit-logged).
export const secret = created?.standard_webhooks_secret ?? (await client.webhookEndpoints.signingKey(endpointId)).standard_webhooks_secret;
