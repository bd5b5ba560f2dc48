#!/usr/bin/env node
// Entry point of `pnpm models`; all logic is in cli-main.ts.
import { runCli } from './cli-main.js'

process.exitCode = await runCli(process.argv.slice(2))
