/**
 * @module Reading an OpenAI-style embeddings response body into vectors in input order, with errors that
 * name exactly what was missing, so a half-compatible server is easy to diagnose.
 */
import { ProviderError } from '../../errors/memory-pool-error.js';

/**
 * Returns one vector per input, ordered by each item's `index` (servers may answer out of order; OpenAI
 * documents `index` as the input position). Items with no `index` at all are taken in array order.
 */
export function readEmbeddingsResponse(body: unknown, inputCount: number, source: string): Float32Array[] {
  const malformed = (what: string) =>
    new ProviderError('embedding_failed', `${source} returned a malformed embeddings response: ${what}`, {
      retryable: false,
    });
  if (!isRecord(body)) throw malformed('the body is not a JSON object');
  const data = body.data;
  if (!Array.isArray(data)) {
    throw malformed(`no "data" array (top-level keys: ${Object.keys(body).join(', ') || 'none'})`);
  }
  if (data.length !== inputCount) throw malformed(`${data.length} embeddings for ${inputCount} inputs`);

  const withIndex = data.filter((item) => isRecord(item) && item.index !== undefined).length;
  if (withIndex !== 0 && withIndex !== data.length)
    throw malformed('some items have an "index" and some do not');

  const vectors = new Array<Float32Array | undefined>(inputCount);
  data.forEach((item: unknown, position) => {
    if (!isRecord(item)) throw malformed(`data[${position}] is not an object`);
    const index = withIndex === 0 ? position : item.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= inputCount) {
      throw malformed(`data[${position}].index is ${JSON.stringify(index)}, expected 0..${inputCount - 1}`);
    }
    if (vectors[index] !== undefined) throw malformed(`index ${index} appears more than once`);
    vectors[index] = readVector(item.embedding, `data[${position}].embedding`, malformed);
  });
  return vectors as Float32Array[];
}

function readVector(value: unknown, path: string, malformed: (what: string) => ProviderError): Float32Array {
  if (value === undefined) throw malformed(`${path} is missing`);
  // Some proxies answer in base64 (little-endian float32) even when floats were not asked for.
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === 0 || bytes.length % 4 !== 0)
      throw malformed(`${path} is a string but not base64 float32`);
    // Copied into a buffer of its own: Buffer.from may hand out a slice of a shared pool, unaligned for floats.
    const vector = new Float32Array(bytes.length / 4);
    new Uint8Array(vector.buffer).set(bytes);
    const bad = vector.findIndex((number) => !Number.isFinite(number));
    if (bad >= 0) throw malformed(`${path}[${bad}] decodes to ${vector[bad]}, not a finite number`);
    return vector;
  }
  if (!Array.isArray(value)) throw malformed(`${path} is not a list of numbers`);
  if (value.length === 0) throw malformed(`${path} is empty`);
  const vector = new Float32Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const number = value[i];
    if (typeof number !== 'number' || !Number.isFinite(number)) {
      throw malformed(`${path}[${i}] is ${JSON.stringify(number)}, not a finite number`);
    }
    vector[i] = number;
  }
  return vector;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
