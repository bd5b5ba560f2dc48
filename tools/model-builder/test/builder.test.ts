import { afterAll, describe, expect, it } from 'vitest'
import { Tensor } from 'onnxruntime-node'
import {
  buildModel,
  catalog,
  constant,
  floatTensor,
  identity,
  int64Tensor,
  int64Vector,
  IR_VERSION,
  matMul,
  mlpWeights,
  mulberry32,
  onnx,
  OPSET,
  parseModel,
  PRODUCER_NAME,
  serializeModel,
  slice,
  squeeze,
  sub,
  tanh,
  tensor,
  uniformFloat32,
  unsqueeze,
} from '../src/index.js'
import { expectClose, openSession, releaseSessions } from './helpers.js'

afterAll(releaseSessions)

describe('mulberry32', () => {
  it('yields the same sequence for the same seed and a different one for another seed', () => {
    const take = (seed: number) => {
      const r = mulberry32(seed)
      return Array.from({ length: 5 }, r)
    }
    expect(take(42)).toEqual(take(42))
    expect(take(42)).not.toEqual(take(43))
  })

  it('stays in [0, 1) and covers the range', () => {
    const r = mulberry32(7)
    const values = Array.from({ length: 10_000 }, r)
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true)
    expect(Math.min(...values)).toBeLessThan(0.001)
    expect(Math.max(...values)).toBeGreaterThan(0.999)
  })

  it('uniformFloat32 draws within ±scale', () => {
    const values = uniformFloat32(mulberry32(1), 1000, 0.25)
    expect(values.every((v) => v >= -0.25 && v < 0.25)).toBe(true)
  })
})

describe('tensor', () => {
  const bytesOf = (t: ReturnType<typeof tensor>) => Array.from(t.rawData as Uint8Array)

  it('writes float32 little-endian into raw_data with its dims and type', () => {
    const t = floatTensor('w', [2], [1, -2])
    expect(t.dims).toEqual([2])
    expect(t.dataType).toBe(onnx.TensorProto.DataType.FLOAT)
    expect(bytesOf(t)).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0])
  })

  it("writes int64 from numbers and bigints, negatives in two's complement", () => {
    const t = int64Tensor('i', [2], [-1, 2n ** 40n])
    expect(t.dataType).toBe(onnx.TensorProto.DataType.INT64)
    expect(bytesOf(t)).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 1, 0, 0])
  })

  it('writes int32, float64 and bool', () => {
    expect(bytesOf(tensor('a', 'int32', [1], [-2]))).toEqual([0xfe, 0xff, 0xff, 0xff])
    expect(bytesOf(tensor('b', 'float64', [1], [1]))).toEqual([0, 0, 0, 0, 0, 0, 0xf0, 0x3f])
    expect(bytesOf(tensor('c', 'bool', [3], [1, 0, 5]))).toEqual([1, 0, 1])
  })

  it('rejects data whose length does not match the dims', () => {
    expect(() => floatTensor('w', [2, 3], [1, 2, 3])).toThrow(new RangeError('tensor "w": dims [2, 3] hold 6 elements, got 3'))
  })
})

