/**
 * The failures of a model repository (layout and config.pbtxt), each naming the file
 * and, for a config, the line or field at fault. Registered in ../error-registry.ts.
 */
import { InferpoolError } from '@inferpool/core'
import { echo } from '../protocol/errors.js'

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
    super(ModelRepositoryLayoutError.code, `${echo(path)}: ${reason}`, { details: { path: echo(path) } })
    this.path = echo(path)
  }
}

/** A load request carries model files (`file:<version>/<name>`) and the server does not take them. */
export class ModelUploadDisabledError extends InferpoolError {
  static readonly code = 'ERR_MODEL_UPLOAD_DISABLED'
  constructor(model: string) {
    super(
      ModelUploadDisabledError.code,
      `Model '${echo(model)}': model files in a load request are refused; start the server with --allow-model-upload ` +
        '(ModelRepositoryOptions.allowModelUpload) to take them: a model file runs on the server',
      { details: { model: echo(model) } },
    )
  }
}

/** A load request's model files that cannot be taken (no `config` beside them, a path outside the model, bad base64); names the parameter. */
export class ModelUploadError extends InferpoolError {
  static readonly code = 'ERR_MODEL_UPLOAD'
  readonly parameter: string
  constructor(model: string, parameter: string, reason: string) {
    super(ModelUploadError.code, `Model '${echo(model)}': parameter '${echo(parameter)}' ${reason}`, {
      details: { model: echo(model), parameter: echo(parameter) },
    })
    this.parameter = echo(parameter)
  }
}

/**
 * A load or unload call to a repository whose control mode is not `explicit`: in `poll`
 * mode its scans alone decide what serves (the next one would undo the call); in `none`
 * the models loaded at start serve until the server stops. Triton refuses both with the
 * same message, which clients match, and which comes first here.
 */
export class ModelControlPollingError extends InferpoolError {
  static readonly code = 'ERR_MODEL_CONTROL_POLLING'
  constructor(model: string, action: 'load' | 'unload', mode: 'poll' | 'none' = 'poll') {
    super(
      ModelControlPollingError.code,
      `explicit model load / unload is not allowed if polling is enabled: ${action} of model '${echo(model)}' refused; ` +
        (mode === 'poll'
          ? 'the repository scans decide what serves (--model-control-mode poll)'
          : 'the models loaded at start serve until the server stops (--model-control-mode none)') +
        '; use --model-control-mode explicit to load and unload through these calls',
      { details: { model: echo(model), action, mode } },
    )
  }
}

/**
 * A load that did not finish: the server began to shut down, or an unload of the model
 * came while it loaded. The pools it had started are closed; what served before it
 * (for an unload: nothing) serves on.
 */
export class ModelLoadAbortedError extends InferpoolError {
  static readonly code = 'ERR_MODEL_LOAD_ABORTED'
  constructor(model: string, cause: 'shutdown' | 'unload') {
    super(
      ModelLoadAbortedError.code,
      `Model '${echo(model)}': the load was aborted ${cause === 'shutdown' ? 'by the server shutting down' : 'by an unload of the model'}; ` +
        'the pools it had started are closed',
      { details: { model: echo(model), cause } },
    )
  }
}

/**
 * A load or unload call for a model the server was given as a pool (`--model`, or
 * `serve`'s `pools`), not by the model repository: the repository neither replaces nor
 * closes a pool it did not create, so the model serves until the server stops.
 */
export class ModelNotInRepositoryError extends InferpoolError {
  static readonly code = 'ERR_MODEL_NOT_IN_REPOSITORY'
  constructor(model: string, action: 'load' | 'unload') {
    super(
      ModelNotInRepositoryError.code,
      `Model '${echo(model)}': ${action} refused; it was given to the server (--model), not by the model repository, ` +
        'and serves until the server stops',
      { details: { model: echo(model), action } },
    )
  }
}

/**
 * A model that cannot fit the memory budget (`--model-memory-budget`) even with every other
 * model evicted: its measured size (the change of the server's PSS across its load, its
 * replica processes included) plus what the server holds with no model exceeds the budget.
 * The load is undone; the sizes are in the message and `details`.
 */
export class ModelOverBudgetError extends InferpoolError {
  static readonly code = 'ERR_MODEL_OVER_BUDGET'
  constructor(model: string, modelBytes: number, serverBytes: number, budgetBytes: number) {
    super(
      ModelOverBudgetError.code,
      `Model '${echo(model)}': needs ${mib(modelBytes)} (measured across its load) and the server holds ${mib(serverBytes)} ` +
        `without models: ${mib(modelBytes + serverBytes)} passes the memory budget of ${mib(budgetBytes)} ` +
        '(--model-memory-budget), even with every other model evicted',
      { details: { model: echo(model), modelBytes, serverBytes, budgetBytes } },
    )
  }
}

/** `bytes` in MiB, one decimal. */
function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}
