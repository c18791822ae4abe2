// Registers @fastify/swagger for one interface (the public v1 or the management API): the document is
// generated from the route schemas of the plugin it is registered in, so it cannot drift from the code.
import fastifySwagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { LICENSE } from './release.js';
import { LISTED_AS } from './schemas/common.js';
import { NOT_ALWAYS } from './schemas/responses.js';

type OpenApiInfo = NonNullable<NonNullable<FastifyDynamicSwaggerOptions['openapi']>>;
/** The document's `webhooks` section, as @fastify/swagger takes it. */
export type OpenApiWebhooks = NonNullable<OpenApiInfo extends { webhooks?: infer W } ? W : never>;

/** A documented response header is sent on every such response unless marked NOT_ALWAYS: say so in the document. */
function markHeadersRequired(document: any): any {
  for (const item of Object.values<any>(document.paths ?? {})) {
    for (const operation of Object.values<any>(item)) {
      for (const response of Object.values<any>(operation.responses ?? {})) {
        for (const header of Object.values<any>(response.headers ?? {})) {
          header.required = header.schema?.[NOT_ALWAYS] !== true;
          delete header.schema?.[NOT_ALWAYS];
        }
      }
    }
  }
  return document;
}

/** A comma-separated parameter (common.ts, CommaSeparated) is shown as the list it is: an array, style form, explode false. */
function showListsAsArrays(document: any): any {
  for (const item of Object.values<any>(document.paths ?? {})) {
    for (const operation of Object.values<any>(item)) {
      for (const parameter of operation.parameters ?? []) {
        const list = parameter.schema?.[LISTED_AS];
        if (list) Object.assign(parameter, { schema: list, style: 'form', explode: false });
      }
    }
  }
  return document;
}

/** An answer recorded from a real run, by operationId: shown in the document as its success's example. */
export interface RecordedExample {
  /** The path and query asked, under the interface's base URL. */
  request: string;
  /** The request's JSON body, if it had one. */
  requestBody?: unknown;
  status: number;
  /** The answer's body; null when it had none. */
  body: unknown;
}

/**
 * What a recorded answer has where the service named its application (APP_URL, a guide's `url` in an
 * event): the recording's own address is not the one a reader's service is served at.
 */
export const RECORDED_APP_URL = '{APP_URL}';

/** The recorded answers as the service at `appUrl` gives them. */
export function examplesAt(examples: Record<string, RecordedExample>, appUrl: string): Record<string, RecordedExample> {
  return JSON.parse(JSON.stringify(examples).replaceAll(RECORDED_APP_URL, JSON.stringify(appUrl).slice(1, -1))) as Record<string, RecordedExample>;
}

/** Each recorded answer becomes the example of its operation's response. */
function addExamples(document: any, examples: Record<string, RecordedExample>): any {
  for (const item of Object.values<any>(document.paths ?? {})) {
    for (const operation of Object.values<any>(item)) {
      const recorded = examples[operation.operationId];
      const media = recorded && operation.responses?.[recorded.status]?.content?.['application/json'];
      if (media) media.example = recorded.body;
      if (recorded) operation['x-request-example'] = { path: recorded.request, body: recorded.requestBody, status: recorded.status };
    }
  }
  return document;
}

export async function registerOpenApiDocument(app: FastifyInstance, openapi: OpenApiInfo, examples: Record<string, RecordedExample> = {}): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: { openapi: '3.1.0', ...openapi, info: { contact: { name: 'API support' }, license: LICENSE, ...openapi.info } as OpenApiInfo['info'] },
    hideUntagged: true,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documentObject) =>
      addExamples(showListsAsArrays(markHeadersRequired('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject)), examples),
  });
}
