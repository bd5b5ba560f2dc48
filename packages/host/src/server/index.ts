// The HTTP server (Open Inference Protocol): createRequestHandler, createServer.
export {}
