// Turns every failure into a problem response: refusals the code raised, request validation, domain
// errors, Fastify's own errors, and faults (logged with their cause, answered without it).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreUnavailable } from '../db/store-faults.js';
import { ConflictError, InvalidInputError, LimitReachedError, NotFoundError } from '../domain/errors.js';
import { ERROR_CATALOGUE } from './error-catalogue.js';
import { ProblemError, problemBody } from './problem.js';
import { removeRateHeaders } from './rate-limit.js';
import { ACCEPTS } from './schemas/common.js';

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  /** With Ajv's `verbose` option: the schema the value failed. */
  parentSchema?: Record<string, unknown>;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};
const FORMAT_WORDS: Record<string, string> = {
  uuid: 'a UUID',
  uri: 'an absolute URL',
  email: 'an e-mail address',
  'date-time': 'a date and time such as 2026-11-21T09:30:00Z',
};
const plural = (count: unknown, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** What was wrong with a value, in words for the person who sent it ("must be …", after the field's name). */
function plainWords(error: AjvError): string {
  const { params } = error;
  switch (error.keyword) {
    case 'pattern': {
      const accepts = error.parentSchema?.[ACCEPTS];
      return typeof accepts === 'string' ? `must be ${accepts}` : 'is not in the form this field takes';
    }
    case 'format':
      return `must be ${FORMAT_WORDS[String(params.format)] ?? `in the ${String(params.format)} format`}`;
    case 'type':
      return `must be ${String(params.type)
        .split(',')
        .map((type) => TYPE_WORDS[type] ?? type)
        .join(' or ')}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${plural(params.limit, 'character')} long`;
    case 'maxLength':
      return `must be at most ${plural(params.limit, 'character')} long`;
    case 'minItems':
      return `must list at least ${plural(params.limit, 'item')}`;
    case 'maxItems':
      return `must list at most ${plural(params.limit, 'item')}`;
    case 'uniqueItems':
      return 'must not list the same item twice';
    default:
      return error.message ?? 'is invalid';
  }
}

const SHOWN_NAME_LENGTH = 64;

/** A parameter name as the detail shows it: unknown names can be arbitrarily long. */
export function shownName(name: string): string {
  return name.length > SHOWN_NAME_LENGTH ? `${name.slice(0, SHOWN_NAME_LENGTH)}…` : name;
}

function pathName(instancePath: string): string {
  return shownName(instancePath.replace(/^\//, '').replaceAll('/', '.'));
}

function validationDetail(errors: AjvError[], context: string | undefined): string {
  const noun = context === 'body' ? 'Field' : 'Parameter';
  const first = errors[0];
  if (!first) return 'The request is invalid';
  const parent = pathName(first.instancePath);
  const within = (name: string) => (parent ? `${parent}.${name}` : name);
  if (first.keyword === 'additionalProperties') return `Unknown ${noun.toLowerCase()} '${within(shownName(String(first.params.additionalProperty)))}'`;
  if (first.keyword === 'required') return `${noun} '${within(String(first.params.missingProperty))}' is required`;
  if (!parent) return `The request ${context ?? ''} ${plainWords(first)}`.replace(/\s+/g, ' ');
  return `${noun} '${parent}' ${plainWords(first)}`;
}

/** How long a client is asked to wait when the store cannot serve: long enough for a restart to go by, short enough not to keep it from a store that is back. */
export const STORE_RETRY_AFTER_SECONDS = 2;

export function storeUnavailable(): ProblemError {
  return new ProblemError('service_unavailable', `The service cannot use its store at the moment; try again in ${STORE_RETRY_AFTER_SECONDS} seconds`, {
    'retry-after': String(STORE_RETRY_AFTER_SECONDS),
  });
}

export function toProblem(error: FastifyError | Error): ProblemError | null {
  if (error instanceof ProblemError) return error;
  if (isStoreUnavailable(error)) return storeUnavailable();
  if (error instanceof NotFoundError) return new ProblemError('not_found', error.message);
  if (error instanceof ConflictError) return new ProblemError('conflict', error.message);
  if (error instanceof LimitReachedError) return new ProblemError('limit_reached', error.message);
  if (error instanceof InvalidInputError) return new ProblemError('invalid_request', error.message);
  const fastifyError = error as FastifyError & { validationContext?: string };
  if (fastifyError.validation) {
    return new ProblemError('invalid_request', validationDetail(fastifyError.validation as AjvError[], fastifyError.validationContext));
  }
  // A uniqueness rule the store enforced under a race that the domain's own check did not see.
  if (fastifyError.code === 'SQLITE_CONSTRAINT_UNIQUE' || fastifyError.code === '23505') {
    return new ProblemError('conflict', 'The change conflicts with an existing record');
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemError('payload_too_large', 'The request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemError('unsupported_media_type', 'Request bodies must be application/json');
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return new ProblemError('invalid_request', fastifyError.message.replace(/^FST_\w+:\s*/, ''));
  }
  return null;
}

export function sendProblem(reply: FastifyReply, publicUrl: string, problem: ProblemError): FastifyReply {
  reply.problemCode = problem.code;
  if (ERROR_CATALOGUE[problem.code].rateHeaders === false) removeRateHeaders(reply);
  for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
  return reply
    .code(problem.status)
    .header('x-request-id', reply.request.id)
    .type('application/problem+json')
    .send(problemBody(publicUrl, problem, reply.request.id));
}

/**
 * The problem that answers `error`: a refusal as it is; a store that cannot serve as 503, noted for
 * readiness (`onStoreFault`) and logged as a warning; anything else as a fault, logged with its cause.
 */
export function answerFor(error: FastifyError | Error, request: FastifyRequest, onStoreFault: () => void): ProblemError {
  const problem = toProblem(error);
  if (problem?.code === 'service_unavailable' && !(error instanceof ProblemError)) {
    onStoreFault();
    request.log.warn({ err: error }, 'the store could not serve a request; answered 503 with Retry-After');
  }
  if (problem) return problem;
  request.log.error({ err: error }, 'request failed with a server fault');
  return new ProblemError('internal_error', 'The service failed to answer this request; quote request_id to support');
}

export function installProblemHandler(app: FastifyInstance, publicUrl: string, onStoreFault: () => void): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => sendProblem(reply, publicUrl, answerFor(error, request, onStoreFault)));
}
