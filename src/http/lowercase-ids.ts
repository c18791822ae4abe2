// Ids arrive in any letter case and are stored in lowercase (decisions §2). Path and query values are
// lowercased here, once, for every route of the plugin that registers this hook; ids in bodies are
// lowercased by the domain writes that take them.
import type { FastifyRequest } from 'fastify';
import { isUuidShaped } from '../domain/ids.js';

function lowercaseUuids(values: unknown): void {
  if (values === null || typeof values !== 'object') return;
  const record = values as Record<string, unknown>;
  for (const [name, value] of Object.entries(record)) {
    if (typeof value === 'string' && isUuidShaped(value)) record[name] = value.toLowerCase();
  }
}

export async function lowercaseIdParameters(request: FastifyRequest): Promise<void> {
  lowercaseUuids(request.params);
  lowercaseUuids(request.query);
}
