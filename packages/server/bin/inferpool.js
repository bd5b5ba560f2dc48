#!/usr/bin/env node
// Thin launcher so the bin exists before the first build; the CLI lives in src/cli.ts.
// `inferpool consume` is @inferpool/consume's (NATS JetStream), found at run time beside this package or in the working directory.
if (process.argv[2] === 'consume') {
  const { createRequire } = await import('node:module')
  const { pathToFileURL } = await import('node:url')
  const find = (from) => {
    try {
      return createRequire(from).resolve('@inferpool/consume/cli')
    } catch {
      return undefined
    }
  }
  const cli = find(import.meta.url) ?? find(pathToFileURL(`${process.cwd()}/`).href)
  if (cli === undefined) {
    console.error("inferpool: 'inferpool consume' needs the @inferpool/consume package: npm install @inferpool/consume")
    process.exit(1)
  }
  await (await import(pathToFileURL(cli).href)).runConsume(process.argv.slice(3))
} else {
  await import('../dist/cli.js')
}
