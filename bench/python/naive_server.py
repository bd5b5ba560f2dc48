"""The naive Python baseline: what a user writes with FastAPI and onnxruntime, no batching.

One onnxruntime session (default options), one `session.run` per request, Open Inference
Protocol (KServe v2) JSON in and out, served by uvicorn on 127.0.0.1. FastAPI runs the
plain `def` endpoint in its thread pool; onnxruntime releases the GIL while it runs.

Usage: python3 naive_server.py <model.onnx> <model name>
Prints the port it listens on (one line on stdout) once it is ready.
"""
import socket
import sys

import numpy as np
import onnxruntime as ort
import uvicorn
from fastapi import FastAPI

MODEL, NAME = sys.argv[1], sys.argv[2]
DTYPES = {"FP32": np.float32, "FP64": np.float64, "INT32": np.int32, "INT64": np.int64, "BOOL": np.bool_}
session = ort.InferenceSession(MODEL)
outputs = session.get_outputs()
app = FastAPI()


@app.post(f"/v2/models/{NAME}/infer")
def infer(payload: dict):
    feeds = {
        i["name"]: np.asarray(i["data"], dtype=DTYPES[i["datatype"]]).reshape(i["shape"]) for i in payload["inputs"]
    }
    results = session.run(None, feeds)
    return {
        "model_name": NAME,
        "outputs": [
            {"name": o.name, "datatype": "FP32", "shape": list(r.shape), "data": r.ravel().tolist()}
            for o, r in zip(outputs, results)
        ],
    }


class ReportingServer(uvicorn.Server):
    """Prints the port once uvicorn listens (after its start-up): the bench connects only then."""

    async def startup(self, sockets=None):
        await super().startup(sockets=sockets)
        print(self.config.port, flush=True)


if __name__ == "__main__":
    # A free port, handed to uvicorn by number: given a ready socket instead (sockets=[...]),
    # this uvicorn answered each request ~25 ms late on a keep-alive connection, as if
    # Nagle's algorithm met a delayed ACK.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ReportingServer(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)).run()
