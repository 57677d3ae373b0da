/**
 * @module USE-lite's ONNX model, built once per process from the package's weights and handed to every model
 * worker that runs ONNX Runtime.
 */
import { buildUseLiteOnnx } from './use-lite-onnx.js';
import { readUseLiteWeights } from './use-lite-weights.js';

/** The length of the model's vectors, which a new session's probe run must give. */
export { OUTPUT_DIMENSIONS as USE_LITE_ONNX_DIMENSIONS } from './use-lite-onnx.js';

let built: Promise<Uint8Array> | undefined;

/**
 * The model's bytes (~28 MB, nearly all weights). Built on the first call (~50 ms of file reads, ~20 ms of
 * encoding on this thread, once) and kept, so a worker started after a crash gets them at once; a failed
 * build is forgotten so a later call tries again. Each worker gets a copy (postMessage clones it): ONNX
 * Runtime's binding refuses bytes in shared memory, and it keeps its own copy of the weights anyway.
 */
export function loadUseLiteOnnx(): Promise<Uint8Array> {
  built ??= readUseLiteWeights().then(buildUseLiteOnnx);
  built.catch(() => {
    built = undefined;
  });
  return built;
}
