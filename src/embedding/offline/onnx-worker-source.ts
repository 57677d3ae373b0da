/**
 * @module The model worker's ONNX Runtime part, as JavaScript source (model-worker runs its worker from a
 * string): loading the session, checking it with a probe run, and embedding a job's token ids with it.
 */

/**
 * Two texts every new session embeds before it is trusted (their ids go to the worker with the model). Two,
 * unalike, so a session that gives every text the same vector fails too.
 */
export const ONNX_PROBE_TEXTS: readonly string[] = [
  'the night train to Lisbon was late again',
  'Anna: did you remember to water the tomatoes?',
];

/**
 * Defines `loadOnnx(ort, bytes)`, resolving to `{ embed, release }`: the job runner
 * `(tokenIds) => Promise<Float32Array[]>` and the session's release, called before the worker exits.
 * One intra-op thread per session: each model worker runs one job at a time and there is a worker per core,
 * so more threads per session would only make the workers fight for the same cores. The ids of each text
 * are clipped to its first 128, as the TensorFlow graph does (ClipToMaxLength); texts are padded to the
 * batch's longest, and an empty text is all padding (its vector is the one the TensorFlow graph gives an
 * empty text beside others).
 */
export const ONNX_WORKER_SOURCE = `
async function loadOnnx(ort, bytes) {
  const session = await ort.InferenceSession.create(bytes, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const embed = async (tokenIds) => {
    let length = 1;
    for (const ids of tokenIds) length = Math.max(length, Math.min(ids.length, MAX_TOKENS));
    const rows = tokenIds.length;
    const ids = new Int32Array(rows * length);
    const mask = new Float32Array(rows * length);
    const positions = new Float32Array(length);
    for (let p = 0; p < length; p++) positions[p] = p;
    tokenIds.forEach((row, r) => {
      const kept = Math.min(row.length, MAX_TOKENS);
      ids.set(row.subarray(0, kept), r * length);
      mask.fill(1, r * length, r * length + kept);
    });
    const { embedding } = await session.run({
      ids: new ort.Tensor('int32', ids, [rows, length]),
      mask: new ort.Tensor('float32', mask, [rows, length]),
      positions: new ort.Tensor('float32', positions, [length]),
    });
    const flat = embedding.data;
    const dims = embedding.dims[1];
    return tokenIds.map((_, row) => flat.slice(row * dims, (row + 1) * dims));
  };
  return { embed, release: async () => session.release() };
}
// An ONNX Runtime that loads can still fail or compute nonsense when it runs (a kernel this CPU or build
// lacks, a graph change): the session must answer the probe with one finite unit vector of the model's
// dimensions per text, unlike each other, or the worker falls back to TensorFlow.js.
async function loadCheckedOnnx(ort, bytes, probe) {
  const onnx = await loadOnnx(ort, bytes);
  try {
    checkProbe(await onnx.embed(probe.ids), probe);
    return onnx;
  } catch (error) {
    await onnx.release().catch(() => {});
    throw new Error('ONNX Runtime loaded but failed its probe run: ' + (error instanceof Error ? error.message : String(error)));
  }
}
function checkProbe(vectors, probe) {
  if (vectors.length !== probe.ids.length) throw new Error(vectors.length + ' vectors for ' + probe.ids.length + ' texts');
  for (const vector of vectors) {
    if (vector.length !== probe.dimensions) throw new Error('a vector of ' + vector.length + ' dimensions, not ' + probe.dimensions);
    let norm = 0;
    for (const x of vector) norm += x * x;
    if (!Number.isFinite(norm)) throw new Error('a vector with a value that is not a finite number');
    if (Math.abs(Math.sqrt(norm) - 1) > 1e-3) throw new Error('a vector of norm ' + Math.sqrt(norm) + ', not 1');
  }
  let dot = 0;
  for (let i = 0; i < probe.dimensions; i++) dot += vectors[0][i] * vectors[1][i];
  if (dot > 0.99) throw new Error('the same vector for two unalike texts (cosine ' + dot + ')');
}
`;
