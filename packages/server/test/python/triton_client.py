"""What Triton's Python client (tritonclient) sends, with its defaults, for the model
repository calls, a versioned readiness check and inference on a named version, over
HTTP and gRPC. tritonclient is not installable here, so its requests are rebuilt from
its published sources (tritonclient/http/_client.py, http/_utils.py,
http/_infer_input.py, grpc/_client.py, grpc/_utils.py): the same paths, bodies and
headers over http.client, and the same messages and channel options over grpcio with
stubs generated from the repository's .proto. Used by
packages/host/test/triton-client.python.test.ts, which starts the server and checks
what this prints.

    python3 triton_client.py <http host:port> <grpc host:port> <proto dir>   (JSON job on stdin)

stdin: {"model": "m", "input": "x", "row": [8 floats], "config": "<JSON of a ModelConfig>"}
stdout: one JSON object: what each call answered, per protocol.
"""
import http.client
import json
import struct
import sys
import tempfile
from urllib.parse import quote

import grpc
from grpc_tools import protoc

# geventhttpclient's User-Agent, the HTTP client tritonclient uses.
USER_AGENT = "python/gevent-http-client-2.0.11"
# tritonclient.grpc passes client_timeout=TIMEOUT to every call: an older grpcio
# (tritonclient pins 1.41) takes it as no deadline; grpcio 1.84, installed here, fails
# such a call inside the client before it sends a byte (checked against a bare HTTP/2
# server). So the calls here carry no deadline, which is what that default asks for.
TIMEOUT = None
# tritonclient.grpc: MAX_GRPC_MESSAGE_SIZE is INT32_MAX, with gRPC's keepalive defaults.
INT32_MAX = 2**31 - 1
CHANNEL_OPTIONS = [
    ("grpc.max_send_message_length", INT32_MAX),
    ("grpc.max_receive_message_length", INT32_MAX),
    ("grpc.keepalive_time_ms", INT32_MAX),
    ("grpc.keepalive_timeout_ms", 20000),
    ("grpc.keepalive_permit_without_calls", False),
    ("grpc.http2.max_pings_without_data", 2),
]


def dumps(value):
    # rapidjson.dumps (tritonclient's JSON) writes no spaces.
    return json.dumps(value, separators=(",", ":"))


class HttpClient:
    """tritonclient.http.InferenceServerClient(url) with its defaults."""

    def __init__(self, address):
        host, port = address.rsplit(":", 1)
        self.connection = http.client.HTTPConnection(host, int(port), timeout=60)

    def request(self, method, uri, body=None, headers=None):
        self.connection.putrequest(method, "/" + uri, skip_accept_encoding=True)
        self.connection.putheader("User-Agent", USER_AGENT)
        for key, value in (headers or {}).items():
            self.connection.putheader(key, str(value))
        if method == "POST":
            data = body.encode() if isinstance(body, str) else body
            self.connection.putheader("Content-Length", str(len(data)))
            self.connection.endheaders(data)
        else:
            self.connection.endheaders()
        response = self.connection.getresponse()
        # Header names compared without case, as geventhttpclient's headers are.
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()

    @staticmethod
    def raise_if_error(status, content):
        if status != 200:
            raise RuntimeError(json.dumps({"status": str(status), "error": json.loads(content)["error"]}))

    def get_model_repository_index(self):
        status, _, content = self.request("POST", "v2/repository/index", "")
        self.raise_if_error(status, content)
        return json.loads(content)

    def load_model(self, model_name, config=None):
        load_request = {}
        if config is not None:
            load_request["parameters"] = {"config": config}
        status, _, content = self.request("POST", "v2/repository/models/{}/load".format(quote(model_name)), dumps(load_request))
        self.raise_if_error(status, content)

    def unload_model(self, model_name, unload_dependents=False):
        unload_request = {"parameters": {"unload_dependents": unload_dependents}}
        status, _, content = self.request("POST", "v2/repository/models/{}/unload".format(quote(model_name)), dumps(unload_request))
        self.raise_if_error(status, content)

    def is_model_ready(self, model_name, model_version=""):
        if model_version != "":
            uri = "v2/models/{}/versions/{}/ready".format(quote(model_name), model_version)
        else:
            uri = "v2/models/{}/ready".format(quote(model_name))
        status, _, _ = self.request("GET", uri)
        return status == 200

    def infer(self, model_name, name, shape, raw, model_version=""):
        """One FP32 input set with set_data_from_numpy (binary_data=True), no outputs named."""
        infer_request = {
            "inputs": [{"name": name, "shape": shape, "datatype": "FP32", "parameters": {"binary_data_size": len(raw)}}],
            "parameters": {"binary_data_output": True},
        }
        request_json = dumps(infer_request)
        headers = {"Inference-Header-Content-Length": len(request_json)}
        if model_version != "":
            uri = "v2/models/{}/versions/{}/infer".format(quote(model_name), model_version)
        else:
            uri = "v2/models/{}/infer".format(quote(model_name))
        status, response_headers, content = self.request("POST", uri, request_json.encode() + raw, headers)
        self.raise_if_error(status, content)
        # InferResult: the JSON header, then each binary output in order.
        header_length = response_headers.get("inference-header-content-length")
        header = json.loads(content if header_length is None else content[: int(header_length)])
        offset = 0 if header_length is None else int(header_length)
        outputs = {}
        for output in header["outputs"]:
            size = output.get("parameters", {}).get("binary_data_size")
            if size is None:
                outputs[output["name"]] = [output["datatype"], output["shape"], output["data"]]
            else:
                outputs[output["name"]] = [output["datatype"], output["shape"], floats(content[offset : offset + size])]
                offset += size
        return {"model_name": header["model_name"], "model_version": header["model_version"], "outputs": outputs}


