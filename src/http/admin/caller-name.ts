// Who a mail says did something (an invitation: "Ana Lima added you to…"): a person by their name or
// address as it is now, the operator as such.
import type { FastifyRequest } from 'fastify';
import type { DomainContext } from '../../domain/context.js';
import { requireUser } from '../../domain/users.js';
import { callerOf } from './admin-auth.js';

export async function callerName(ctx: DomainContext, request: FastifyRequest): Promise<string> {
  const caller = callerOf(request);
  if (caller.kind !== 'person') return 'The operator';
  const user = await requireUser(ctx.db, caller.userId);
  return user.name ?? user.email;
}
