// Entry point of the `inferpool` command (bin/inferpool.js imports the built file).
import { createProgram } from './cli/program.js'

await createProgram().parseAsync(process.argv)
