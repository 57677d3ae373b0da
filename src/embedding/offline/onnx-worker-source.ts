/**
 * @module The model worker's ONNX Runtime part, as JavaScript source (model-worker runs its worker from a
 * string): loading the session and embedding a job's token ids with it.
 */

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
  return { embed, release: () => session.release() };
}
`;
