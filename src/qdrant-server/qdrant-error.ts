/** @module Errors the embedded store answers with, worded and coded exactly as Qdrant does (qdrant-subset.md §0.2). */

/** One Qdrant error: the HTTP status and the full message that goes into `status.error`. */
export class QdrantError extends Error {
  override readonly name = 'QdrantError';
  constructor(
    readonly status: number,
    message: string,
    /** Qdrant reports request-extraction errors with `time: 0`. */
    readonly extraction = false,
  ) {
    super(message);
  }
}

/** 400 `Wrong input: …` (StorageError::BadInput). */
export function badInput(message: string): QdrantError {
  return new QdrantError(400, `Wrong input: ${message}`);
}

/** 400 `Bad request: …` (StorageError::BadRequest). */
export function badRequest(message: string): QdrantError {
  return new QdrantError(400, `Bad request: ${message}`);
}

/** 404 `Not found: …`. */
export function notFound(message: string): QdrantError {
  return new QdrantError(404, `Not found: ${message}`);
}

/** 409 `Wrong input: …` (StorageError::AlreadyExists). */
export function alreadyExists(message: string): QdrantError {
  return new QdrantError(409, `Wrong input: ${message}`);
}

/** 403 `Forbidden: …`. */
export function forbidden(message: string): QdrantError {
  return new QdrantError(403, `Forbidden: ${message}`);
}

/** 400 `Format error in JSON body: …`: JSON that does not parse or has the wrong shape. */
export function formatError(message: string): QdrantError {
  return new QdrantError(400, `Format error in JSON body: ${message}`, true);
}

/** 400 `Deserialize error in query parameters: …`. */
export function queryParamError(message: string): QdrantError {
  return new QdrantError(400, `Deserialize error in query parameters: ${message}`, true);
}

/** One failed validation rule: the field path (e.g. `search_request.limit`) and its message. */
export interface FieldViolation {
  readonly path: string;
  readonly message: string;
}

/** 422 `Validation error in <where>: [path: msg; …]`. */
export function validationError(
  violations: readonly FieldViolation[],
  where: 'JSON body' | 'path parameters' | 'query parameters' = 'JSON body',
): QdrantError {
  const list = violations.map((v) => `${v.path}: ${v.message}`).join('; ');
  return new QdrantError(422, `Validation error in ${where}: [${list}]`, true);
}

/** 400 for a part of Qdrant's API the embedded store does not implement: nothing is silently ignored. */
export function unsupported(feature: string): QdrantError {
  return badRequest(
    `${feature} is not supported by memory-pool's embedded store. Use a real Qdrant (QDRANT_URL) for this feature.`,
  );
}

/** Type guard for QdrantError. */
export function isQdrantError(value: unknown): value is QdrantError {
  return value instanceof QdrantError;
}
