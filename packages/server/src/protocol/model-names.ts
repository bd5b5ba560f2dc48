/**
 * The model-name and version vocabulary, one home for every place a name enters: a
 * `--model name=path` flag, the pools given to `serve`, a repository's directories, an
 * upload, a request's path or field. A model name is one directory of a repository, so
 * it must be one on every common file system: letters, digits, `_`, `.` and `-`, not
 * starting with a symbol (so never `.` or `..`), at most 255 characters. A version is a
 * Triton version directory: a positive integer, Number-safe so versions order numerically.
 */

/** Longest model name: one directory name on common file systems. */
export const MAX_MODEL_NAME_LENGTH = 255

const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/
const VERSION_NAME = /^[1-9][0-9]{0,14}$/

/** What a model name must be, for error messages. */
export const MODEL_NAME_RULE = `letters, digits, '_', '.' or '-' (not starting with a symbol), at most ${MAX_MODEL_NAME_LENGTH} characters`

/** Whether `name` is a model name. */
export function isModelName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= MAX_MODEL_NAME_LENGTH && MODEL_NAME.test(name)
}

/** Whether `version` is a version name (a positive integer of at most 15 digits). */
export function isVersionName(version: unknown): version is string {
  return typeof version === 'string' && VERSION_NAME.test(version)
}
