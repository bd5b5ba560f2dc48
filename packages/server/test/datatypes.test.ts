/**
 * The datatype table (protocol/datatypes.ts): every name of every element type, each
 * mapping derived from the one table, checked against the names the protocols publish
 * (KServe v2 datatypes, Triton's model_config.proto DataType, grpc_service.proto's
 * InferTensorContents fields).
 */
import { describe, expect, it } from 'vitest'
import { tritonDataType } from '@inferpool/server'
import type { TensorType } from '@inferpool/host'
import { datatypeInfo, GRPC_CONTENTS_FIELDS, grpcContentsField, isProtocolDatatype, protocolDatatype } from '../src/protocol/datatypes.js'

/** [ONNX, protocol, Triton, gRPC contents field, typed array] as the published texts name them. */
const PUBLISHED: ReadonlyArray<readonly [TensorType, string, string, string | undefined, unknown]> = [
  ['bool', 'BOOL', 'TYPE_BOOL', 'bool_contents', Uint8Array],
  ['uint8', 'UINT8', 'TYPE_UINT8', 'uint_contents', Uint8Array],
  ['uint16', 'UINT16', 'TYPE_UINT16', 'uint_contents', Uint16Array],
  ['uint32', 'UINT32', 'TYPE_UINT32', 'uint_contents', Uint32Array],
  ['uint64', 'UINT64', 'TYPE_UINT64', 'uint64_contents', BigUint64Array],
  ['int8', 'INT8', 'TYPE_INT8', 'int_contents', Int8Array],
  ['int16', 'INT16', 'TYPE_INT16', 'int_contents', Int16Array],
  ['int32', 'INT32', 'TYPE_INT32', 'int_contents', Int32Array],
  ['int64', 'INT64', 'TYPE_INT64', 'int64_contents', BigInt64Array],
  ['float16', 'FP16', 'TYPE_FP16', undefined, Uint16Array],
  ['float32', 'FP32', 'TYPE_FP32', 'fp32_contents', Float32Array],
  ['float64', 'FP64', 'TYPE_FP64', 'fp64_contents', Float64Array],
  ['string', 'BYTES', 'TYPE_STRING', 'bytes_contents', undefined],
]

describe('the datatype table', () => {
  it.each(PUBLISHED)('maps %s to %s, %s, gRPC field %s and its typed array', (onnx, protocol, triton, field, array) => {
    expect(protocolDatatype(onnx)).toBe(protocol)
    expect(tritonDataType(onnx)).toBe(triton)
    expect(isProtocolDatatype(protocol)).toBe(true)
    expect(grpcContentsField(protocol)).toBe(field)
    if (onnx !== 'string') expect(datatypeInfo(onnx).create).toBe(array)
  })

  it('knows no other protocol name, and lists each gRPC contents field once', () => {
    expect(isProtocolDatatype('FLOAT32')).toBe(false)
    expect(isProtocolDatatype('TYPE_FP32')).toBe(false)
    expect(isProtocolDatatype('fp32')).toBe(false)
    expect(grpcContentsField('FLOAT32')).toBe(undefined)
    expect([...GRPC_CONTENTS_FIELDS].sort()).toEqual([
      'bool_contents',
      'bytes_contents',
      'fp32_contents',
      'fp64_contents',
      'int64_contents',
      'int_contents',
      'uint64_contents',
      'uint_contents',
    ])
  })
})
