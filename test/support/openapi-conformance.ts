// Checks an answer of the public interface against the OpenAPI document the service serves: the status
// must be documented for the operation, every documented header present, and the body valid against
// the documented schema of its media type. Every v1 answer the test suite receives goes through here.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import type { Service } from '../../src/service.js';

interface Checker {
  document: any;
  ajv: Ajv2020;
  templates: { template: string; pattern: RegExp }[];
}

const checkers = new WeakMap<Service, Checker>();

async function checkerFor(service: Service): Promise<Checker> {
  const known = checkers.get(service);
  if (known) return known;
  const response = await service.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  const document = response.json();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema(document, 'openapi');
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '$'),
  }));
  const checker = { document, ajv, templates };
  checkers.set(service, checker);
  return checker;
}

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

export async function checkResponse(service: Service, method: string, url: string, response: LightMyRequestResponse): Promise<void> {
  const { document, ajv, templates } = await checkerFor(service);
  const path = url.split('?')[0]!.replace(/^\/v1/, '');
  const match = templates.find((entry) => entry.pattern.test(path));
  const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  const status = String(response.statusCode);
  const where = `${method} ${url} → ${status}`;

  const contentType = String(response.headers['content-type'] ?? '').split(';')[0]!;
  const operation = match ? document.paths[match.template][verb] : undefined;
  if (!operation) {
    // Unknown paths and other methods answer problems that no operation documents (after admission, so
    // 401 and 429 too); they still must be problems with the common headers.
    if (!['401', '404', '405', '429'].includes(status)) throw new Error(`${where}: no operation documents this request`);
    for (const header of ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining']) {
      if (response.headers[header] === undefined) throw new Error(`${where}: header ${header} missing`);
    }
    if (contentType !== 'application/problem+json') throw new Error(`${where}: expected a problem, got ${contentType}`);
    const validate = ajv.getSchema(`openapi#/components/schemas/Problem`)!;
    if (!validate(response.json())) throw new Error(`${where}: problem body invalid: ${ajv.errorsText(validate.errors)}`);
    return;
  }
  const documented = operation.responses[status];
  if (!documented) throw new Error(`${where}: status not documented for ${verb.toUpperCase()} ${match!.template}`);
  for (const [header, { required }] of Object.entries<{ required?: boolean }>(documented.headers ?? {})) {
    if (required && response.headers[header.toLowerCase()] === undefined) throw new Error(`${where}: header ${header} missing`);
  }
  if (method.toUpperCase() === 'HEAD') return;
  if (!documented.content) {
    if (response.body !== '') throw new Error(`${where}: documented without a body, got one`);
    if (contentType !== '') throw new Error(`${where}: documented without a body, got Content-Type ${contentType}`);
    return;
  }
  if (!documented.content?.[contentType]) throw new Error(`${where}: media type ${contentType} not documented`);
  const ref = `openapi#/${pointer('paths', match!.template, verb, 'responses', status, 'content', contentType, 'schema')}`;
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`${where}: cannot compile ${ref}`);
  if (!validate(response.json())) throw new Error(`${where}: body does not match the document: ${ajv.errorsText(validate.errors)}\n${response.body}`);
}
