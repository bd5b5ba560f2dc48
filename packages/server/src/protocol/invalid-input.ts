import { InvalidInputError } from '@inferpool/host'

/** A request that does not match the model: `ERR_INVALID_INPUT`, answered with 400. */
export function invalidInput(message: string, details?: Record<string, unknown>): InvalidInputError {
  return new InvalidInputError(message, details === undefined ? undefined : { details })
}
