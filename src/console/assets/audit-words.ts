// The audit log in words: each kind of change as a sentence after its actor ("revoked the key 'CI'"), as
// the filter's menu names it ("Key revoked"), and where it can happen: a team's log holds what is done to
// the team and what belongs to it; an organization's also what is done to the organization; the operator's
// everything, users and sign-ins too. A kind the console does not know yet reads as its code, in the
// operator's menu only.
import type { AuditEvent, HomeType } from './api-types.js';

/** Where a kind of change is logged: in a team's log (and so its organization's), an organization's, or only the operator's. */
type Where = 'team' | 'organization' | 'operator';

interface Kind {
  label: string;
  where: Where;
  words(target: string, count: number | null): string;
}

const KINDS: Record<string, Kind> = {
  'organization.created': { label: 'Organization created', where: 'operator', words: (target) => `created the organization ${target}` },
  'organization.updated': { label: 'Organization changed', where: 'organization', words: (target) => `changed the organization ${target}` },
  'admin.added': { label: 'Admin added', where: 'organization', words: (target) => `made ${target} an admin of the organization` },
  'admin.removed': { label: 'Admin removed', where: 'organization', words: (target) => `removed ${target} from the organization's admins` },
  'team.created': { label: 'Team created', where: 'team', words: (target) => `created the team ${target}` },
  'team.updated': { label: 'Team changed', where: 'team', words: (target) => `changed the team ${target}` },
  'member.added': { label: 'Member added', where: 'team', words: (target) => `added ${target} to the team` },
  'member.role_changed': { label: 'Role changed', where: 'team', words: (target) => `changed the role of ${target}` },
  'member.removed': { label: 'Member removed', where: 'team', words: (target) => `removed ${target} from the team` },
  'user.created': { label: 'User created', where: 'operator', words: (target) => `created the user ${target}` },
  'user.erased': { label: 'User erased', where: 'operator', words: (target) => `erased the user ${target}` },
  'api_key.created': { label: 'Key created', where: 'team', words: (target) => `created the key ${target}` },
  'api_key.revoked': { label: 'Key revoked', where: 'team', words: (target) => `revoked the key ${target}` },
  'webhook_endpoint.created': { label: 'Webhook endpoint added', where: 'team', words: (target) => `added the webhook endpoint ${target}` },
  'webhook_endpoint.updated': { label: 'Webhook endpoint changed', where: 'team', words: (target) => `changed the webhook endpoint ${target}` },
  'webhook_endpoint.paused': { label: 'Webhook endpoint paused', where: 'team', words: (target) => `paused the webhook endpoint ${target}` },
  'webhook_endpoint.resumed': { label: 'Webhook endpoint resumed', where: 'team', words: (target) => `resumed the webhook endpoint ${target}` },
  'webhook_endpoint.deleted': { label: 'Webhook endpoint deleted', where: 'team', words: (target) => `deleted the webhook endpoint ${target}` },
  'webhook_endpoint.pinged': { label: 'Webhook endpoint pinged', where: 'team', words: (target) => `pinged the webhook endpoint ${target}` },
  'webhook_endpoint.signing_key_revealed': { label: 'Signing key revealed', where: 'team', words: (target) => `revealed the signing key of ${target}` },
  'webhook_endpoint.signing_key_rotated': { label: 'Signing key rotated', where: 'team', words: (target) => `rotated the signing key of ${target}` },
  'webhook_endpoint.recovered': {
    label: 'Failed deliveries recovered',
    where: 'team',
    words: (target, count) => `recovered ${count ?? 'the'} failed ${count === 1 ? 'delivery' : 'deliveries'} of the webhook endpoint ${target}`,
  },
  'delivery.resent': { label: 'Delivery sent again', where: 'team', words: (target) => `sent the delivery ${target} again` },
  'guide.created': { label: 'Guide created', where: 'team', words: (target) => `created the guide ${target}` },
  'guide.updated': { label: 'Guide changed', where: 'team', words: (target) => `changed the guide ${target}` },
  'guide.processing_settled': { label: 'Guide processing settled', where: 'team', words: (target) => `settled the processing of the guide ${target}` },
  'guide.moved': { label: 'Guide moved', where: 'team', words: (target) => `moved the guide ${target} to this team` },
  'guide.deleted': { label: 'Guide deleted', where: 'team', words: (target) => `deleted the guide ${target}` },
  'session.signed_in': { label: 'Signed in', where: 'operator', words: () => 'signed in to the console' },
};

const REACHES: Record<HomeType | 'operator', readonly Where[]> = {
  team: ['team'],
  organization: ['team', 'organization'],
  operator: ['team', 'organization', 'operator'],
};

/** The kinds of change a log can hold (of `known`, the service's list), with their names, in the service's order. */
export function kindsAt(known: readonly string[], log: HomeType | 'operator'): [action: string, label: string][] {
  return known.flatMap((action): [string, string][] => {
    const kind = KINDS[action];
    if (!kind) return log === 'operator' ? [[action, action]] : [];
    return REACHES[log].includes(kind.where) ? [[action, kind.label]] : [];
  });
}

/** A kind of change as the menu names it. */
export const kindLabel = (action: string) => KINDS[action]?.label ?? action;

/** Who did it, in words. */
export function actorWords(event: AuditEvent): string {
  if (event.actor.type === 'operator') return 'The operator';
  if (event.actor.type === 'api_key') return `The key “${event.actor.name ?? 'revoked'}”`;
  return event.actor.name ?? 'An erased person';
}

/** The event in words, after its actor: the target by its name, or by its short id once it is gone. */
export function eventWords(event: AuditEvent): string {
  const { name, id } = event.target;
  const target = name !== null ? `'${name}'` : id !== null ? `${id.slice(0, 8)} (no longer there)` : '';
  const words = (KINDS[event.action]?.words ?? ((named: string) => `${event.action} ${named}`))(target, event.count).trim();
  return event.changed ? `${words}: ${event.changed.join(', ')}` : words;
}