class GrpcClient:
    """tritonclient.grpc.InferenceServerClient(url) with its defaults."""

    def __init__(self, address, pb, pb_grpc):
        self.pb = pb
        self.channel = grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
        self.stub = pb_grpc.GRPCInferenceServiceStub(self.channel)

    def get_model_repository_index(self):
        response = self.stub.RepositoryIndex(request=self.pb.RepositoryIndexRequest(), metadata=(), timeout=TIMEOUT)
        return [{"name": m.name, "version": m.version, "state": m.state, "reason": m.reason} for m in response.models]

    def load_model(self, model_name, config=None):
        request = self.pb.RepositoryModelLoadRequest(model_name=model_name)
        if config is not None:
            request.parameters["config"].string_param = config
        self.stub.RepositoryModelLoad(request=request, metadata=(), timeout=TIMEOUT)

    def unload_model(self, model_name, unload_dependents=False):
        request = self.pb.RepositoryModelUnloadRequest(model_name=model_name)
        request.parameters["unload_dependents"].bool_param = unload_dependents
        self.stub.RepositoryModelUnload(request=request, metadata=(), timeout=TIMEOUT)

    def is_model_ready(self, model_name, model_version=""):
        request = self.pb.ModelReadyRequest(name=model_name, version=model_version)
        return self.stub.ModelReady(request=request, metadata=(), timeout=TIMEOUT).ready

    def infer(self, model_name, name, shape, raw, model_version=""):
        request = self.pb.ModelInferRequest()
        request.model_name = model_name
        request.model_version = model_version
        request.inputs.extend([self.pb.ModelInferRequest.InferInputTensor(name=name, datatype="FP32", shape=shape)])
        request.raw_input_contents.extend([raw])
        response = self.stub.ModelInfer(request=request, metadata=(), timeout=TIMEOUT)
        outputs = {}
        for i, output in enumerate(response.outputs):
            outputs[output.name] = [output.datatype, list(output.shape), floats(response.raw_output_contents[i])]
        return {"model_name": response.model_name, "model_version": response.model_version, "outputs": outputs}


def floats(raw):
    return list(struct.unpack(f"<{len(raw) // 4}f", raw))


def attempt(step):
    """A call's answer, or its failure as tritonclient raises it (HTTP status and error; gRPC code and details)."""
    try:
        answer = step()
        return True if answer is None else answer
    except grpc.RpcError as error:
        return {"code": error.code().name, "details": error.details()}
    except RuntimeError as error:
        return json.loads(str(error))


def scenario(client, job):
    model, name, config = job["model"], job["input"], job["config"]
    raw = struct.pack(f"<{len(job['row'])}f", *job["row"])
    shape = [1, len(job["row"])]
    return {
        "index_before": attempt(client.get_model_repository_index),
        "load": attempt(lambda: client.load_model(model)),
        "index_loaded": attempt(client.get_model_repository_index),
        "load_config": attempt(lambda: client.load_model(model, config=config)),
        "index_config": attempt(client.get_model_repository_index),
        "ready_1": attempt(lambda: client.is_model_ready(model, "1")),
        "ready_2": attempt(lambda: client.is_model_ready(model, "2")),
        "ready_3": attempt(lambda: client.is_model_ready(model, "3")),
        "infer_1": attempt(lambda: client.infer(model, name, shape, raw, model_version="1")),
        "infer_2": attempt(lambda: client.infer(model, name, shape, raw, model_version="2")),
        "unload": attempt(lambda: client.unload_model(model)),
        "ready_after_unload": attempt(lambda: client.is_model_ready(model, "1")),
        "ready_newest_after_unload": attempt(lambda: client.is_model_ready(model)),
        "index_unloaded": attempt(client.get_model_repository_index),
        "infer_unloaded": attempt(lambda: client.infer(model, name, shape, raw, model_version="1")),
    }


def main():
    http_address, grpc_address, proto_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    job = json.load(sys.stdin)
    result = {"http": scenario(HttpClient(http_address), job)}
    with tempfile.TemporaryDirectory() as out_dir:
        code = protoc.main(
            ["protoc", f"-I{proto_dir}", f"--python_out={out_dir}", f"--grpc_python_out={out_dir}", "grpc_service.proto", "model_config.proto"]
        )
        if code != 0:
            raise SystemExit(f"protoc failed with {code}")
        sys.path.insert(0, out_dir)
        import grpc_service_pb2 as pb
        import grpc_service_pb2_grpc as pb_grpc

        result["grpc"] = scenario(GrpcClient(grpc_address, pb, pb_grpc), job)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
