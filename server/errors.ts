import type { ApiErrorBody } from '@common/schemas/errors';

/** An error meant for the client: status, stable code and a message a person can act on. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: { path: string; message: string }[],
  ) {
    super(message);
  }

  toBody(): ApiErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) } };
  }
}

export const NotFoundError = (what: string) => new ApiError(404, 'not_found', `${what} not found`);
export const ValidationError = (message: string, fields?: { path: string; message: string }[]) =>
  new ApiError(400, 'validation_failed', message, fields);
export const BadRequestError = (code: string, message: string) => new ApiError(400, code, message);
export const UnauthorizedError = (message = 'Missing or invalid admin token: send Authorization: Bearer <token>') =>
  new ApiError(401, 'unauthorized', message);
export const ForbiddenError = (message: string) => new ApiError(403, 'forbidden', message);
export const ConflictError = (message: string) => new ApiError(409, 'conflict', message);
export const PayloadTooLargeError = (message: string) => new ApiError(413, 'payload_too_large', message);
