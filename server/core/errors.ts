import { ErrorCode, type ApiErrorBody } from '@common/schemas/errors';

/** An error meant for the client: status, stable code and a message a person can act on. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: { path: string; message: string }[],
    /** Extra response headers (Allow, Retry-After…). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): ApiErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) } };
  }
}

export const NotFoundError = (what: string) => new ApiError(404, ErrorCode.notFound, `${what} not found`);
export const ValidationError = (message: string, fields?: { path: string; message: string }[]) =>
  new ApiError(400, ErrorCode.validationFailed, message, fields);
export const BadRequestError = (code: string, message: string) => new ApiError(400, code, message);
export const InvalidAdminTokenError = () => new ApiError(401, ErrorCode.invalidAdminToken, 'Invalid admin token');
export const ForbiddenError = (message: string, code: string = ErrorCode.forbidden) => new ApiError(403, code, message);
export const ConflictError = (message: string) => new ApiError(409, ErrorCode.conflict, message);
export const PayloadTooLargeError = (message: string) => new ApiError(413, ErrorCode.payloadTooLarge, message);
export const UnsupportedMediaTypeError = (message = 'Send the body as JSON with Content-Type: application/json') =>
  new ApiError(415, ErrorCode.unsupportedMediaType, message);
