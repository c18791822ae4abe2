// RFC 9457 problem responses: every refusal of the service is one of these.
import { type ErrorCode, ERROR_CATALOGUE, errorTypeUrl } from './error-catalogue.js';

export class ProblemError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
    this.status = ERROR_CATALOGUE[code].status;
  }
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  request_id: string;
}

export function problemBody(publicUrl: string, error: ProblemError, requestId: string): ProblemBody {
  return {
    type: errorTypeUrl(publicUrl, error.code),
    title: ERROR_CATALOGUE[error.code].title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    request_id: requestId,
  };
}

export const invalidRequest = (detail: string) => new ProblemError('invalid_request', detail);
export const notFound = (detail: string) => new ProblemError('not_found', detail);
