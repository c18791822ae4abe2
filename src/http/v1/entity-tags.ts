// Entity tags on v1 answers (RFC 9110 §8.8.3, §13.1.2): a strong tag over the exact bytes of every 200
// answer to GET or HEAD, and 304 Not Modified when If-None-Match names it. @fastify/etag was not used: it
// answers 304 for any status, errors included, and compares If-None-Match as one opaque string rather
// than as a list of tags compared weakly.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export function entityTag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** Weak comparison: W/ prefixes are ignored; `*` matches any current representation. */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const opaque = (value: string) => value.trim().replace(/^W\//, '');
  const wanted = opaque(tag);
  return header.split(',').some((candidate) => candidate.trim() === '*' || opaque(candidate) === wanted);
}

/** The onSend hook: tags 200 answers to GET and HEAD and turns a matching conditional request into 304. */
export async function tagAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  let tag = reply.getHeader('etag');
  if (typeof tag !== 'string') {
    tag = entityTag(payload);
    reply.header('etag', tag);
  }
  if (!matchesIfNoneMatch(request.headers['if-none-match'], tag)) return payload;
  // RFC 9110 §15.4.5: a 304 has no content, so it describes none.
  reply.code(304);
  reply.removeHeader('content-length');
  reply.removeHeader('content-type');
  return '';
}
