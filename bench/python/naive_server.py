"""The naive Python baseline: what a user writes with FastAPI and onnxruntime, no batching.

The strongest naive version: uvicorn with uvloop and httptools (`pip install "uvicorn[standard]"`),
an `async def` endpoint that reads `await request.json()` and runs the session inline on the
event loop (no thread-pool hop, no pydantic model of the body), answering a `JSONResponse`
(a returned dict goes through FastAPI's `jsonable_encoder`, which a user who measures drops), and one onnxruntime session
with one intra-op thread (one `session.run` per request: more threads only contend for the
cores the server needs). Open Inference Protocol (KServe v2) JSON in and out, on 127.0.0.1.

Usage: python3 naive_server.py <model.onnx> <model name>
Prints the port it listens on (one line on stdout) once it is ready.
"""
import socket
import sys

import numpy as np
import onnxruntime as ort
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

MODEL, NAME = sys.argv[1], sys.argv[2]
DTYPES = {"FP32": np.float32, "FP64": np.float64, "INT32": np.int32, "INT64": np.int64, "BOOL": np.bool_}
options = ort.SessionOptions()
options.intra_op_num_threads = 1
session = ort.InferenceSession(MODEL, sess_options=options, providers=["CPUExecutionProvider"])
outputs = session.get_outputs()
app = FastAPI()


@app.post(f"/v2/models/{NAME}/infer")
async def infer(request: Request):
    payload = await request.json()
    feeds = {
        i["name"]: np.asarray(i["data"], dtype=DTYPES[i["datatype"]]).reshape(i["shape"]) for i in payload["inputs"]
    }
    results = session.run(None, feeds)
    return JSONResponse(
        {
            "model_name": NAME,
            "outputs": [
                {"name": o.name, "datatype": "FP32", "shape": list(r.shape), "data": r.ravel().tolist()}
                for o, r in zip(outputs, results)
            ],
        }
    )


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
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, loop="uvloop", http="httptools", log_level="warning", access_log=False
    )
    ReportingServer(config).run()
