/**
 * Reads a config.pbtxt: protobuf text format for Triton's `inference.ModelConfig`,
 * parsed by protobufjs's text-format parser against proto/model_config.proto (the
 * schema the gRPC ModelConfig answer is generated from, so both read one definition).
 * A syntax error or an unknown field is a `ModelConfigSyntaxError` naming the file and
 * the line.
 */
import { fileURLToPath } from 'node:url'
import protobuf from 'protobufjs'
import textformat from 'protobufjs/ext/textformat.js'
import { ModelConfigSyntaxError } from './errors.js'

/** The schema, loaded once on first use (from the package's proto/ folder, next to dist/). */
let modelConfigType: protobuf.Type | undefined

function schema(): protobuf.Type {
  if (modelConfigType === undefined) {
    // keepCase: field names as in the .proto and as config.pbtxt spells them.
    const root = new protobuf.Root().loadSync(fileURLToPath(new URL('../../proto/model_config.proto', import.meta.url)), {
      keepCase: true,
    })
    modelConfigType = root.lookupType('inference.ModelConfig')
  }
  return modelConfigType
}

/**
 * A parsed config as a plain object: field names as in the .proto (snake_case), enums
 * by name, 64-bit numbers as numbers, only the fields the file sets (a field set to its
 * default value included, so `max_batch_size: 0` is told from no `max_batch_size`).
 */
export type ModelConfigObject = Record<string, unknown>

/** Parses the text of `file` (named in errors). */
export function parseModelConfig(text: string, file: string): ModelConfigObject {
  const type = schema()
  let message: protobuf.Message
  try {
    message = textformat.fromText(type, text)
  } catch (error) {
    const { line, reason } = failure(error)
    throw new ModelConfigSyntaxError(file, line ?? locate(type, text, reason), reason.replace(/^\.inference\./, ''))
  }
  return type.toObject(message, { enums: String, longs: Number, defaults: false, oneofs: false }) as ModelConfigObject
}

/** protobufjs ends its tokenizer and syntax errors with "(line N)"; its value errors carry no line. */
function failure(error: unknown): { line: number | undefined; reason: string } {
  const message = error instanceof Error ? error.message : String(error)
  const at = /\s*\(line (\d+)\)$/.exec(message)
  return at === null ? { line: undefined, reason: message } : { line: Number(at[1]), reason: message.slice(0, at.index) }
}

/**
 * The line of a failure reported without one (a value of the wrong kind, an unknown
 * enum name, a second member of a oneof): the first line `n` such that the file cut
 * after line `n`, its open brackets closed, already fails with the same reason.
 */
function locate(type: protobuf.Type, text: string, reason: string): number | undefined {
  const lines = text.split('\n')
  for (let n = 1; n <= lines.length; n++) {
    const head = lines.slice(0, n).join('\n')
    try {
      textformat.fromText(type, head + closers(head))
    } catch (error) {
      const cut = failure(error)
      if (cut.line === undefined && cut.reason === reason) return n
    }
  }
  return undefined
}

/** The brackets that close the ones `text` leaves open (strings and `#` comments skipped). */
function closers(text: string): string {
  const open: string[] = []
  const pairs: Record<string, string> = { '{': '}', '<': '>', '[': ']' }
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '#') {
      while (i < text.length && text[i] !== '\n') i++
    } else if (ch === '"' || ch === "'") {
      for (i++; i < text.length && text[i] !== ch && text[i] !== '\n'; i++) if (text[i] === '\\') i++
    } else if (ch in pairs) {
      open.push(pairs[ch])
    } else if (ch === '}' || ch === '>' || ch === ']') {
      open.pop()
    }
  }
  return `\n${open.reverse().join(' ')}`
}

/**
 * Parses the JSON form of a ModelConfig (the `config` parameter of a repository load
 * request); `source` names it in errors.
 */
export function parseModelConfigJson(text: string, source: string): ModelConfigObject {
  const type = schema()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ModelConfigSyntaxError(source, undefined, `not JSON: ${(error as Error).message}`)
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new ModelConfigSyntaxError(source, undefined, 'not a JSON object')
  const unknown = Object.keys(json).filter((key) => type.fields[key] === undefined)
  if (unknown.length > 0) throw new ModelConfigSyntaxError(source, undefined, `ModelConfig: unknown field '${unknown[0]}'`)
  let message: protobuf.Message
  try {
    message = type.fromObject(json)
  } catch (error) {
    throw new ModelConfigSyntaxError(source, undefined, (error as Error).message.replace(/^\.inference\./, ''))
  }
  return type.toObject(message, { enums: String, longs: Number, defaults: false, oneofs: false }) as ModelConfigObject
}
