/** @module `PUT /collections/{name}/index` body: field name and schema, with text defaults filled in (qdrant-subset.md §1). */
import type { PayloadFieldSchema } from '../engine/engine-api.js';
import { assertJsonPath } from '../filter/index.js';
import { badRequest, formatError } from '../qdrant-error.js';
import { invalidType, isJsonObject, missingField, readObject } from './body-shape.js';

const TYPES: readonly PayloadFieldSchema['type'][] = [
  'keyword',
  'integer',
  'float',
  'geo',
  'text',
  'bool',
  'datetime',
  'uuid',
];
const TOKENIZERS = ['word', 'whitespace', 'prefix', 'multilingual'];

function isSchemaType(value: unknown): value is PayloadFieldSchema['type'] {
  return typeof value === 'string' && (TYPES as readonly string[]).includes(value);
}

function parseSchema(value: unknown): PayloadFieldSchema {
  if (isSchemaType(value)) return { type: value };
  if (!isJsonObject(value) || !isSchemaType(value.type)) {
    throw formatError('data did not match any variant of untagged enum PayloadFieldSchema');
  }
  const { type, ...rest } = value;
  if (type !== 'text') return { type, params: { type, ...rest } };
  const tokenizer = rest.tokenizer ?? 'word';
  if (typeof tokenizer !== 'string' || !TOKENIZERS.includes(tokenizer)) {
    throw formatError('data did not match any variant of untagged enum PayloadFieldSchema');
  }
  // Qdrant always writes the tokenizer out, so `{"type":"text"}` reads back with `"tokenizer":"word"`.
  return { type, params: { type, ...rest, tokenizer } };
}

/** Parses `{field_name, field_schema}` (`field_type` is an alias). */
export function parseCreateIndex(json: unknown): { field: string; schema: PayloadFieldSchema } {
  const body = readObject(json, 'struct CreateFieldIndex');
  if (body.field_name === undefined) throw missingField('field_name');
  if (typeof body.field_name !== 'string') throw invalidType(body.field_name, 'a string');
  const schema = body.field_schema ?? body.field_type;
  const parsedSchema = schema === undefined || schema === null ? undefined : parseSchema(schema);
  assertJsonPath(body.field_name);
  if (parsedSchema === undefined) {
    throw badRequest("Can't auto-detect field type, please specify `field_schema` in the request");
  }
  return { field: body.field_name, schema: parsedSchema };
}
