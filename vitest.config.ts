import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'bench/test/**/*.test.ts',
      'tools/*/test/**/*.test.ts',
    ],
    // onnxruntime-node is a native addon: child processes isolate it best (RUNTIME-NOTES).
    pool: 'forks',
    // Tests that start worker threads and load sessions take seconds on 2 cores;
    // this is a hang guard, not a timing assertion.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
