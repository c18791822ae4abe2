// Idempotency-Key on the management API's writes (shared decisions §11; Stripe's keys and the IETF draft
// "The Idempotency-Key HTTP Header Field", docs/decisions.md "Idempotency keys"). A POST, PUT, PATCH or
// DELETE may carry a key of 1-255 visible ASCII characters. The first request with a key runs in one
// transaction (src/domain/request-transaction.ts) that commits, with its answer kept, only once the
// answer is known: 2xx or 3xx. So a repeat (same credential and key, same method, path and body) within
// 24 hours gets that answer again, with `Idempotency-Replayed: true`, and nothing is done twice, even
// when the first answer never reached the client. A refusal or a failure is not kept: its transaction
// rolls back, and the repeat runs afresh. A repeat while the first still runs is 409
// idempotency_key_in_use with Retry-After; the key with another request is 422 idempotency_key_reused.
// A route whose work is its own transactions and is safe to repeat (`config.idempotency:
// 'own-transactions'`, erasure) keeps its answer after them instead.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DomainContext } from '../domain/context.js';
import { type KeptAnswer, keepAnswer, keptAnswer } from '../domain/idempotency.js';
import { inRequestTransaction, RequestTransaction } from '../domain/request-transaction.js';
import { ProblemError, problemBody } from './problem.js';
import { answerFor } from './problem-handler.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'own-transactions': the route's work commits as it goes and is safe to repeat; its answer is kept after it. */
    idempotency?: 'own-transactions';
  }
  interface FastifyRequest {
    /** A keyed write being answered for the first time. */
    keyedWrite: KeyedWrite | null;
  }
}

interface KeyedWrite {
  id: string;
  credential: string;
  key: string;
  fingerprint: string;
  /** The request's one transaction; null for a route of its own transactions. */
  transaction: RequestTransaction | null;
}

const HEADER = 'idempotency-key';
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WELL_FORMED = /^[\x21-\x7e]{1,255}$/;
/** How long a repeat that met the first still running is asked to wait. */
const IN_USE_RETRY_AFTER_SECONDS = 1;

const inUse = () =>
  new ProblemError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being answered; send it again in a second to get its answer', {
    'retry-after': String(IN_USE_RETRY_AFTER_SECONDS),
  });

export interface IdempotencyOptions {
  ctx: DomainContext;
  publicUrl: string;
  /** Whose keys the request's are: one space per credential. */
  credentialOf: (request: FastifyRequest) => string;
  onStoreFault: () => void;
}

/** What must match for a repeat to be the same request: the method, the path with its query, the body. */
function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256').update(`${request.method}\n${request.url}\n${JSON.stringify(request.body ?? null)}`).digest('base64url');
}

/** Installs the keys on the writes of the plugin `app` is (the management API). */
export function installIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const { ctx } = options;
  /** Keyed writes this process is answering now. */
  const running = new Set<string>();
  app.decorateRequest('keyedWrite', null);

  // After the caller is known and the body validated, last before the handler (the scope it opens must
  // hold the handler).
  app.addHook('preHandler', (request, reply, done) => {
    const header = request.headers[HEADER];
    if (!WRITES.has(request.method) || header === undefined) return done();
    start(request, reply, header).then(
      (started) => {
        // A replayed answer has been sent: the handler does not run.
        if (started === 'replayed') return;
        if (started) inRequestTransaction(started, done);
        else done();
      },
      (error: Error) => done(error),
    );
  });

  /** The request's transaction, none for a route of its own transactions, or the first answer sent again. */
  async function start(request: FastifyRequest, reply: FastifyReply, header: string | string[]): Promise<RequestTransaction | null | 'replayed'> {
    if (typeof header !== 'string' || !WELL_FORMED.test(header)) {
      throw new ProblemError('invalid_request', 'Header Idempotency-Key must be one value of 1 to 255 visible ASCII characters (letters, digits and punctuation, no spaces)');
    }
    const credential = options.credentialOf(request);
    const id = `${credential} ${header}`;
    const fingerprint = fingerprintOf(request);
    const kept = await keptAnswer(ctx, credential, header);
    if (kept) {
      if (kept.fingerprint !== fingerprint) {
        throw new ProblemError('idempotency_key_reused', 'This Idempotency-Key was used for another request (another method, path or body) in the last 24 hours; make a new key for a new request');
      }
      replay(reply, kept);
      return 'replayed';
    }
    // Checked after the look-up, with nothing awaited before the add: two repeats cannot both pass.
    if (running.has(id)) throw inUse();
    running.add(id);
    const transaction = request.routeOptions.config.idempotency === 'own-transactions' ? null : new RequestTransaction(ctx.db);
    request.keyedWrite = { id, credential, key: header, fingerprint, transaction };
    return transaction;
  }

  function replay(reply: FastifyReply, kept: KeptAnswer): void {
    reply.code(kept.status).header('idempotency-replayed', 'true');
    if (kept.location !== null) reply.header('location', kept.location);
    if (kept.content_type !== null) reply.type(kept.content_type);
    void reply.send(kept.body === '' ? undefined : kept.body);
  }

  // The answer is known: kept with the write and committed, or everything rolled back.
  app.addHook('onSend', async (request, reply, payload) => {
    const keyed = request.keyedWrite;
    if (!keyed) return payload;
    request.keyedWrite = null;
    try {
      if (reply.statusCode >= 400) {
        await keyed.transaction?.rollback();
        return payload;
      }
      const answer: KeptAnswer = {
        credential: keyed.credential,
        key: keyed.key,
        fingerprint: keyed.fingerprint,
        status: reply.statusCode,
        content_type: headerText(reply.getHeader('content-type')),
        location: headerText(reply.getHeader('location')),
        body: typeof payload === 'string' ? payload : payload === undefined || payload === null ? '' : String(payload),
      };
      const keep = async (db: DomainContext['db']) => {
        if (!(await keepAnswer(ctx, db, answer))) throw inUse();
      };
      if (keyed.transaction) await keyed.transaction.commit(keep);
      else await keep(ctx.db).catch(() => undefined); // the work is done and safe to repeat: a lost record costs a repeat
      return payload;
    } catch (error) {
      // Nothing was committed: the answer becomes the refusal.
      await keyed.transaction?.rollback().catch(() => undefined);
      return refusal(request, reply, error as Error);
    } finally {
      running.delete(keyed.id);
    }
  });

  // A request that ends without an answer sent (its connection gone) leaves nothing open.
  app.addHook('onResponse', async (request) => finish(request));
  app.addHook('onRequestAbort', async (request) => finish(request));
  async function finish(request: FastifyRequest): Promise<void> {
    const keyed = request.keyedWrite;
    if (!keyed) return;
    request.keyedWrite = null;
    running.delete(keyed.id);
    await keyed.transaction?.rollback().catch(() => undefined);
  }

  /** The problem that replaces an answer whose commit failed, in place (onSend cannot send another). */
  function refusal(request: FastifyRequest, reply: FastifyReply, error: Error): string {
    const problem = answerFor(error, request, options.onStoreFault);
    reply.problemCode = problem.code;
    for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
    reply.removeHeader('location');
    reply.code(problem.status).type('application/problem+json');
    return JSON.stringify(problemBody(options.publicUrl, problem, request.id));
  }
}

const headerText = (value: unknown): string | null => (value === undefined || value === null ? null : String(value));
