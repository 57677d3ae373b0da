/**
 * @module A small writer of ONNX graphs: nodes with generated output names, weights as initializers, and the
 * model serialized by onnx-proto (ONNX's own schema compiled for protobufjs), so no byte of protobuf is
 * encoded by hand here.
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** A node attribute: an integer, a float, or a list of integers. */
export type OnnxAttribute = number | readonly number[] | { readonly float: number };

/** A graph input or output: its element type and its dimensions (a string names a dynamic one). */
export interface OnnxValue {
  readonly name: string;
  readonly type: 'float' | 'int32';
  readonly dims: readonly (number | string)[];
}

const DATA_TYPES = { float: onnx.TensorProto.DataType.FLOAT, int32: onnx.TensorProto.DataType.INT32 };

/** ONNX's standard operator set, version 17: the first with LayerNormalization. */
const OPSET = 17;

/** Builds one graph; `node` returns its output's name, so the graph reads as nested calls. */
export class OnnxGraphBuilder {
  readonly #nodes: onnxProto.onnx.INodeProto[] = [];
  readonly #initializers: onnxProto.onnx.ITensorProto[] = [];
  readonly #weightNames = new Set<string>();
  #count = 0;

  /** Adds a weight (or constant) under `name`, once however often it is named; the graph reads it like an input. */
  weight(name: string, dims: readonly number[], values: Float32Array | Int32Array | BigInt64Array): string {
    if (this.#weightNames.has(name)) return name;
    this.#weightNames.add(name);
    this.#initializers.push({
      name,
      dims: [...dims],
      dataType:
        values instanceof Float32Array
          ? DATA_TYPES.float
          : values instanceof Int32Array
            ? DATA_TYPES.int32
            : onnx.TensorProto.DataType.INT64,
      // Little-endian bytes, as ONNX stores raw data (and as typed arrays hold them on x86 and ARM).
      rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
    });
    return name;
  }

  /** A one-element float constant, broadcast by the ops that read it. */
  scalar(name: string, value: number): string {
    return this.weight(name, [], Float32Array.of(value));
  }

  /** A list of int64 (the type ONNX wants for shapes and axes). */
  ints(name: string, values: readonly number[]): string {
    return this.weight(name, [values.length], BigInt64Array.from(values, BigInt));
  }

  /** Adds an `op` node reading `inputs`; returns the name of its (first) output. */
  node(op: string, inputs: readonly string[], attributes: Record<string, OnnxAttribute> = {}): string {
    return this.nodeWithOutputs(op, inputs, 1, attributes)[0]!;
  }

  /** Adds an `op` node with `outputs` outputs (Split); returns their names. */
  nodeWithOutputs(
    op: string,
    inputs: readonly string[],
    outputs: number,
    attributes: Record<string, OnnxAttribute> = {},
  ): string[] {
    const names = Array.from({ length: outputs }, (_, i) => `${op.toLowerCase()}_${this.#count}_${i}`);
    this.#count += 1;
    this.#nodes.push({
      opType: op,
      input: [...inputs],
      output: names,
      attribute: Object.entries(attributes).map(([name, value]) => toAttribute(name, value)),
    });
    return names;
  }

  /** The model's bytes, for `InferenceSession.create`; `output` is renamed to the graph's output name. */
  encode(inputs: readonly OnnxValue[], output: OnnxValue, result: string): Uint8Array {
    const nodes = [...this.#nodes, { opType: 'Identity', input: [result], output: [output.name] }];
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'memory-pool',
      opsetImport: [{ domain: '', version: OPSET }],
      graph: {
        name: 'use-lite',
        node: nodes,
        initializer: this.#initializers,
        input: inputs.map(toValueInfo),
        output: [toValueInfo(output)],
      },
    });
    return onnx.ModelProto.encode(model).finish();
  }
}

function toAttribute(name: string, value: OnnxAttribute): onnxProto.onnx.IAttributeProto {
  const { AttributeType } = onnx.AttributeProto;
  if (typeof value === 'number') return { name, type: AttributeType.INT, i: value };
  if ('float' in value) return { name, type: AttributeType.FLOAT, f: value.float };
  return { name, type: AttributeType.INTS, ints: [...value] };
}

function toValueInfo(value: OnnxValue): onnxProto.onnx.IValueInfoProto {
  const dim = value.dims.map((size) => (typeof size === 'number' ? { dimValue: size } : { dimParam: size }));
  return { name: value.name, type: { tensorType: { elemType: DATA_TYPES[value.type], shape: { dim } } } };
}