describe('buildModel / serializeModel', () => {
  const tiny = () =>
    buildModel({
      name: 'tiny',
      inputs: [{ name: 'x', type: 'float32', dims: ['batch', 3] }],
      outputs: [{ name: 'y', type: 'float32', dims: ['batch', 3] }],
      nodes: [identity('x', 'y')],
      metadata: { purpose: 'test' },
    })

  it('writes IR version 8, opset 17, the producer, dim_param for strings and dim_value for numbers', () => {
    const parsed = parseModel(serializeModel(tiny()))
    expect(Number(parsed.irVersion)).toBe(IR_VERSION)
    expect(IR_VERSION).toBe(8)
    expect(parsed.opsetImport.map((o) => [o.domain, Number(o.version)])).toEqual([['', OPSET]])
    expect(OPSET).toBe(17)
    expect(parsed.producerName).toBe(PRODUCER_NAME)
    expect(parsed.metadataProps.map((p) => [p.key, p.value])).toEqual([['purpose', 'test']])
    const dims = parsed.graph?.input?.[0].type?.tensorType?.shape?.dim ?? []
    expect(dims.map((d) => d.dimParam || Number(d.dimValue))).toEqual(['batch', 3])
  })

  it('serializes the same model to the same bytes every time', () => {
    expect(serializeModel(tiny())).toEqual(serializeModel(tiny()))
    // Buffer.equals: vitest's deep equality is slow on the 1 MB demo model.
    for (const entry of catalog) expect(Buffer.from(entry.build()).equals(entry.build()), entry.path).toBe(true)
  })

  it('rejects a node that reads a value nothing produced', () => {
    expect(() =>
      buildModel({
        name: 'broken',
        inputs: [{ name: 'x', type: 'float32', dims: [1] }],
        outputs: [{ name: 'y', type: 'float32', dims: [1] }],
        nodes: [sub('x', 'missing', 'y')],
      }),
    ).toThrow('model "broken": node Sub_y reads "missing" before anything produces it')
  })

  it('rejects a graph output that no node produces', () => {
    expect(() =>
      buildModel({
        name: 'broken',
        inputs: [{ name: 'x', type: 'float32', dims: [1] }],
        outputs: [{ name: 'z', type: 'float32', dims: [1] }],
        nodes: [identity('x', 'y')],
      }),
    ).toThrow('model "broken": graph output "z" is produced by no node')
  })

  it('builds graphs from the other node helpers that onnxruntime runs as the JS equivalent computes', async () => {
    // Exercises helpers the catalog models do not use: Constant, MatMul, Tanh, Slice with
    // axes and steps, Sub, Unsqueeze, Squeeze.
    const w = [0.5, -1, 0.25, 2, -0.75, 0.1]
    const model = buildModel({
      name: 'helpers',
      inputs: [{ name: 'x', type: 'float32', dims: ['batch', 3] }],
      outputs: [
        { name: 'activated', type: 'float32', dims: ['batch', 2] },
        { name: 'strided', type: 'float32', dims: ['batch', 2] },
      ],
      initializers: [
        int64Vector('starts', [0]),
        int64Vector('ends', [3]),
        int64Vector('axes', [1]),
        int64Vector('steps', [2]),
        floatTensor('one', [], [1]),
      ],
      nodes: [
        constant('w', floatTensor('w_value', [3, 2], w)),
        matMul('x', 'w', 'mm'),
        tanh('mm', 'activated'),
        slice('x', 'starts', 'ends', 'every_other', 'axes', 'steps'),
        unsqueeze('every_other', 'axes', 'expanded'),
        squeeze('expanded', 'axes', 'squeezed'),
        sub('squeezed', 'one', 'strided'),
      ],
    })
    const s = await openSession(serializeModel(model))
    const x = Float32Array.from([1, 2, 3, -1, 0.5, 4])
    const out = await s.run({ x: new Tensor('float32', x, [2, 3]) })
    const expectedActivated: number[] = []
    for (let r = 0; r < 2; r++) {
      for (let j = 0; j < 2; j++) {
        let acc = 0
        for (let k = 0; k < 3; k++) acc += x[r * 3 + k] * w[k * 2 + j]
        expectedActivated.push(Math.tanh(acc))
      }
    }
    expect(out.activated.dims).toEqual([2, 2])
    expectClose(out.activated.data as Float32Array, expectedActivated)
    expect(out.strided.dims).toEqual([2, 2])
    expect(Array.from(out.strided.data as Float32Array)).toEqual([0, 2, -2, 3])
  })
})

describe('mlpWeights', () => {
  it('rejects fewer than two sizes or non-integer sizes, echoing the value', () => {
    expect(() => mlpWeights({ sizes: [4] })).toThrow(new RangeError('Expected `sizes` to be at least two positive integers, got [4]'))
    expect(() => mlpWeights({ sizes: [4, 2.5] })).toThrow(
      new RangeError('Expected `sizes` to be at least two positive integers, got [4, 2.5]'),
    )
    expect(() => mlpWeights({ sizes: [4, 0] })).toThrow(RangeError)
  })

  it('lays out one weight matrix and bias per layer, reproducibly per seed', () => {
    const a = mlpWeights({ sizes: [3, 5, 2], seed: 9 })
    expect(a.layers.map((l) => [l.inFeatures, l.outFeatures, l.weight.length, l.bias.length])).toEqual([
      [3, 5, 15, 5],
      [5, 2, 10, 2],
    ])
    expect(mlpWeights({ sizes: [3, 5, 2], seed: 9 })).toEqual(a)
    expect(mlpWeights({ sizes: [3, 5, 2], seed: 10 }).layers[0].weight).not.toEqual(a.layers[0].weight)
  })
})
