/**
 * @module USE-lite's architecture written as an ONNX graph over the package's own weights, for ONNX Runtime.
 */
import { OnnxGraphBuilder } from './onnx-graph-builder.js';
import type { UseLiteTensor } from './use-lite-weights.js';

const GRAPH = 'module_apply_default/Encoder_en/KonaTransformer/';
const STACK = `${GRAPH}Encode/TransformerStack/`;
const VARIABLES = 'module/Encoder_en/KonaTransformer/Encode/';
const HIDDEN = 'module/Encoder_en/hidden_layers/tanh_layer_0/';
/** The length of the model's vectors. */
export const OUTPUT_DIMENSIONS = 512;

/**
 * Builds USE-lite as ONNX model bytes from its weights (readUseLiteWeights). Read from the TensorFlow graph
 * in model.json, node by node, with every constant taken from the weights by its node's name:
 * - input: the token's embedding (8002x256 table) twice, plus sin/cos of position x inverse timescale: the
 *   graph adds the scattered embedding to the scattered "embedding + signal", so the embedding counts twice;
 * - two pre-norm transformer layers: layer norm (eps 1e-6); qkv and output transforms (1x1 convolutions in
 *   the graph, matrix products here); 4 heads, queries scaled by 1/sqrt(head size); padding keys biased by
 *   -1e9; Layer_0's residual widened 256 -> 512 by a dense layer; a ReLU feed-forward of 1536;
 * - the mean over each text's tokens, divided by max(length, 1); a 512x512 tanh layer; L2 normalization
 *   (max(sum of squares, 1e-12)).
 * Inputs: `ids` int32 [batch, length] (any valid id at padding), `mask` float [batch, length] (1 for a token,
 * 0 for padding), `positions` float [length] (0, 1, 2...). Padding rows are computed but never read: the
 * attention bias and the masked mean drop them, as the TensorFlow graph, which computes only real tokens, does.
 */
