/**
 * Stable machine codes of API and socket errors. Client and server match errors by these codes,
 * never by message text (messages are for people and may be reworded).
 */
export const ErrorCode = {
  /** A signed-in route was called with no session cookie and no bearer token. */
  signInRequired: 'sign_in_required',
  /** The bearer token is not the admin token (or the admin token is turned off). */
  invalidAdminToken: 'invalid_admin_token',
  /** The bearer token looks like a personal API token but is unknown, revoked or expired. */
  invalidApiToken: 'invalid_api_token',
  /** The session cookie names no live session (signed out, expired or ended by an admin). */
  sessionEnded: 'session_ended',
  /** Wrong email or password (the same answer whether the email exists). */
  invalidCredentials: 'invalid_credentials',
  /** A cookie-authenticated write came from another site. */
  crossSiteRequest: 'cross_site_request',
  /** The password is too common (or the email itself). */
  weakPassword: 'weak_password',
  /** The first admin exists already. */
  setupDone: 'setup_done',
  /** The invitation or reset link is unknown, used or expired. */
  invitationInvalid: 'invitation_invalid',
  /** The change would leave the team without an active admin. */
  lastAdmin: 'last_admin',
  /** Ingest was called without any credential. */
  ingestCredentialRequired: 'ingest_credential_required',
  /** The credential is neither the admin token nor any data source's ingest key. */
  invalidIngestCredential: 'invalid_ingest_credential',
  /** A valid ingest key tried to write to another data source. */
  ingestKeyForbidden: 'ingest_key_forbidden',
  forbidden: 'forbidden',
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  rateLimited: 'rate_limited',
  validationFailed: 'validation_failed',
  repeatedParameter: 'repeated_parameter',
  payloadTooLarge: 'payload_too_large',
  /** The body did not arrive within the route's body timeout. */
  bodyTimeout: 'body_timeout',
  malformedJson: 'malformed_json',
  jsonTooDeep: 'json_too_deep',
  badContentEncoding: 'bad_content_encoding',
  unsupportedMediaType: 'unsupported_media_type',
  conflict: 'conflict',
  /** A data source (or the team) has as many alert rules as it may: one must go before another is made. */
  alertLimit: 'alert_limit',
  /** A dashboard save's If-Match names a version that is no longer current (the answer carries the current one). */
  versionConflict: 'version_conflict',
  /** An If-Match that is not a dashboard version's ETag. */
  ifMatchInvalid: 'if_match_invalid',
  /** A dashboard file the server cannot take: not a dashboard, an unknown schemaVersion, or a field the source has not. */
  definitionInvalid: 'definition_invalid',
  /** An ingest names a primary key other than the source's (or one for an append-only source). */
  primaryKeyConflict: 'primary_key_conflict',
  /** A first ingest without a named key: the first field is missing or repeats in the batch. */
  primaryKeyAmbiguous: 'primary_key_ambiguous',
  /** A setting that can change only while the source holds no records (primaryKey, appendOnly). */
  sourceNotEmpty: 'source_not_empty',
  /** Import Data: the key column repeats a value in the file (nothing is written). */
  duplicateKeys: 'duplicate_keys',
  /** The share link exists but does not allow CSV export. */
  shareCsvForbidden: 'share_csv_forbidden',
  /** A signed embed token was refused (any reason: the answer never says which check failed). */
  embedTokenInvalid: 'embed_token_invalid',
  /** The embed token does not allow CSV export (its `allowCsv` claim is not true). */
  embedCsvForbidden: 'embed_csv_forbidden',
  /** The Idempotency-Key header is empty, longer than 255 characters or not printable ASCII. */
  idempotencyKeyInvalid: 'idempotency_key_invalid',
  /** The Idempotency-Key was used on this source with another request (body, URL or query). */
  idempotencyKeyReused: 'idempotency_key_reused',
  /** A request with the same Idempotency-Key is still being answered. */
  idempotencyKeyInFlight: 'idempotency_key_in_flight',
  internalError: 'internal_error',
  /** An integration's upstream (an API, a database) refused or failed Test connection: the message says what to fix. */
  upstreamFailed: 'upstream_failed',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Codes that mean "this client's session or token is missing or no longer valid: sign in again". */
export const SIGN_IN_AGAIN_CODES: readonly string[] = [ErrorCode.signInRequired, ErrorCode.sessionEnded, ErrorCode.invalidAdminToken, ErrorCode.invalidApiToken];

/** The one JSON shape of every failed API call. */
export interface ApiErrorBody {
  error: {
    /** Stable machine code: one of `ErrorCode`, or a domain code such as `no_records`. */
    code: string;
    /** What went wrong, in words a person can act on. */
    message: string;
    /** For validation failures: which field and why. */
    fields?: { path: string; message: string }[];
  };
}

/** Most levels of nesting a JSON body may have (objects and arrays); deeper bodies answer 400. */
export const MAX_JSON_DEPTH = 64;
