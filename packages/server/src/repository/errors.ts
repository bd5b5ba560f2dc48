/**
 * The failures of a model repository (layout and config.pbtxt), each naming the file
 * and, for a config, the line or field at fault. Registered in ../error-registry.ts.
 */
import { InferpoolError } from '@inferpool/core'

/** A config.pbtxt that is not valid protobuf text for Triton's ModelConfig. */
export class ModelConfigSyntaxError extends InferpoolError {
  static readonly code = 'ERR_MODEL_CONFIG_SYNTAX'
  readonly file: string
  readonly line: number | undefined
  constructor(file: string, line: number | undefined, reason: string) {
    super(ModelConfigSyntaxError.code, `${file}${line === undefined ? '' : `:${line}`}: ${reason}`, {
      details: line === undefined ? { file } : { file, line },
    })
    this.file = file
    this.line = line
  }
}

/**
 * A config.pbtxt field that would change how the model runs but is not supported
 * (a sequence batcher, an ensemble, another platform), or a value out of range.
 */
export class UnsupportedModelConfigError extends InferpoolError {
  static readonly code = 'ERR_MODEL_CONFIG_UNSUPPORTED'
  readonly field: string
  constructor(model: string, field: string, reason: string) {
    super(UnsupportedModelConfigError.code, `Model '${model}': \`${field}\` ${reason}`, { details: { model, field } })
    this.field = field
  }
}

/** A repository directory whose layout does not give a model to serve (no version directory, no model file). */
export class ModelRepositoryLayoutError extends InferpoolError {
  static readonly code = 'ERR_MODEL_REPOSITORY_LAYOUT'
  readonly path: string
  constructor(path: string, reason: string) {
    super(ModelRepositoryLayoutError.code, `${path}: ${reason}`, { details: { path } })
    this.path = path
  }
}

/** A load request carries model files (`file:<version>/<name>`) and the server does not take them. */
export class ModelUploadDisabledError extends InferpoolError {
  static readonly code = 'ERR_MODEL_UPLOAD_DISABLED'
  constructor(model: string) {
    super(
      ModelUploadDisabledError.code,
      `Model '${model}': model files in a load request are refused; start the server with --allow-model-upload ` +
        '(ModelRepositoryOptions.allowModelUpload) to take them: a model file runs on the server',
      { details: { model } },
    )
  }
}

/** A load request's model files that cannot be taken (no `config` beside them, a path outside the model, bad base64); names the parameter. */
export class ModelUploadError extends InferpoolError {
  static readonly code = 'ERR_MODEL_UPLOAD'
  readonly parameter: string
  constructor(model: string, parameter: string, reason: string) {
    super(ModelUploadError.code, `Model '${model}': parameter '${parameter}' ${reason}`, { details: { model, parameter } })
    this.parameter = parameter
  }
}

/**
 * A load or unload call to a repository in poll mode: its scans alone decide what serves
 * (the next one would undo the call). Triton's message, which clients match, comes first.
 */
export class ModelControlPollingError extends InferpoolError {
  static readonly code = 'ERR_MODEL_CONTROL_POLLING'
  constructor(model: string, action: 'load' | 'unload') {
    super(
      ModelControlPollingError.code,
      `explicit model load / unload is not allowed if polling is enabled: ${action} of model '${model}' refused; ` +
        'the repository scans decide what serves (--model-control-mode poll); use --model-control-mode explicit to ' +
        'load and unload through these calls',
      { details: { model, action } },
    )
  }
}
