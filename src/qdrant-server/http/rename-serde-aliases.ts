/**
 * @module Qdrant's serde aliases on collection bodies (`lib/storage/src/content_manager/collection_meta_ops.rs`):
 * `quantization` is read as `quantization_config` (create and update), `optimizer_config` as
 * `optimizers_config` (create), so a body written with the alias is kept and reported, not dropped.
 */
import { formatError } from '../qdrant-error.js';
import type { JsonObject } from './body-shape.js';

/** CreateCollection's aliases: alias → field. */
export const CREATE_COLLECTION_ALIASES = {
  quantization: 'quantization_config',
  optimizer_config: 'optimizers_config',
} as const;

/** UpdateCollection's aliases: alias → field. */
export const UPDATE_COLLECTION_ALIASES = { quantization: 'quantization_config' } as const;

/** `body` with each alias key renamed to its field; both given is serde's `duplicate field` (400). */
export function renameSerdeAliases(body: JsonObject, aliases: Readonly<Record<string, string>>): JsonObject {
  let renamed = body;
  for (const [alias, field] of Object.entries(aliases)) {
    if (!Object.hasOwn(renamed, alias)) continue;
    if (Object.hasOwn(renamed, field)) throw formatError(`duplicate field \`${field}\``);
    const { [alias]: value, ...rest } = renamed;
    renamed = { ...rest, [field]: value } as JsonObject;
  }
  return renamed;
}
