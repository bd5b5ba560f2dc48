// Generates the protobuf code of the gRPC service from proto/*.proto into
// generated/inference.{js,d.ts} (or into the folder given as the first argument; the
// test regenerates into a temporary folder and compares with the committed files).
//
// protobufjs's static target writes one encode/decode function per message: the
// messages are coded by generated code, not by reflection over a descriptor at run
// time. Options:
//   --keep-case     field names as in the .proto (raw_input_contents), as every
//                   other client of the protocol spells them;
//   (default)       64-bit integers decode to `Long` objects (the `long` package is
//                   a dependency of protobufjs), so the service reads them exactly;
//   no verify/delimited/typeUrl helpers: nothing here uses them.
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = process.argv[2] ?? join(root, 'generated')
const pbjs = join(dirname(createRequire(import.meta.url).resolve('protobufjs-cli/package.json')), 'bin', 'pbjs')

mkdirSync(out, { recursive: true })
execFileSync(
  process.execPath,
  [
    pbjs,
    '--target',
    'static-module',
    '--wrap',
    'esm',
    '--keep-case',
    '--no-verify',
    '--no-delimited',
    '--no-typeurl',
    '--path',
    join(root, 'proto'),
    '--out',
    join(out, 'inference.js'),
    '--dts',
    join(root, 'proto', 'grpc_service.proto'),
  ],
  { stdio: 'inherit' },
)