export function buildUseLiteOnnx(weights: ReadonlyMap<string, UseLiteTensor>): Uint8Array {
  const read = (name: string): UseLiteTensor => {
    const tensor = weights.get(name);
    if (tensor === undefined) throw new Error(`USE-lite weight ${name} is missing from model.json`);
    return tensor;
  };
  const constant = (name: string) => read(name).values[0]!;
  const g = new OnnxGraphBuilder();
  const weight = (name: string, shape?: readonly number[]) =>
    g.weight(name, shape ?? read(name).shape, read(name).values);
  const dense = (x: string, kernel: string, bias: string, shape?: readonly number[]) =>
    g.node('Add', [g.node('MatMul', [x, weight(kernel, shape)]), weight(bias)]);
  const epsilon = constant(`${STACK}Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`);
  const layerNorm = (x: string, prefix: string) =>
    g.node(
      'LayerNormalization',
      [
        x,
        weight(`${prefix}layer_norm_scale/ConcatPartitions/concat`),
        weight(`${prefix}layer_norm_bias/ConcatPartitions/concat`),
      ],
      { axis: -1, epsilon: { float: epsilon } },
    );
  const heads = constant(
    `${STACK}Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`,
  );
  const ignorePadding = `${STACK}Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`;
  // (1 - mask) x -1e9 as [batch, 1, 1, length]: broadcast over heads and queries.
  const paddingBias = g.node('Mul', [
    g.node('Sub', [g.scalar('one', 1), g.node('Unsqueeze', ['mask', g.ints('axes_1_2', [1, 2])])]),
    g.scalar('padding_bias', constant(ignorePadding)),
  ]);

  const embedded = g.node('Gather', [weight('module/Embeddings_en'), 'ids']);
  const angles = g.node('Mul', [
    g.node('Unsqueeze', ['positions', g.ints('axes_1', [1])]),
    weight(`${STACK}Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`),
  ]);
  const signal = g.node('Concat', [g.node('Sin', [angles]), g.node('Cos', [angles])], { axis: 1 });
  let x = g.node('Add', [g.node('Add', [embedded, embedded]), signal]);

  for (const layer of [0, 1]) {
    const own = `${GRAPH}Encode/Layer_${layer}/TransformerLayer/`;
    const stack = `${STACK}Layer_${layer}/TransformerLayer/`;
    const attention = `${VARIABLES}Layer_${layer}/TransformerLayer/MultiheadAttention/`;
    const width = read(`${attention}qkv_transform_single/kernel/part_0`).shape[2]!;
    const headSize = constant(`${stack}MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`);
    const residual =
      layer === 0
        ? dense(x, `${own}dense/kernel/ConcatPartitions/concat`, `${own}dense/bias/ConcatPartitions/concat`)
        : x;
    const qkv = dense(
      layerNorm(x, `${own}layer_prepostprocess/layer_norm/`),
      `${attention}qkv_transform_single/kernel/part_0`,
      `${own}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`,
      [width, 3 * width],
    );
    const toHeads = g.ints(`heads_${layer}`, [0, 0, heads, headSize]);
    const [q, k, v] = g
      .nodeWithOutputs('Split', [qkv], 3, { axis: 2 })
      .map((part) => g.node('Reshape', [part, toHeads]));
    const scale = g.scalar(`query_scale_${layer}`, constant(`${stack}MultiheadAttention/mul/y`));
    const queries = g.node('Transpose', [g.node('Mul', [q!, scale])], { perm: [0, 2, 1, 3] });
    const keys = g.node('Transpose', [k!], { perm: [0, 2, 3, 1] });
    const scores = g.node('Add', [g.node('MatMul', [queries, keys]), paddingBias]);
    const values = g.node('Transpose', [v!], { perm: [0, 2, 1, 3] });
    const context = g.node('MatMul', [g.node('Softmax', [scores], { axis: -1 }), values]);
    const joined = g.node('Reshape', [
      g.node('Transpose', [context], { perm: [0, 2, 1, 3] }),
      g.ints(`join_${layer}`, [0, 0, width]),
    ]);
    const attended = dense(
      joined,
      `${attention}output_transform_single/kernel/part_0`,
      `${own}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`,
      [width, OUTPUT_DIMENSIONS],
    );
    const y = g.node('Add', [attended, residual]);
    const normed = layerNorm(y, `${own}FFN/layer_prepostprocess/layer_norm/`);
    const hidden = g.node('Relu', [
      dense(normed, `${stack}FFN/conv1/Tensordot/Reshape_1`, `${own}FFN/conv1/bias/ConcatPartitions/concat`),
    ]);
    const fed = dense(
      hidden,
      `${stack}FFN/conv2/Tensordot/Reshape_1`,
      `${own}FFN/conv2/bias/ConcatPartitions/concat`,
    );
    x = g.node('Add', [fed, y]);
  }

  const tokens = g.node('Unsqueeze', ['mask', g.ints('axes_2', [2])]);
  const summed = g.node('ReduceSum', [g.node('Mul', [x, tokens]), g.ints('axes_1', [1])], { keepdims: 0 });
  const lengths = g.node('Max', [
    g.node('ReduceSum', ['mask', g.ints('axes_1', [1])], { keepdims: 1 }),
    g.scalar('one', 1),
  ]);
  const pooled = g.node('Div', [summed, lengths]);
  const encoded = g.node('Tanh', [dense(pooled, `${HIDDEN}weights`, `${HIDDEN}bias`)]);
  const squares = g.node('ReduceSum', [g.node('Mul', [encoded, encoded]), g.ints('axes_1', [1])], {
    keepdims: 1,
  });
  const floor = g.scalar(
    'l2_floor',
    constant('module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y'),
  );
  const normalized = g.node('Mul', [
    encoded,
    g.node('Reciprocal', [g.node('Sqrt', [g.node('Max', [squares, floor])])]),
  ]);
  return g.encode(
    [
      { name: 'ids', type: 'int32', dims: ['batch', 'length'] },
      { name: 'mask', type: 'float', dims: ['batch', 'length'] },
      { name: 'positions', type: 'float', dims: ['length'] },
    ],
    { name: 'embedding', type: 'float', dims: ['batch', OUTPUT_DIMENSIONS] },
    normalized,
  );
}
