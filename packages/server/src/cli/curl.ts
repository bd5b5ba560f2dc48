/**
 * The ready-to-paste `curl` line printed at start: one all-zero row for the model's
 * inputs, built from its metadata (dynamic dims become 1).
 */
import { protocolDatatype } from '../protocol/datatypes.js'
import type { PoolMetadata } from '@inferpool/host'

/** Rows with more elements than this get a metadata request as example instead. */
const MAX_EXAMPLE_ELEMENTS = 4096

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

export function curlExample(url: string, model: string, metadata: PoolMetadata, apiKeyEnv: boolean): string {
  const auth = apiKeyEnv ? ' -H "authorization: Bearer $INFERPOOL_API_KEY"' : ''
  const endpoint = `${url}/v2/models/${encodeURIComponent(model)}`
  let elements = 0
  const inputs = metadata.inputs.map((input) => {
    const shape = input.dims.map((d, axis) => (axis === 0 ? 1 : typeof d === 'number' && d > 0 ? d : 1))
    const count = shape.reduce((a, b) => a * b, 1)
    elements += count
    const zero = input.type === 'bool' ? 'false' : '0'
    return { name: input.name, shape, datatype: protocolDatatype(input.type), data: `[${new Array(count).fill(zero).join(',')}]` }
  })
  if (elements > MAX_EXAMPLE_ELEMENTS) return `curl -s${auth} ${endpoint}`
  const body =
    `{"inputs":[` +
    inputs
      .map((i) => `{"name":${JSON.stringify(i.name)},"shape":${JSON.stringify(i.shape)},"datatype":"${i.datatype}","data":${i.data}}`)
      .join(',') +
    `]}`
  return `curl -s${auth} ${endpoint}/infer -H 'content-type: application/json' -d ${shellQuote(body)}`
}
