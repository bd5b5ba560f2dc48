import { defineConfig } from 'vitest/config'
import type { Reporter } from 'vitest/reporters'

/**
 * Adds one plain closing line, `Tests: N passed, N failed, N skipped`, after vitest's
 * own summary, so CI logs state the outcome in a form any tool can read.
 */
const summaryLine: Reporter = {
  onTestRunEnd(testModules, unhandledErrors) {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
    }
    failed += unhandledErrors.length
    console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
  },
}

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'bench/test/**/*.test.ts', 'tools/*/test/**/*.test.ts'],
    reporters: ['default', summaryLine],
    // onnxruntime-node is a native addon: child processes isolate it best (docs/runtime-facts.md#vitest).
    pool: 'forks',
    // Tests that start worker threads and load sessions take seconds on 2 cores;
    // this is a hang guard, not a timing assertion.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
