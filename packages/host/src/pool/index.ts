// createPool: the worker pool behind a DynamicBatcher.
export {}
