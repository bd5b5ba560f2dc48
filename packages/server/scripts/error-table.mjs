#!/usr/bin/env node
// Writes the error registry's table into the top README between its markers
// (`pnpm docs:errors`). A test fails when the README and the registry disagree.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { errorTableMarkdown } from '../dist/error-registry.js'

const readme = fileURLToPath(new URL('../../../README.md', import.meta.url))
const START = '<!-- errors:start -->'
const END = '<!-- errors:end -->'
const text = readFileSync(readme, 'utf8')
const from = text.indexOf(START)
const to = text.indexOf(END)
if (from === -1 || to < from) throw new Error(`README.md has no ${START} … ${END} block`)
writeFileSync(readme, `${text.slice(0, from + START.length)}\n${errorTableMarkdown()}\n${text.slice(to)}`)
