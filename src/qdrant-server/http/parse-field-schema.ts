/** @module `PUT /collections/{name}/index` body: field name and schema, with text defaults filled in (qdrant-subset.md §1). */
import type { PayloadFieldSchema } from '../engine/engine-api.js';
import { assertJsonPath } from '../filter/index.js';
import { badRequest, formatError, unsupported, validationError } from '../qdrant-error.js';
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
  // Qdrant's IntegerIndexParams validator: an integer index must serve matches, ranges or both.
  if (type === 'integer' && rest.lookup === false && rest.range === false) {
    throw validationError([
      {
        path: 'field_schema.lookup',
        message: "Validation error: the 'lookup' and 'range' capabilities can't be both disabled [{}]",
      },
    ]);
  }
  if (type !== 'text') return { type, params: { type, ...rest } };
  const tokenizer = rest.tokenizer ?? 'word';
  if (typeof tokenizer !== 'string' || !TOKENIZERS.includes(tokenizer)) {
    throw formatError('data did not match any variant of untagged enum PayloadFieldSchema');
  }
  checkTextOptions(rest);
  // Qdrant always writes the tokenizer out, so `{"type":"text"}` reads back with `"tokenizer":"word"`.
  return { type, params: { type, ...rest, tokenizer } };
}

/**
 * Text options that change which tokens match are served only where the store gives Qdrant's exact result:
 * custom stopwords. Qdrant's language stopword lists, its Snowball stemmers and its ASCII folding table are
 * not reproduced here, so those options are refused by name, never accepted and ignored.
 */
function checkTextOptions(options: Record<string, unknown>): void {
  const { stopwords, stemmer, ascii_folding: asciiFolding } = options;
  if (asciiFolding !== undefined && asciiFolding !== null && asciiFolding !== false) {
    if (asciiFolding !== true) throw invalidType(asciiFolding, 'a boolean');
    throw unsupported('The text index option `ascii_folding`');
  }
  if (stemmer !== undefined && stemmer !== null) throw unsupported('The text index option `stemmer`');
  if (stopwords === undefined || stopwords === null) return;
  if (typeof stopwords === 'string') {
    throw unsupported(
      `The text index option \`stopwords: "${stopwords}"\` (a language list; \`custom\` lists work)`,
    );
  }
  const set = readObject(stopwords, 'struct StopwordsSet');
  if (Array.isArray(set.languages) && set.languages.length > 0) {
    throw unsupported('The text index option `stopwords.languages` (`custom` lists work)');
  }
  const custom = set.custom;
  if (custom === undefined || custom === null) return;
  if (!Array.isArray(custom)) throw invalidType(custom, 'a sequence');
  for (const word of custom) if (typeof word !== 'string') throw invalidType(word, 'a string');
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
