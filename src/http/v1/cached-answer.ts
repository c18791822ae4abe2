// A v1 answer kept between requests as the bytes sent and their entity tag, so that a repeated request
// costs neither the queries nor the serialization nor the encoding. The route's own response schema
// serializes it, once.
import type { FastifyReply } from 'fastify';
import type { DomainContext } from '../../domain/context.js';
import { remember } from '../../domain/read-cache.js';
import { entityTag } from './entity-tags.js';

interface CachedBody {
  body: Buffer;
  etag: string;
}

/**
 * Serialized answers weigh their bytes. Key look-ups and parts of answers (a page's positions, a guide's
 * row) are objects: about twice their JSON (strings and object headers), and a kilobyte at least.
 */
export function answerWeight(value: unknown): number {
  const body = (value as Partial<CachedBody> | null)?.body;
  if (Buffer.isBuffer(body)) return body.length;
  return Math.max(1024, 2 * (JSON.stringify(value)?.length ?? 0));
}

/**
 * Sends the answer kept under `key` (every input the answer depends on), or computes (reading through
 * `reader`, which notes what the answer depends on), serializes and keeps it. A problem thrown by `compute` is sent as usual and nothing is kept.
 */
export async function sendCached(
  ctx: DomainContext,
  reply: FastifyReply,
  key: readonly unknown[],
  compute: (reader: DomainContext) => Promise<unknown>,
): Promise<FastifyReply> {
  const cached = await remember(ctx, JSON.stringify(key), async (reader): Promise<CachedBody> => {
    const body = Buffer.from(reply.serializeInput((await compute(reader)) as Record<string, unknown>, '200', 'application/json') as string);
    return { body, etag: entityTag(body) };
  });
  return reply.header('etag', cached.etag).type('application/json; charset=utf-8').send(cached.body);
}
