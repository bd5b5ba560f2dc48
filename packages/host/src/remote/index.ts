// Cross-thread clients over comlink: exposePool, connectPool.
export {}
