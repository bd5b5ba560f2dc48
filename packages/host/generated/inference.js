/*eslint-disable block-scoped-var, id-length, no-control-regex, no-magic-numbers, no-mixed-operators, no-prototype-builtins, no-redeclare, no-shadow, no-var, sort-vars, default-case, jsdoc/require-param*/
import $protobuf from "protobufjs/minimal.js";

// Common aliases
const $Reader = $protobuf.Reader, $Writer = $protobuf.Writer, $util = $protobuf.util;
const $Object = $util.global.Object, $undefined = $util.global.undefined, $Error = $util.global.Error, $RangeError = $util.global.RangeError, $TypeError = $util.global.TypeError, $Boolean = $util.global.Boolean, $String = $util.global.String, $Array = $util.global.Array, $parseInt = $util.global.parseInt, $BigInt = $util.global.BigInt, $Number = $util.global.Number, $isFinite = $util.global.isFinite;

// Exported root namespace
const $root = $protobuf.roots["default"] || ($protobuf.roots["default"] = {});

export const inference = $root.inference = (() => {

    /**
     * Namespace inference.
     * @exports inference
     * @namespace
     */
    const inference = {};

    inference.GRPCInferenceService = (function() {

        /**
         * Constructs a new GRPCInferenceService service.
         * @memberof inference
         * @classdesc Represents a GRPCInferenceService
         * @extends $protobuf.rpc.Service
         * @constructor
         * @param {$protobuf.RPCImpl} rpcImpl RPC implementation
         * @param {boolean} [requestDelimited=false] Whether requests are length-delimited
         * @param {boolean} [responseDelimited=false] Whether responses are length-delimited
         */
        const GRPCInferenceService = function(rpcImpl, requestDelimited, responseDelimited) {
            $protobuf.rpc.Service.call(this, rpcImpl, requestDelimited, responseDelimited);
        };

        $Object.defineProperty(GRPCInferenceService.prototype = $Object.create($protobuf.rpc.Service.prototype), "constructor", { value: GRPCInferenceService, writable: true, enumerable: false, configurable: true });

        /**
         * Creates new GRPCInferenceService service using the specified rpc implementation.
         * @function create
         * @memberof inference.GRPCInferenceService
         * @static
         * @param {$protobuf.RPCImpl} rpcImpl RPC implementation
         * @param {boolean} [requestDelimited=false] Whether requests are length-delimited
         * @param {boolean} [responseDelimited=false] Whether responses are length-delimited
         * @returns {GRPCInferenceService} RPC service. Useful where requests and/or responses are streamed.
         */
        GRPCInferenceService.create = function(rpcImpl, requestDelimited, responseDelimited) {
            return new this(rpcImpl, requestDelimited, responseDelimited);
        };

        /**
         * Callback as used by {@link inference.GRPCInferenceService#serverLive}.
         * @memberof inference.GRPCInferenceService
         * @typedef ServerLiveCallback
         * @type {function}
         * @param {Error|null} error Error, if any
         * @param {inference.ServerLiveResponse} [response] ServerLiveResponse
         */

        /**
         * Calls ServerLive.
         * @memberof inference.GRPCInferenceService
         * @typedef ServerLive
         * @type {{
         *   (request: inference.IServerLiveRequest, callback: inference.GRPCInferenceService.ServerLiveCallback): void;
         *   (request: inference.IServerLiveRequest): Promise<inference.ServerLiveResponse>;
         *   readonly name: "ServerLive";
         *   readonly path: "/inference.GRPCInferenceService/ServerLive";
         *   readonly requestType: "ServerLiveRequest";
         *   readonly responseType: "ServerLiveResponse";
         *   readonly requestStream: undefined;
         *   readonly responseStream: undefined;
         * }}
         */

        /**
         * Calls ServerLive.
         * @name inference.GRPCInferenceService#serverLive
         * @type {inference.GRPCInferenceService.ServerLive}
         */
        $Object.defineProperties(GRPCInferenceService.prototype.serverLive = function(request, callback) {
            return $protobuf.rpc.Service.prototype.rpcCall.call(this, GRPCInferenceService.prototype.serverLive, $root.inference.ServerLiveRequest, $root.inference.ServerLiveResponse, request, callback);
        }, {
            name: { value: "ServerLive" },
            path: { value: "/inference.GRPCInferenceService/ServerLive" },
            requestType: { value: "ServerLiveRequest" },
            responseType: { value: "ServerLiveResponse" },
            requestStream: { value: $undefined },
            responseStream: { value: $undefined }
        });

        /**
         * Callback as used by {@link inference.GRPCInferenceService#serverReady}.
         * @memberof inference.GRPCInferenceService
         * @typedef ServerReadyCallback
         * @type {function}
         * @param {Error|null} error Error, if any
         * @param {inference.ServerReadyResponse} [response] ServerReadyResponse
         */

        /**
         * Calls ServerReady.
         * @memberof inference.GRPCInferenceService
         * @typedef ServerReady
         * @type {{
         *   (request: inference.IServerReadyRequest, callback: inference.GRPCInferenceService.ServerReadyCallback): void;
         *   (request: inference.IServerReadyRequest): Promise<inference.ServerReadyResponse>;
         *   readonly name: "ServerReady";
         *   readonly path: "/inference.GRPCInferenceService/ServerReady";
         *   readonly requestType: "ServerReadyRequest";
         *   readonly responseType: "ServerReadyResponse";
         *   readonly requestStream: undefined;
         *   readonly responseStream: undefined;
         * }}
         */

        /**
         * Calls ServerReady.
         * @name inference.GRPCInferenceService#serverReady
         * @type {inference.GRPCInferenceService.ServerReady}
         */
        $Object.defineProperties(GRPCInferenceService.prototype.serverReady = function(request, callback) {
            return $protobuf.rpc.Service.prototype.rpcCall.call(this, GRPCInferenceService.prototype.serverReady, $root.inference.ServerReadyRequest, $root.inference.ServerReadyResponse, request, callback);
        }, {
            name: { value: "ServerReady" },
            path: { value: "/inference.GRPCInferenceService/ServerReady" },
            requestType: { value: "ServerReadyRequest" },
            responseType: { value: "ServerReadyResponse" },
            requestStream: { value: $undefined },
            responseStream: { value: $undefined }
        });

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelReady}.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelReadyCallback
         * @type {function}
         * @param {Error|null} error Error, if any
         * @param {inference.ModelReadyResponse} [response] ModelReadyResponse
         */

        /**
         * Calls ModelReady.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelReady
         * @type {{
         *   (request: inference.IModelReadyRequest, callback: inference.GRPCInferenceService.ModelReadyCallback): void;
         *   (request: inference.IModelReadyRequest): Promise<inference.ModelReadyResponse>;
         *   readonly name: "ModelReady";
         *   readonly path: "/inference.GRPCInferenceService/ModelReady";
         *   readonly requestType: "ModelReadyRequest";
         *   readonly responseType: "ModelReadyResponse";
         *   readonly requestStream: undefined;
         *   readonly responseStream: undefined;
         * }}
         */

        /**
         * Calls ModelReady.
         * @name inference.GRPCInferenceService#modelReady
         * @type {inference.GRPCInferenceService.ModelReady}
         */
        $Object.defineProperties(GRPCInferenceService.prototype.modelReady = function(request, callback) {
            return $protobuf.rpc.Service.prototype.rpcCall.call(this, GRPCInferenceService.prototype.modelReady, $root.inference.ModelReadyRequest, $root.inference.ModelReadyResponse, request, callback);
        }, {
            name: { value: "ModelReady" },
            path: { value: "/inference.GRPCInferenceService/ModelReady" },
            requestType: { value: "ModelReadyRequest" },
            responseType: { value: "ModelReadyResponse" },
            requestStream: { value: $undefined },
            responseStream: { value: $undefined }
        });

        /**
         * Callback as used by {@link inference.GRPCInferenceService#serverMetadata}.
         * @memberof inference.GRPCInferenceService
         * @typedef ServerMetadataCallback
         * @type {function}
         * @param {Error|null} error Error, if any
         * @param {inference.ServerMetadataResponse} [response] ServerMetadataResponse
         */

        /**
         * Calls ServerMetadata.
         * @memberof inference.GRPCInferenceService
         * @typedef ServerMetadata
         * @type {{
         *   (request: inference.IServerMetadataRequest, callback: inference.GRPCInferenceService.ServerMetadataCallback): void;
         *   (request: inference.IServerMetadataRequest): Promise<inference.ServerMetadataResponse>;
         *   readonly name: "ServerMetadata";
         *   readonly path: "/inference.GRPCInferenceService/ServerMetadata";
         *   readonly requestType: "ServerMetadataRequest";
         *   readonly responseType: "ServerMetadataResponse";
         *   readonly requestStream: undefined;
         *   readonly responseStream: undefined;
         * }}
         */

        /**
         * Calls ServerMetadata.
         * @name inference.GRPCInferenceService#serverMetadata
         * @type {inference.GRPCInferenceService.ServerMetadata}
         */
        $Object.defineProperties(GRPCInferenceService.prototype.serverMetadata = function(request, callback) {
            return $protobuf.rpc.Service.prototype.rpcCall.call(this, GRPCInferenceService.prototype.serverMetadata, $root.inference.ServerMetadataRequest, $root.inference.ServerMetadataResponse, request, callback);
        }, {
            name: { value: "ServerMetadata" },
            path: { value: "/inference.GRPCInferenceService/ServerMetadata" },
            requestType: { value: "ServerMetadataRequest" },
            responseType: { value: "ServerMetadataResponse" },
            requestStream: { value: $undefined },
            responseStream: { value: $undefined }
        });

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelMetadata}.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelMetadataCallback
         * @type {function}
         * @param {Error|null} error Error, if any
         * @param {inference.ModelMetadataResponse} [response] ModelMetadataResponse
         */

        /**
         * Calls ModelMetadata.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelMetadata
         * @type {{
         *   (request: inference.IModelMetadataRequest, callback: inference.GRPCInferenceService.ModelMetadataCallback): void;
         *   (request: inference.IModelMetadataRequest): Promise<inference.ModelMetadataResponse>;
         *   readonly name: "ModelMetadata";
         *   readonly path: "/inference.GRPCInferenceService/ModelMetadata";
         *   readonly requestType: "ModelMetadataRequest";
         *   readonly responseType: "ModelMetadataResponse";
         *   readonly requestStream: undefined;
         *   readonly responseStream: undefined;
         * }}
         */

        /**
         * Calls ModelMetadata.
         * @name inference.GRPCInferenceService#modelMetadata
         * @type {inference.GRPCInferenceService.ModelMetadata}
         */
        $Object.defineProperties(GRPCInferenceService.prototype.modelMetadata = function(request, callback) {
            return $protobuf.rpc.Service.prototype.rpcCall.call(this, GRPCInferenceService.prototype.modelMetadata, $root.inference.ModelMetadataRequest, $root.inference.ModelMetadataResponse, request, callback);
        }, {
            name: { value: "ModelMetadata" },
            path: { value: "/inference.GRPCInferenceService/ModelMetadata" },
            requestType: { value: "ModelMetadataRequest" },
            responseType: { value: "ModelMetadataResponse" },
            requestStream: { value: $undefined },
            responseStream: { value: $undefined }
        });

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelInfer}.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelInferCallback
         * @type {function}
         * @param {Error|null} error Error, if any
         * @param {inference.ModelInferResponse} [response] ModelInferResponse
         */

        /**
         * Calls ModelInfer.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelInfer
         * @type {{
         *   (request: inference.IModelInferRequest, callback: inference.GRPCInferenceService.ModelInferCallback): void;
         *   (request: inference.IModelInferRequest): Promise<inference.ModelInferResponse>;
         *   readonly name: "ModelInfer";
         *   readonly path: "/inference.GRPCInferenceService/ModelInfer";
         *   readonly requestType: "ModelInferRequest";
         *   readonly responseType: "ModelInferResponse";
         *   readonly requestStream: undefined;
         *   readonly responseStream: undefined;
         * }}
         */

        /**
         * Calls ModelInfer.
         * @name inference.GRPCInferenceService#modelInfer
         * @type {inference.GRPCInferenceService.ModelInfer}
         */
        $Object.defineProperties(GRPCInferenceService.prototype.modelInfer = function(request, callback) {
            return $protobuf.rpc.Service.prototype.rpcCall.call(this, GRPCInferenceService.prototype.modelInfer, $root.inference.ModelInferRequest, $root.inference.ModelInferResponse, request, callback);
        }, {
            name: { value: "ModelInfer" },
            path: { value: "/inference.GRPCInferenceService/ModelInfer" },
            requestType: { value: "ModelInferRequest" },
            responseType: { value: "ModelInferResponse" },
            requestStream: { value: $undefined },
            responseStream: { value: $undefined }
        });

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelStreamInfer}.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelStreamInferCallback
         * @type {function}
         * @param {Error|null} error Error, if any
         * @param {inference.ModelStreamInferResponse} [response] ModelStreamInferResponse
         */

        /**
         * Calls ModelStreamInfer.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelStreamInfer
         * @type {{
         *   (request: inference.IModelInferRequest, callback: inference.GRPCInferenceService.ModelStreamInferCallback): void;
         *   (request: inference.IModelInferRequest): Promise<inference.ModelStreamInferResponse>;
         *   readonly name: "ModelStreamInfer";
         *   readonly path: "/inference.GRPCInferenceService/ModelStreamInfer";
         *   readonly requestType: "ModelInferRequest";
         *   readonly responseType: "ModelStreamInferResponse";
         *   readonly requestStream: true;
         *   readonly responseStream: true;
         * }}
         */

        /**
         * Calls ModelStreamInfer.
         * @name inference.GRPCInferenceService#modelStreamInfer
         * @type {inference.GRPCInferenceService.ModelStreamInfer}
         */
        $Object.defineProperties(GRPCInferenceService.prototype.modelStreamInfer = function(request, callback) {
            return $protobuf.rpc.Service.prototype.rpcCall.call(this, GRPCInferenceService.prototype.modelStreamInfer, $root.inference.ModelInferRequest, $root.inference.ModelStreamInferResponse, request, callback);
        }, {
            name: { value: "ModelStreamInfer" },
            path: { value: "/inference.GRPCInferenceService/ModelStreamInfer" },
            requestType: { value: "ModelInferRequest" },
            responseType: { value: "ModelStreamInferResponse" },
            requestStream: { value: true },
            responseStream: { value: true }
        });

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelConfig}.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelConfigCallback
         * @type {function}
         * @param {Error|null} error Error, if any
         * @param {inference.ModelConfigResponse} [response] ModelConfigResponse
         */

        /**
         * Calls ModelConfig.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelConfig
         * @type {{
         *   (request: inference.IModelConfigRequest, callback: inference.GRPCInferenceService.ModelConfigCallback): void;
         *   (request: inference.IModelConfigRequest): Promise<inference.ModelConfigResponse>;
         *   readonly name: "ModelConfig";
         *   readonly path: "/inference.GRPCInferenceService/ModelConfig";
         *   readonly requestType: "ModelConfigRequest";
         *   readonly responseType: "ModelConfigResponse";
         *   readonly requestStream: undefined;
         *   readonly responseStream: undefined;
         * }}
         */

        /**
         * Calls ModelConfig.
         * @name inference.GRPCInferenceService#modelConfig
         * @type {inference.GRPCInferenceService.ModelConfig}
         */
        $Object.defineProperties(GRPCInferenceService.prototype.modelConfig = function(request, callback) {
            return $protobuf.rpc.Service.prototype.rpcCall.call(this, GRPCInferenceService.prototype.modelConfig, $root.inference.ModelConfigRequest, $root.inference.ModelConfigResponse, request, callback);
        }, {
            name: { value: "ModelConfig" },
            path: { value: "/inference.GRPCInferenceService/ModelConfig" },
            requestType: { value: "ModelConfigRequest" },
            responseType: { value: "ModelConfigResponse" },
            requestStream: { value: $undefined },
            responseStream: { value: $undefined }
        });

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelStatistics}.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelStatisticsCallback
         * @type {function}
         * @param {Error|null} error Error, if any
         * @param {inference.ModelStatisticsResponse} [response] ModelStatisticsResponse
         */

        /**
         * Calls ModelStatistics.
         * @memberof inference.GRPCInferenceService
         * @typedef ModelStatistics
         * @type {{
         *   (request: inference.IModelStatisticsRequest, callback: inference.GRPCInferenceService.ModelStatisticsCallback): void;
         *   (request: inference.IModelStatisticsRequest): Promise<inference.ModelStatisticsResponse>;
         *   readonly name: "ModelStatistics";
         *   readonly path: "/inference.GRPCInferenceService/ModelStatistics";
         *   readonly requestType: "ModelStatisticsRequest";
         *   readonly responseType: "ModelStatisticsResponse";
         *   readonly requestStream: undefined;
         *   readonly responseStream: undefined;
         * }}
         */

        /**
         * Calls ModelStatistics.
         * @name inference.GRPCInferenceService#modelStatistics
         * @type {inference.GRPCInferenceService.ModelStatistics}
         */
        $Object.defineProperties(GRPCInferenceService.prototype.modelStatistics = function(request, callback) {
            return $protobuf.rpc.Service.prototype.rpcCall.call(this, GRPCInferenceService.prototype.modelStatistics, $root.inference.ModelStatisticsRequest, $root.inference.ModelStatisticsResponse, request, callback);
        }, {
            name: { value: "ModelStatistics" },
            path: { value: "/inference.GRPCInferenceService/ModelStatistics" },
            requestType: { value: "ModelStatisticsRequest" },
            responseType: { value: "ModelStatisticsResponse" },
            requestStream: { value: $undefined },
            responseStream: { value: $undefined }
        });

        return GRPCInferenceService;
    })();

    inference.ServerLiveRequest = (function() {

        /**
         * Properties of a ServerLiveRequest.
         * @typedef {Object} inference.ServerLiveRequest.$Properties
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ServerLiveRequest.
         * @memberof inference
         * @interface IServerLiveRequest
         * @augments inference.ServerLiveRequest.$Properties
         * @deprecated Use inference.ServerLiveRequest.$Properties instead.
         */

        /**
         * Shape of a ServerLiveRequest.
         * @typedef {inference.ServerLiveRequest.$Properties} inference.ServerLiveRequest.$Shape
         */

        /**
         * Constructs a new ServerLiveRequest.
         * @memberof inference
         * @classdesc Represents a ServerLiveRequest.
         * @constructor
         * @param {inference.ServerLiveRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ServerLiveRequest = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Creates a new ServerLiveRequest instance using the specified properties.
         * @function create
         * @memberof inference.ServerLiveRequest
         * @static
         * @param {inference.ServerLiveRequest.$Properties=} [properties] Properties to set
         * @returns {inference.ServerLiveRequest} ServerLiveRequest instance
         * @type {{
         *   (properties: inference.ServerLiveRequest.$Shape): inference.ServerLiveRequest & inference.ServerLiveRequest.$Shape;
         *   (properties?: inference.ServerLiveRequest.$Properties): inference.ServerLiveRequest;
         * }}
         */
        ServerLiveRequest.create = function(properties) {
            return new ServerLiveRequest(properties);
        };

        /**
         * Encodes the specified ServerLiveRequest message. Does not implicitly {@link inference.ServerLiveRequest.verify|verify} messages.
         * @function encode
         * @memberof inference.ServerLiveRequest
         * @static
         * @param {inference.ServerLiveRequest.$Properties} message ServerLiveRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ServerLiveRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ServerLiveRequest message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ServerLiveRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ServerLiveRequest & inference.ServerLiveRequest.$Shape} ServerLiveRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ServerLiveRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ServerLiveRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                reader.skipType(tag & 7, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ServerLiveRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ServerLiveRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ServerLiveRequest} ServerLiveRequest
         */
        ServerLiveRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ServerLiveRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ServerLiveRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            return new $root.inference.ServerLiveRequest();
        };

        /**
         * Creates a plain object from a ServerLiveRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ServerLiveRequest
         * @static
         * @param {inference.ServerLiveRequest} message ServerLiveRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ServerLiveRequest.toObject = function () {
            return {};
        };

        /**
         * Converts this ServerLiveRequest to JSON.
         * @function toJSON
         * @memberof inference.ServerLiveRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ServerLiveRequest.prototype.toJSON = function() {
            return ServerLiveRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ServerLiveRequest;
    })();

    inference.ServerLiveResponse = (function() {

        /**
         * Properties of a ServerLiveResponse.
         * @typedef {Object} inference.ServerLiveResponse.$Properties
         * @property {boolean|null} [live] ServerLiveResponse live
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ServerLiveResponse.
         * @memberof inference
         * @interface IServerLiveResponse
         * @augments inference.ServerLiveResponse.$Properties
         * @deprecated Use inference.ServerLiveResponse.$Properties instead.
         */

        /**
         * Shape of a ServerLiveResponse.
         * @typedef {inference.ServerLiveResponse.$Properties} inference.ServerLiveResponse.$Shape
         */

        /**
         * Constructs a new ServerLiveResponse.
         * @memberof inference
         * @classdesc Represents a ServerLiveResponse.
         * @constructor
         * @param {inference.ServerLiveResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ServerLiveResponse = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ServerLiveResponse live.
         * @member {boolean} live
         * @memberof inference.ServerLiveResponse
         * @instance
         */
        ServerLiveResponse.prototype.live = false;

        /**
         * Creates a new ServerLiveResponse instance using the specified properties.
         * @function create
         * @memberof inference.ServerLiveResponse
         * @static
         * @param {inference.ServerLiveResponse.$Properties=} [properties] Properties to set
         * @returns {inference.ServerLiveResponse} ServerLiveResponse instance
         * @type {{
         *   (properties: inference.ServerLiveResponse.$Shape): inference.ServerLiveResponse & inference.ServerLiveResponse.$Shape;
         *   (properties?: inference.ServerLiveResponse.$Properties): inference.ServerLiveResponse;
         * }}
         */
        ServerLiveResponse.create = function(properties) {
            return new ServerLiveResponse(properties);
        };

        /**
         * Encodes the specified ServerLiveResponse message. Does not implicitly {@link inference.ServerLiveResponse.verify|verify} messages.
         * @function encode
         * @memberof inference.ServerLiveResponse
         * @static
         * @param {inference.ServerLiveResponse.$Properties} message ServerLiveResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ServerLiveResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.live != null && $Object.hasOwnProperty.call(message, "live") && message.live !== false)
                writer.uint32(/* id 1, wireType 0 =*/8).bool(message.live);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ServerLiveResponse message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ServerLiveResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ServerLiveResponse & inference.ServerLiveResponse.$Shape} ServerLiveResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ServerLiveResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ServerLiveResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.live = value;
                        else
                            delete message.live;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ServerLiveResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ServerLiveResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ServerLiveResponse} ServerLiveResponse
         */
        ServerLiveResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ServerLiveResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ServerLiveResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ServerLiveResponse();
            if (object.live != null)
                if (object.live)
                    message.live = $Boolean(object.live);
            return message;
        };

        /**
         * Creates a plain object from a ServerLiveResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ServerLiveResponse
         * @static
         * @param {inference.ServerLiveResponse} message ServerLiveResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ServerLiveResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults)
                object.live = false;
            if (message.live != null && $Object.hasOwnProperty.call(message, "live"))
                object.live = message.live;
            return object;
        };

        /**
         * Converts this ServerLiveResponse to JSON.
         * @function toJSON
         * @memberof inference.ServerLiveResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ServerLiveResponse.prototype.toJSON = function() {
            return ServerLiveResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ServerLiveResponse;
    })();

    inference.ServerReadyRequest = (function() {

        /**
         * Properties of a ServerReadyRequest.
         * @typedef {Object} inference.ServerReadyRequest.$Properties
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ServerReadyRequest.
         * @memberof inference
         * @interface IServerReadyRequest
         * @augments inference.ServerReadyRequest.$Properties
         * @deprecated Use inference.ServerReadyRequest.$Properties instead.
         */

        /**
         * Shape of a ServerReadyRequest.
         * @typedef {inference.ServerReadyRequest.$Properties} inference.ServerReadyRequest.$Shape
         */

        /**
         * Constructs a new ServerReadyRequest.
         * @memberof inference
         * @classdesc Represents a ServerReadyRequest.
         * @constructor
         * @param {inference.ServerReadyRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ServerReadyRequest = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Creates a new ServerReadyRequest instance using the specified properties.
         * @function create
         * @memberof inference.ServerReadyRequest
         * @static
         * @param {inference.ServerReadyRequest.$Properties=} [properties] Properties to set
         * @returns {inference.ServerReadyRequest} ServerReadyRequest instance
         * @type {{
         *   (properties: inference.ServerReadyRequest.$Shape): inference.ServerReadyRequest & inference.ServerReadyRequest.$Shape;
         *   (properties?: inference.ServerReadyRequest.$Properties): inference.ServerReadyRequest;
         * }}
         */
        ServerReadyRequest.create = function(properties) {
            return new ServerReadyRequest(properties);
        };

        /**
         * Encodes the specified ServerReadyRequest message. Does not implicitly {@link inference.ServerReadyRequest.verify|verify} messages.
         * @function encode
         * @memberof inference.ServerReadyRequest
         * @static
         * @param {inference.ServerReadyRequest.$Properties} message ServerReadyRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ServerReadyRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ServerReadyRequest message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ServerReadyRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ServerReadyRequest & inference.ServerReadyRequest.$Shape} ServerReadyRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ServerReadyRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ServerReadyRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                reader.skipType(tag & 7, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ServerReadyRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ServerReadyRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ServerReadyRequest} ServerReadyRequest
         */
        ServerReadyRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ServerReadyRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ServerReadyRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            return new $root.inference.ServerReadyRequest();
        };

        /**
         * Creates a plain object from a ServerReadyRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ServerReadyRequest
         * @static
         * @param {inference.ServerReadyRequest} message ServerReadyRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ServerReadyRequest.toObject = function () {
            return {};
        };

        /**
         * Converts this ServerReadyRequest to JSON.
         * @function toJSON
         * @memberof inference.ServerReadyRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ServerReadyRequest.prototype.toJSON = function() {
            return ServerReadyRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ServerReadyRequest;
    })();

    inference.ServerReadyResponse = (function() {

        /**
         * Properties of a ServerReadyResponse.
         * @typedef {Object} inference.ServerReadyResponse.$Properties
         * @property {boolean|null} [ready] ServerReadyResponse ready
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ServerReadyResponse.
         * @memberof inference
         * @interface IServerReadyResponse
         * @augments inference.ServerReadyResponse.$Properties
         * @deprecated Use inference.ServerReadyResponse.$Properties instead.
         */

        /**
         * Shape of a ServerReadyResponse.
         * @typedef {inference.ServerReadyResponse.$Properties} inference.ServerReadyResponse.$Shape
         */

        /**
         * Constructs a new ServerReadyResponse.
         * @memberof inference
         * @classdesc Represents a ServerReadyResponse.
         * @constructor
         * @param {inference.ServerReadyResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ServerReadyResponse = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ServerReadyResponse ready.
         * @member {boolean} ready
         * @memberof inference.ServerReadyResponse
         * @instance
         */
        ServerReadyResponse.prototype.ready = false;

        /**
         * Creates a new ServerReadyResponse instance using the specified properties.
         * @function create
         * @memberof inference.ServerReadyResponse
         * @static
         * @param {inference.ServerReadyResponse.$Properties=} [properties] Properties to set
         * @returns {inference.ServerReadyResponse} ServerReadyResponse instance
         * @type {{
         *   (properties: inference.ServerReadyResponse.$Shape): inference.ServerReadyResponse & inference.ServerReadyResponse.$Shape;
         *   (properties?: inference.ServerReadyResponse.$Properties): inference.ServerReadyResponse;
         * }}
         */
        ServerReadyResponse.create = function(properties) {
            return new ServerReadyResponse(properties);
        };

        /**
         * Encodes the specified ServerReadyResponse message. Does not implicitly {@link inference.ServerReadyResponse.verify|verify} messages.
         * @function encode
         * @memberof inference.ServerReadyResponse
         * @static
         * @param {inference.ServerReadyResponse.$Properties} message ServerReadyResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ServerReadyResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.ready != null && $Object.hasOwnProperty.call(message, "ready") && message.ready !== false)
                writer.uint32(/* id 1, wireType 0 =*/8).bool(message.ready);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ServerReadyResponse message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ServerReadyResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ServerReadyResponse & inference.ServerReadyResponse.$Shape} ServerReadyResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ServerReadyResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ServerReadyResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.ready = value;
                        else
                            delete message.ready;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ServerReadyResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ServerReadyResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ServerReadyResponse} ServerReadyResponse
         */
        ServerReadyResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ServerReadyResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ServerReadyResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ServerReadyResponse();
            if (object.ready != null)
                if (object.ready)
                    message.ready = $Boolean(object.ready);
            return message;
        };

        /**
         * Creates a plain object from a ServerReadyResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ServerReadyResponse
         * @static
         * @param {inference.ServerReadyResponse} message ServerReadyResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ServerReadyResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults)
                object.ready = false;
            if (message.ready != null && $Object.hasOwnProperty.call(message, "ready"))
                object.ready = message.ready;
            return object;
        };

        /**
         * Converts this ServerReadyResponse to JSON.
         * @function toJSON
         * @memberof inference.ServerReadyResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ServerReadyResponse.prototype.toJSON = function() {
            return ServerReadyResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ServerReadyResponse;
    })();

    inference.ModelReadyRequest = (function() {

        /**
         * Properties of a ModelReadyRequest.
         * @typedef {Object} inference.ModelReadyRequest.$Properties
         * @property {string|null} [name] ModelReadyRequest name
         * @property {string|null} [version] ModelReadyRequest version
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelReadyRequest.
         * @memberof inference
         * @interface IModelReadyRequest
         * @augments inference.ModelReadyRequest.$Properties
         * @deprecated Use inference.ModelReadyRequest.$Properties instead.
         */

        /**
         * Shape of a ModelReadyRequest.
         * @typedef {inference.ModelReadyRequest.$Properties} inference.ModelReadyRequest.$Shape
         */

        /**
         * Constructs a new ModelReadyRequest.
         * @memberof inference
         * @classdesc Represents a ModelReadyRequest.
         * @constructor
         * @param {inference.ModelReadyRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelReadyRequest = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelReadyRequest name.
         * @member {string} name
         * @memberof inference.ModelReadyRequest
         * @instance
         */
        ModelReadyRequest.prototype.name = "";

        /**
         * ModelReadyRequest version.
         * @member {string} version
         * @memberof inference.ModelReadyRequest
         * @instance
         */
        ModelReadyRequest.prototype.version = "";

        /**
         * Creates a new ModelReadyRequest instance using the specified properties.
         * @function create
         * @memberof inference.ModelReadyRequest
         * @static
         * @param {inference.ModelReadyRequest.$Properties=} [properties] Properties to set
         * @returns {inference.ModelReadyRequest} ModelReadyRequest instance
         * @type {{
         *   (properties: inference.ModelReadyRequest.$Shape): inference.ModelReadyRequest & inference.ModelReadyRequest.$Shape;
         *   (properties?: inference.ModelReadyRequest.$Properties): inference.ModelReadyRequest;
         * }}
         */
        ModelReadyRequest.create = function(properties) {
            return new ModelReadyRequest(properties);
        };

        /**
         * Encodes the specified ModelReadyRequest message. Does not implicitly {@link inference.ModelReadyRequest.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelReadyRequest
         * @static
         * @param {inference.ModelReadyRequest.$Properties} message ModelReadyRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelReadyRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
            if (message.version != null && $Object.hasOwnProperty.call(message, "version") && message.version !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.version);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelReadyRequest message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelReadyRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelReadyRequest & inference.ModelReadyRequest.$Shape} ModelReadyRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelReadyRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelReadyRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.version = value;
                        else
                            delete message.version;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelReadyRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelReadyRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelReadyRequest} ModelReadyRequest
         */
        ModelReadyRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelReadyRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelReadyRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelReadyRequest();
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.version != null)
                if (typeof object.version !== "string" || object.version.length)
                    message.version = $String(object.version);
            return message;
        };

        /**
         * Creates a plain object from a ModelReadyRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelReadyRequest
         * @static
         * @param {inference.ModelReadyRequest} message ModelReadyRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelReadyRequest.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.name = "";
                object.version = "";
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.version != null && $Object.hasOwnProperty.call(message, "version"))
                object.version = message.version;
            return object;
        };

        /**
         * Converts this ModelReadyRequest to JSON.
         * @function toJSON
         * @memberof inference.ModelReadyRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelReadyRequest.prototype.toJSON = function() {
            return ModelReadyRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelReadyRequest;
    })();

    inference.ModelReadyResponse = (function() {

        /**
         * Properties of a ModelReadyResponse.
         * @typedef {Object} inference.ModelReadyResponse.$Properties
         * @property {boolean|null} [ready] ModelReadyResponse ready
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelReadyResponse.
         * @memberof inference
         * @interface IModelReadyResponse
         * @augments inference.ModelReadyResponse.$Properties
         * @deprecated Use inference.ModelReadyResponse.$Properties instead.
         */

        /**
         * Shape of a ModelReadyResponse.
         * @typedef {inference.ModelReadyResponse.$Properties} inference.ModelReadyResponse.$Shape
         */

        /**
         * Constructs a new ModelReadyResponse.
         * @memberof inference
         * @classdesc Represents a ModelReadyResponse.
         * @constructor
         * @param {inference.ModelReadyResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelReadyResponse = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelReadyResponse ready.
         * @member {boolean} ready
         * @memberof inference.ModelReadyResponse
         * @instance
         */
        ModelReadyResponse.prototype.ready = false;

        /**
         * Creates a new ModelReadyResponse instance using the specified properties.
         * @function create
         * @memberof inference.ModelReadyResponse
         * @static
         * @param {inference.ModelReadyResponse.$Properties=} [properties] Properties to set
         * @returns {inference.ModelReadyResponse} ModelReadyResponse instance
         * @type {{
         *   (properties: inference.ModelReadyResponse.$Shape): inference.ModelReadyResponse & inference.ModelReadyResponse.$Shape;
         *   (properties?: inference.ModelReadyResponse.$Properties): inference.ModelReadyResponse;
         * }}
         */
        ModelReadyResponse.create = function(properties) {
            return new ModelReadyResponse(properties);
        };

        /**
         * Encodes the specified ModelReadyResponse message. Does not implicitly {@link inference.ModelReadyResponse.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelReadyResponse
         * @static
         * @param {inference.ModelReadyResponse.$Properties} message ModelReadyResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelReadyResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.ready != null && $Object.hasOwnProperty.call(message, "ready") && message.ready !== false)
                writer.uint32(/* id 1, wireType 0 =*/8).bool(message.ready);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelReadyResponse message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelReadyResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelReadyResponse & inference.ModelReadyResponse.$Shape} ModelReadyResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelReadyResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelReadyResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.ready = value;
                        else
                            delete message.ready;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelReadyResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelReadyResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelReadyResponse} ModelReadyResponse
         */
        ModelReadyResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelReadyResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelReadyResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelReadyResponse();
            if (object.ready != null)
                if (object.ready)
                    message.ready = $Boolean(object.ready);
            return message;
        };

        /**
         * Creates a plain object from a ModelReadyResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelReadyResponse
         * @static
         * @param {inference.ModelReadyResponse} message ModelReadyResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelReadyResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults)
                object.ready = false;
            if (message.ready != null && $Object.hasOwnProperty.call(message, "ready"))
                object.ready = message.ready;
            return object;
        };

        /**
         * Converts this ModelReadyResponse to JSON.
         * @function toJSON
         * @memberof inference.ModelReadyResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelReadyResponse.prototype.toJSON = function() {
            return ModelReadyResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelReadyResponse;
    })();

    inference.ServerMetadataRequest = (function() {

        /**
         * Properties of a ServerMetadataRequest.
         * @typedef {Object} inference.ServerMetadataRequest.$Properties
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ServerMetadataRequest.
         * @memberof inference
         * @interface IServerMetadataRequest
         * @augments inference.ServerMetadataRequest.$Properties
         * @deprecated Use inference.ServerMetadataRequest.$Properties instead.
         */

        /**
         * Shape of a ServerMetadataRequest.
         * @typedef {inference.ServerMetadataRequest.$Properties} inference.ServerMetadataRequest.$Shape
         */

        /**
         * Constructs a new ServerMetadataRequest.
         * @memberof inference
         * @classdesc Represents a ServerMetadataRequest.
         * @constructor
         * @param {inference.ServerMetadataRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ServerMetadataRequest = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Creates a new ServerMetadataRequest instance using the specified properties.
         * @function create
         * @memberof inference.ServerMetadataRequest
         * @static
         * @param {inference.ServerMetadataRequest.$Properties=} [properties] Properties to set
         * @returns {inference.ServerMetadataRequest} ServerMetadataRequest instance
         * @type {{
         *   (properties: inference.ServerMetadataRequest.$Shape): inference.ServerMetadataRequest & inference.ServerMetadataRequest.$Shape;
         *   (properties?: inference.ServerMetadataRequest.$Properties): inference.ServerMetadataRequest;
         * }}
         */
        ServerMetadataRequest.create = function(properties) {
            return new ServerMetadataRequest(properties);
        };

        /**
         * Encodes the specified ServerMetadataRequest message. Does not implicitly {@link inference.ServerMetadataRequest.verify|verify} messages.
         * @function encode
         * @memberof inference.ServerMetadataRequest
         * @static
         * @param {inference.ServerMetadataRequest.$Properties} message ServerMetadataRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ServerMetadataRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ServerMetadataRequest message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ServerMetadataRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ServerMetadataRequest & inference.ServerMetadataRequest.$Shape} ServerMetadataRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ServerMetadataRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ServerMetadataRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                reader.skipType(tag & 7, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ServerMetadataRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ServerMetadataRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ServerMetadataRequest} ServerMetadataRequest
         */
        ServerMetadataRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ServerMetadataRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ServerMetadataRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            return new $root.inference.ServerMetadataRequest();
        };

        /**
         * Creates a plain object from a ServerMetadataRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ServerMetadataRequest
         * @static
         * @param {inference.ServerMetadataRequest} message ServerMetadataRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ServerMetadataRequest.toObject = function () {
            return {};
        };

        /**
         * Converts this ServerMetadataRequest to JSON.
         * @function toJSON
         * @memberof inference.ServerMetadataRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ServerMetadataRequest.prototype.toJSON = function() {
            return ServerMetadataRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ServerMetadataRequest;
    })();

    inference.ServerMetadataResponse = (function() {

        /**
         * Properties of a ServerMetadataResponse.
         * @typedef {Object} inference.ServerMetadataResponse.$Properties
         * @property {string|null} [name] ServerMetadataResponse name
         * @property {string|null} [version] ServerMetadataResponse version
         * @property {Array.<string>|null} [extensions] ServerMetadataResponse extensions
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ServerMetadataResponse.
         * @memberof inference
         * @interface IServerMetadataResponse
         * @augments inference.ServerMetadataResponse.$Properties
         * @deprecated Use inference.ServerMetadataResponse.$Properties instead.
         */

        /**
         * Shape of a ServerMetadataResponse.
         * @typedef {inference.ServerMetadataResponse.$Properties} inference.ServerMetadataResponse.$Shape
         */

        /**
         * Constructs a new ServerMetadataResponse.
         * @memberof inference
         * @classdesc Represents a ServerMetadataResponse.
         * @constructor
         * @param {inference.ServerMetadataResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ServerMetadataResponse = function (properties) {
            this.extensions = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ServerMetadataResponse name.
         * @member {string} name
         * @memberof inference.ServerMetadataResponse
         * @instance
         */
        ServerMetadataResponse.prototype.name = "";

        /**
         * ServerMetadataResponse version.
         * @member {string} version
         * @memberof inference.ServerMetadataResponse
         * @instance
         */
        ServerMetadataResponse.prototype.version = "";

        /**
         * ServerMetadataResponse extensions.
         * @member {Array.<string>} extensions
         * @memberof inference.ServerMetadataResponse
         * @instance
         */
        ServerMetadataResponse.prototype.extensions = $util.emptyArray;

        /**
         * Creates a new ServerMetadataResponse instance using the specified properties.
         * @function create
         * @memberof inference.ServerMetadataResponse
         * @static
         * @param {inference.ServerMetadataResponse.$Properties=} [properties] Properties to set
         * @returns {inference.ServerMetadataResponse} ServerMetadataResponse instance
         * @type {{
         *   (properties: inference.ServerMetadataResponse.$Shape): inference.ServerMetadataResponse & inference.ServerMetadataResponse.$Shape;
         *   (properties?: inference.ServerMetadataResponse.$Properties): inference.ServerMetadataResponse;
         * }}
         */
        ServerMetadataResponse.create = function(properties) {
            return new ServerMetadataResponse(properties);
        };

        /**
         * Encodes the specified ServerMetadataResponse message. Does not implicitly {@link inference.ServerMetadataResponse.verify|verify} messages.
         * @function encode
         * @memberof inference.ServerMetadataResponse
         * @static
         * @param {inference.ServerMetadataResponse.$Properties} message ServerMetadataResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ServerMetadataResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
            if (message.version != null && $Object.hasOwnProperty.call(message, "version") && message.version !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.version);
            if (message.extensions != null && message.extensions.length)
                for (let i = 0; i < message.extensions.length; ++i)
                    writer.uint32(/* id 3, wireType 2 =*/26).string(message.extensions[i]);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ServerMetadataResponse message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ServerMetadataResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ServerMetadataResponse & inference.ServerMetadataResponse.$Shape} ServerMetadataResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ServerMetadataResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ServerMetadataResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.version = value;
                        else
                            delete message.version;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if (!(message.extensions && message.extensions.length))
                            message.extensions = [];
                        message.extensions.push(reader.stringVerify());
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ServerMetadataResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ServerMetadataResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ServerMetadataResponse} ServerMetadataResponse
         */
        ServerMetadataResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ServerMetadataResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ServerMetadataResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ServerMetadataResponse();
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.version != null)
                if (typeof object.version !== "string" || object.version.length)
                    message.version = $String(object.version);
            if (object.extensions) {
                if (!$Array.isArray(object.extensions))
                    throw $TypeError(".inference.ServerMetadataResponse.extensions: array expected");
                message.extensions = $Array(object.extensions.length);
                for (let i = 0; i < object.extensions.length; ++i)
                    message.extensions[i] = $String(object.extensions[i]);
            }
            return message;
        };

        /**
         * Creates a plain object from a ServerMetadataResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ServerMetadataResponse
         * @static
         * @param {inference.ServerMetadataResponse} message ServerMetadataResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ServerMetadataResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.extensions = [];
            if (options.defaults) {
                object.name = "";
                object.version = "";
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.version != null && $Object.hasOwnProperty.call(message, "version"))
                object.version = message.version;
            if (message.extensions && message.extensions.length) {
                object.extensions = $Array(message.extensions.length);
                for (let j = 0; j < message.extensions.length; ++j)
                    object.extensions[j] = message.extensions[j];
            }
            return object;
        };

        /**
         * Converts this ServerMetadataResponse to JSON.
         * @function toJSON
         * @memberof inference.ServerMetadataResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ServerMetadataResponse.prototype.toJSON = function() {
            return ServerMetadataResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ServerMetadataResponse;
    })();

    inference.ModelMetadataRequest = (function() {

        /**
         * Properties of a ModelMetadataRequest.
         * @typedef {Object} inference.ModelMetadataRequest.$Properties
         * @property {string|null} [name] ModelMetadataRequest name
         * @property {string|null} [version] ModelMetadataRequest version
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelMetadataRequest.
         * @memberof inference
         * @interface IModelMetadataRequest
         * @augments inference.ModelMetadataRequest.$Properties
         * @deprecated Use inference.ModelMetadataRequest.$Properties instead.
         */

        /**
         * Shape of a ModelMetadataRequest.
         * @typedef {inference.ModelMetadataRequest.$Properties} inference.ModelMetadataRequest.$Shape
         */

        /**
         * Constructs a new ModelMetadataRequest.
         * @memberof inference
         * @classdesc Represents a ModelMetadataRequest.
         * @constructor
         * @param {inference.ModelMetadataRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelMetadataRequest = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelMetadataRequest name.
         * @member {string} name
         * @memberof inference.ModelMetadataRequest
         * @instance
         */
        ModelMetadataRequest.prototype.name = "";

        /**
         * ModelMetadataRequest version.
         * @member {string} version
         * @memberof inference.ModelMetadataRequest
         * @instance
         */
        ModelMetadataRequest.prototype.version = "";

        /**
         * Creates a new ModelMetadataRequest instance using the specified properties.
         * @function create
         * @memberof inference.ModelMetadataRequest
         * @static
         * @param {inference.ModelMetadataRequest.$Properties=} [properties] Properties to set
         * @returns {inference.ModelMetadataRequest} ModelMetadataRequest instance
         * @type {{
         *   (properties: inference.ModelMetadataRequest.$Shape): inference.ModelMetadataRequest & inference.ModelMetadataRequest.$Shape;
         *   (properties?: inference.ModelMetadataRequest.$Properties): inference.ModelMetadataRequest;
         * }}
         */
        ModelMetadataRequest.create = function(properties) {
            return new ModelMetadataRequest(properties);
        };

        /**
         * Encodes the specified ModelMetadataRequest message. Does not implicitly {@link inference.ModelMetadataRequest.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelMetadataRequest
         * @static
         * @param {inference.ModelMetadataRequest.$Properties} message ModelMetadataRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelMetadataRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
            if (message.version != null && $Object.hasOwnProperty.call(message, "version") && message.version !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.version);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelMetadataRequest message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelMetadataRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelMetadataRequest & inference.ModelMetadataRequest.$Shape} ModelMetadataRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelMetadataRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelMetadataRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.version = value;
                        else
                            delete message.version;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelMetadataRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelMetadataRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelMetadataRequest} ModelMetadataRequest
         */
        ModelMetadataRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelMetadataRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelMetadataRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelMetadataRequest();
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.version != null)
                if (typeof object.version !== "string" || object.version.length)
                    message.version = $String(object.version);
            return message;
        };

        /**
         * Creates a plain object from a ModelMetadataRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelMetadataRequest
         * @static
         * @param {inference.ModelMetadataRequest} message ModelMetadataRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelMetadataRequest.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.name = "";
                object.version = "";
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.version != null && $Object.hasOwnProperty.call(message, "version"))
                object.version = message.version;
            return object;
        };

        /**
         * Converts this ModelMetadataRequest to JSON.
         * @function toJSON
         * @memberof inference.ModelMetadataRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelMetadataRequest.prototype.toJSON = function() {
            return ModelMetadataRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelMetadataRequest;
    })();

    inference.ModelMetadataResponse = (function() {

        /**
         * Properties of a ModelMetadataResponse.
         * @typedef {Object} inference.ModelMetadataResponse.$Properties
         * @property {string|null} [name] ModelMetadataResponse name
         * @property {Array.<string>|null} [versions] ModelMetadataResponse versions
         * @property {string|null} [platform] ModelMetadataResponse platform
         * @property {Array.<inference.ModelMetadataResponse.TensorMetadata.$Properties>|null} [inputs] ModelMetadataResponse inputs
         * @property {Array.<inference.ModelMetadataResponse.TensorMetadata.$Properties>|null} [outputs] ModelMetadataResponse outputs
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelMetadataResponse.
         * @memberof inference
         * @interface IModelMetadataResponse
         * @augments inference.ModelMetadataResponse.$Properties
         * @deprecated Use inference.ModelMetadataResponse.$Properties instead.
         */

        /**
         * Shape of a ModelMetadataResponse.
         * @typedef {inference.ModelMetadataResponse.$Properties} inference.ModelMetadataResponse.$Shape
         */

        /**
         * Constructs a new ModelMetadataResponse.
         * @memberof inference
         * @classdesc Represents a ModelMetadataResponse.
         * @constructor
         * @param {inference.ModelMetadataResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelMetadataResponse = function (properties) {
            this.versions = [];
            this.inputs = [];
            this.outputs = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelMetadataResponse name.
         * @member {string} name
         * @memberof inference.ModelMetadataResponse
         * @instance
         */
        ModelMetadataResponse.prototype.name = "";

        /**
         * ModelMetadataResponse versions.
         * @member {Array.<string>} versions
         * @memberof inference.ModelMetadataResponse
         * @instance
         */
        ModelMetadataResponse.prototype.versions = $util.emptyArray;

        /**
         * ModelMetadataResponse platform.
         * @member {string} platform
         * @memberof inference.ModelMetadataResponse
         * @instance
         */
        ModelMetadataResponse.prototype.platform = "";

        /**
         * ModelMetadataResponse inputs.
         * @member {Array.<inference.ModelMetadataResponse.TensorMetadata.$Properties>} inputs
         * @memberof inference.ModelMetadataResponse
         * @instance
         */
        ModelMetadataResponse.prototype.inputs = $util.emptyArray;

        /**
         * ModelMetadataResponse outputs.
         * @member {Array.<inference.ModelMetadataResponse.TensorMetadata.$Properties>} outputs
         * @memberof inference.ModelMetadataResponse
         * @instance
         */
        ModelMetadataResponse.prototype.outputs = $util.emptyArray;

        /**
         * Creates a new ModelMetadataResponse instance using the specified properties.
         * @function create
         * @memberof inference.ModelMetadataResponse
         * @static
         * @param {inference.ModelMetadataResponse.$Properties=} [properties] Properties to set
         * @returns {inference.ModelMetadataResponse} ModelMetadataResponse instance
         * @type {{
         *   (properties: inference.ModelMetadataResponse.$Shape): inference.ModelMetadataResponse & inference.ModelMetadataResponse.$Shape;
         *   (properties?: inference.ModelMetadataResponse.$Properties): inference.ModelMetadataResponse;
         * }}
         */
        ModelMetadataResponse.create = function(properties) {
            return new ModelMetadataResponse(properties);
        };

        /**
         * Encodes the specified ModelMetadataResponse message. Does not implicitly {@link inference.ModelMetadataResponse.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelMetadataResponse
         * @static
         * @param {inference.ModelMetadataResponse.$Properties} message ModelMetadataResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelMetadataResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
            if (message.versions != null && message.versions.length)
                for (let i = 0; i < message.versions.length; ++i)
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.versions[i]);
            if (message.platform != null && $Object.hasOwnProperty.call(message, "platform") && message.platform !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.platform);
            if (message.inputs != null && message.inputs.length)
                for (let i = 0; i < message.inputs.length; ++i)
                    $root.inference.ModelMetadataResponse.TensorMetadata.encode(message.inputs[i], writer.uint32(/* id 4, wireType 2 =*/34).fork(), _depth + 1).ldelim();
            if (message.outputs != null && message.outputs.length)
                for (let i = 0; i < message.outputs.length; ++i)
                    $root.inference.ModelMetadataResponse.TensorMetadata.encode(message.outputs[i], writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelMetadataResponse message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelMetadataResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelMetadataResponse & inference.ModelMetadataResponse.$Shape} ModelMetadataResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelMetadataResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelMetadataResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if (!(message.versions && message.versions.length))
                            message.versions = [];
                        message.versions.push(reader.stringVerify());
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.platform = value;
                        else
                            delete message.platform;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if (!(message.inputs && message.inputs.length))
                            message.inputs = [];
                        message.inputs.push($root.inference.ModelMetadataResponse.TensorMetadata.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if (!(message.outputs && message.outputs.length))
                            message.outputs = [];
                        message.outputs.push($root.inference.ModelMetadataResponse.TensorMetadata.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelMetadataResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelMetadataResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelMetadataResponse} ModelMetadataResponse
         */
        ModelMetadataResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelMetadataResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelMetadataResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelMetadataResponse();
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.versions) {
                if (!$Array.isArray(object.versions))
                    throw $TypeError(".inference.ModelMetadataResponse.versions: array expected");
                message.versions = $Array(object.versions.length);
                for (let i = 0; i < object.versions.length; ++i)
                    message.versions[i] = $String(object.versions[i]);
            }
            if (object.platform != null)
                if (typeof object.platform !== "string" || object.platform.length)
                    message.platform = $String(object.platform);
            if (object.inputs) {
                if (!$Array.isArray(object.inputs))
                    throw $TypeError(".inference.ModelMetadataResponse.inputs: array expected");
                message.inputs = $Array(object.inputs.length);
                for (let i = 0; i < object.inputs.length; ++i) {
                    if (!$util.isObject(object.inputs[i]))
                        throw $TypeError(".inference.ModelMetadataResponse.inputs: object expected");
                    message.inputs[i] = $root.inference.ModelMetadataResponse.TensorMetadata.fromObject(object.inputs[i], _depth + 1);
                }
            }
            if (object.outputs) {
                if (!$Array.isArray(object.outputs))
                    throw $TypeError(".inference.ModelMetadataResponse.outputs: array expected");
                message.outputs = $Array(object.outputs.length);
                for (let i = 0; i < object.outputs.length; ++i) {
                    if (!$util.isObject(object.outputs[i]))
                        throw $TypeError(".inference.ModelMetadataResponse.outputs: object expected");
                    message.outputs[i] = $root.inference.ModelMetadataResponse.TensorMetadata.fromObject(object.outputs[i], _depth + 1);
                }
            }
            return message;
        };

        /**
         * Creates a plain object from a ModelMetadataResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelMetadataResponse
         * @static
         * @param {inference.ModelMetadataResponse} message ModelMetadataResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelMetadataResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults) {
                object.versions = [];
                object.inputs = [];
                object.outputs = [];
            }
            if (options.defaults) {
                object.name = "";
                object.platform = "";
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.versions && message.versions.length) {
                object.versions = $Array(message.versions.length);
                for (let j = 0; j < message.versions.length; ++j)
                    object.versions[j] = message.versions[j];
            }
            if (message.platform != null && $Object.hasOwnProperty.call(message, "platform"))
                object.platform = message.platform;
            if (message.inputs && message.inputs.length) {
                object.inputs = $Array(message.inputs.length);
                for (let j = 0; j < message.inputs.length; ++j)
                    object.inputs[j] = $root.inference.ModelMetadataResponse.TensorMetadata.toObject(message.inputs[j], options, _depth + 1);
            }
            if (message.outputs && message.outputs.length) {
                object.outputs = $Array(message.outputs.length);
                for (let j = 0; j < message.outputs.length; ++j)
                    object.outputs[j] = $root.inference.ModelMetadataResponse.TensorMetadata.toObject(message.outputs[j], options, _depth + 1);
            }
            return object;
        };

        /**
         * Converts this ModelMetadataResponse to JSON.
         * @function toJSON
         * @memberof inference.ModelMetadataResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelMetadataResponse.prototype.toJSON = function() {
            return ModelMetadataResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        ModelMetadataResponse.TensorMetadata = (function() {

            /**
             * Properties of a TensorMetadata.
             * @typedef {Object} inference.ModelMetadataResponse.TensorMetadata.$Properties
             * @property {string|null} [name] TensorMetadata name
             * @property {string|null} [datatype] TensorMetadata datatype
             * @property {Array.<number|Long>|null} [shape] TensorMetadata shape
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a TensorMetadata.
             * @memberof inference.ModelMetadataResponse
             * @interface ITensorMetadata
             * @augments inference.ModelMetadataResponse.TensorMetadata.$Properties
             * @deprecated Use inference.ModelMetadataResponse.TensorMetadata.$Properties instead.
             */

            /**
             * Shape of a TensorMetadata.
             * @typedef {inference.ModelMetadataResponse.TensorMetadata.$Properties} inference.ModelMetadataResponse.TensorMetadata.$Shape
             */

            /**
             * Constructs a new TensorMetadata.
             * @memberof inference.ModelMetadataResponse
             * @classdesc Represents a TensorMetadata.
             * @constructor
             * @param {inference.ModelMetadataResponse.TensorMetadata.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const TensorMetadata = function (properties) {
                this.shape = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * TensorMetadata name.
             * @member {string} name
             * @memberof inference.ModelMetadataResponse.TensorMetadata
             * @instance
             */
            TensorMetadata.prototype.name = "";

            /**
             * TensorMetadata datatype.
             * @member {string} datatype
             * @memberof inference.ModelMetadataResponse.TensorMetadata
             * @instance
             */
            TensorMetadata.prototype.datatype = "";

            /**
             * TensorMetadata shape.
             * @member {Array.<number|Long>} shape
             * @memberof inference.ModelMetadataResponse.TensorMetadata
             * @instance
             */
            TensorMetadata.prototype.shape = $util.emptyArray;

            /**
             * Creates a new TensorMetadata instance using the specified properties.
             * @function create
             * @memberof inference.ModelMetadataResponse.TensorMetadata
             * @static
             * @param {inference.ModelMetadataResponse.TensorMetadata.$Properties=} [properties] Properties to set
             * @returns {inference.ModelMetadataResponse.TensorMetadata} TensorMetadata instance
             * @type {{
             *   (properties: inference.ModelMetadataResponse.TensorMetadata.$Shape): inference.ModelMetadataResponse.TensorMetadata & inference.ModelMetadataResponse.TensorMetadata.$Shape;
             *   (properties?: inference.ModelMetadataResponse.TensorMetadata.$Properties): inference.ModelMetadataResponse.TensorMetadata;
             * }}
             */
            TensorMetadata.create = function(properties) {
                return new TensorMetadata(properties);
            };

            /**
             * Encodes the specified TensorMetadata message. Does not implicitly {@link inference.ModelMetadataResponse.TensorMetadata.verify|verify} messages.
             * @function encode
             * @memberof inference.ModelMetadataResponse.TensorMetadata
             * @static
             * @param {inference.ModelMetadataResponse.TensorMetadata.$Properties} message TensorMetadata message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            TensorMetadata.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
                if (message.datatype != null && $Object.hasOwnProperty.call(message, "datatype") && message.datatype !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.datatype);
                if (message.shape != null && message.shape.length)
                    writer.uint32(/* id 3, wireType 2 =*/26).int64s(message.shape);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a TensorMetadata message from the specified reader or buffer.
             * @function decode
             * @memberof inference.ModelMetadataResponse.TensorMetadata
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {inference.ModelMetadataResponse.TensorMetadata & inference.ModelMetadataResponse.TensorMetadata.$Shape} TensorMetadata
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            TensorMetadata.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.inference.ModelMetadataResponse.TensorMetadata();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.datatype = value;
                            else
                                delete message.datatype;
                            continue;
                        }
                    case 3: {
                            if (wireType === 2) {
                                if (!(message.shape && message.shape.length))
                                    message.shape = [];
                                reader.int64s(message.shape);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.shape && message.shape.length))
                                message.shape = [];
                            message.shape.push(reader.int64());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates a TensorMetadata message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof inference.ModelMetadataResponse.TensorMetadata
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {inference.ModelMetadataResponse.TensorMetadata} TensorMetadata
             */
            TensorMetadata.fromObject = function (object, _depth) {
                if (object instanceof $root.inference.ModelMetadataResponse.TensorMetadata)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".inference.ModelMetadataResponse.TensorMetadata: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.inference.ModelMetadataResponse.TensorMetadata();
                if (object.name != null)
                    if (typeof object.name !== "string" || object.name.length)
                        message.name = $String(object.name);
                if (object.datatype != null)
                    if (typeof object.datatype !== "string" || object.datatype.length)
                        message.datatype = $String(object.datatype);
                if (object.shape) {
                    if (!$Array.isArray(object.shape))
                        throw $TypeError(".inference.ModelMetadataResponse.TensorMetadata.shape: array expected");
                    message.shape = $Array(object.shape.length);
                    for (let i = 0; i < object.shape.length; ++i)
                        if ($util.Long)
                            message.shape[i] = $util.Long.fromValue(object.shape[i], false);
                        else if (typeof object.shape[i] === "string")
                            message.shape[i] = $parseInt(object.shape[i], 10);
                        else if (typeof object.shape[i] === "number")
                            message.shape[i] = object.shape[i];
                        else if (typeof object.shape[i] === "object")
                            message.shape[i] = new $util.LongBits(object.shape[i].low >>> 0, object.shape[i].high >>> 0).toNumber();
                }
                return message;
            };

            /**
             * Creates a plain object from a TensorMetadata message. Also converts values to other types if specified.
             * @function toObject
             * @memberof inference.ModelMetadataResponse.TensorMetadata
             * @static
             * @param {inference.ModelMetadataResponse.TensorMetadata} message TensorMetadata
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            TensorMetadata.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.shape = [];
                if (options.defaults) {
                    object.name = "";
                    object.datatype = "";
                }
                if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                    object.name = message.name;
                if (message.datatype != null && $Object.hasOwnProperty.call(message, "datatype"))
                    object.datatype = message.datatype;
                if (message.shape && message.shape.length) {
                    object.shape = $Array(message.shape.length);
                    for (let j = 0; j < message.shape.length; ++j)
                        if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                            object.shape[j] = typeof message.shape[j] === "number" ? $BigInt(message.shape[j]) : $util.Long.fromBits(message.shape[j].low >>> 0, message.shape[j].high >>> 0, false).toBigInt();
                        else if (typeof message.shape[j] === "number")
                            object.shape[j] = options.longs === $String ? $String(message.shape[j]) : message.shape[j];
                        else
                            object.shape[j] = options.longs === $String ? $util.Long.prototype.toString.call(message.shape[j]) : options.longs === $Number ? new $util.LongBits(message.shape[j].low >>> 0, message.shape[j].high >>> 0).toNumber() : message.shape[j];
                }
                return object;
            };

            /**
             * Converts this TensorMetadata to JSON.
             * @function toJSON
             * @memberof inference.ModelMetadataResponse.TensorMetadata
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            TensorMetadata.prototype.toJSON = function() {
                return TensorMetadata.toObject(this, $protobuf.util.toJSONOptions);
            };

            return TensorMetadata;
        })();

        return ModelMetadataResponse;
    })();

    inference.InferParameter = (function() {

        /**
         * Properties of an InferParameter.
         * @typedef {Object} inference.InferParameter.$Properties
         * @property {boolean|null} [bool_param] InferParameter bool_param
         * @property {number|Long|null} [int64_param] InferParameter int64_param
         * @property {string|null} [string_param] InferParameter string_param
         * @property {number|null} [double_param] InferParameter double_param
         * @property {number|Long|null} [uint64_param] InferParameter uint64_param
         * @property {"bool_param"|"int64_param"|"string_param"|"double_param"|"uint64_param"} [parameter_choice] InferParameter parameter_choice
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of an InferParameter.
         * @memberof inference
         * @interface IInferParameter
         * @augments inference.InferParameter.$Properties
         * @deprecated Use inference.InferParameter.$Properties instead.
         */

        /**
         * Narrowed shape of an InferParameter.
         * @typedef {{
         *   bool_param?: boolean|null;
         *   int64_param?: number|Long|null;
         *   string_param?: string|null;
         *   double_param?: number|null;
         *   uint64_param?: number|Long|null;
         *   $unknowns?: Array.<Uint8Array>;
         * } & (
         *   ({ parameter_choice?: undefined; bool_param?: null; int64_param?: null; string_param?: null; double_param?: null; uint64_param?: null }|{ parameter_choice?: "bool_param"; bool_param: boolean; int64_param?: null; string_param?: null; double_param?: null; uint64_param?: null }|{ parameter_choice?: "int64_param"; bool_param?: null; int64_param: number|Long; string_param?: null; double_param?: null; uint64_param?: null }|{ parameter_choice?: "string_param"; bool_param?: null; int64_param?: null; string_param: string; double_param?: null; uint64_param?: null }|{ parameter_choice?: "double_param"; bool_param?: null; int64_param?: null; string_param?: null; double_param: number; uint64_param?: null }|{ parameter_choice?: "uint64_param"; bool_param?: null; int64_param?: null; string_param?: null; double_param?: null; uint64_param: number|Long })
         * )} inference.InferParameter.$Shape
         */

        /**
         * Constructs a new InferParameter.
         * @memberof inference
         * @classdesc Represents an InferParameter.
         * @constructor
         * @param {inference.InferParameter.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const InferParameter = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * InferParameter bool_param.
         * @member {boolean|null|undefined} bool_param
         * @memberof inference.InferParameter
         * @instance
         */
        InferParameter.prototype.bool_param = null;

        /**
         * InferParameter int64_param.
         * @member {number|Long|null|undefined} int64_param
         * @memberof inference.InferParameter
         * @instance
         */
        InferParameter.prototype.int64_param = null;

        /**
         * InferParameter string_param.
         * @member {string|null|undefined} string_param
         * @memberof inference.InferParameter
         * @instance
         */
        InferParameter.prototype.string_param = null;

        /**
         * InferParameter double_param.
         * @member {number|null|undefined} double_param
         * @memberof inference.InferParameter
         * @instance
         */
        InferParameter.prototype.double_param = null;

        /**
         * InferParameter uint64_param.
         * @member {number|Long|null|undefined} uint64_param
         * @memberof inference.InferParameter
         * @instance
         */
        InferParameter.prototype.uint64_param = null;

        // OneOf field names bound to virtual getters and setters
        let $oneOfFields;

        /**
         * InferParameter parameter_choice.
         * @member {"bool_param"|"int64_param"|"string_param"|"double_param"|"uint64_param"|undefined} parameter_choice
         * @memberof inference.InferParameter
         * @instance
         */
        $Object.defineProperty(InferParameter.prototype, "parameter_choice", {
            get: $util.oneOfGetter($oneOfFields = ["bool_param", "int64_param", "string_param", "double_param", "uint64_param"]),
            set: $util.oneOfSetter($oneOfFields)
        });

        /**
         * Creates a new InferParameter instance using the specified properties.
         * @function create
         * @memberof inference.InferParameter
         * @static
         * @param {inference.InferParameter.$Properties=} [properties] Properties to set
         * @returns {inference.InferParameter} InferParameter instance
         * @type {{
         *   (properties: inference.InferParameter.$Shape): inference.InferParameter & inference.InferParameter.$Shape;
         *   (properties?: inference.InferParameter.$Properties): inference.InferParameter;
         * }}
         */
        InferParameter.create = function(properties) {
            return new InferParameter(properties);
        };

        /**
         * Encodes the specified InferParameter message. Does not implicitly {@link inference.InferParameter.verify|verify} messages.
         * @function encode
         * @memberof inference.InferParameter
         * @static
         * @param {inference.InferParameter.$Properties} message InferParameter message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        InferParameter.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.bool_param != null && $Object.hasOwnProperty.call(message, "bool_param"))
                writer.uint32(/* id 1, wireType 0 =*/8).bool(message.bool_param);
            if (message.int64_param != null && $Object.hasOwnProperty.call(message, "int64_param"))
                writer.uint32(/* id 2, wireType 0 =*/16).int64(message.int64_param);
            if (message.string_param != null && $Object.hasOwnProperty.call(message, "string_param"))
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.string_param);
            if (message.double_param != null && $Object.hasOwnProperty.call(message, "double_param"))
                writer.uint32(/* id 4, wireType 1 =*/33).double(message.double_param);
            if (message.uint64_param != null && $Object.hasOwnProperty.call(message, "uint64_param"))
                writer.uint32(/* id 5, wireType 0 =*/40).uint64(message.uint64_param);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes an InferParameter message from the specified reader or buffer.
         * @function decode
         * @memberof inference.InferParameter
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.InferParameter & inference.InferParameter.$Shape} InferParameter
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        InferParameter.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.InferParameter();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        message.bool_param = reader.bool();
                        message.parameter_choice = "bool_param";
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        message.int64_param = reader.int64();
                        message.parameter_choice = "int64_param";
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.string_param = reader.stringVerify();
                        message.parameter_choice = "string_param";
                        continue;
                    }
                case 4: {
                        if (wireType !== 1)
                            break;
                        message.double_param = reader.double();
                        message.parameter_choice = "double_param";
                        continue;
                    }
                case 5: {
                        if (wireType !== 0)
                            break;
                        message.uint64_param = reader.uint64();
                        message.parameter_choice = "uint64_param";
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates an InferParameter message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.InferParameter
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.InferParameter} InferParameter
         */
        InferParameter.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.InferParameter)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.InferParameter: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.InferParameter();
            if (object.bool_param != null)
                message.bool_param = $Boolean(object.bool_param);
            if (object.int64_param != null)
                if ($util.Long)
                    message.int64_param = $util.Long.fromValue(object.int64_param, false);
                else if (typeof object.int64_param === "string")
                    message.int64_param = $parseInt(object.int64_param, 10);
                else if (typeof object.int64_param === "number")
                    message.int64_param = object.int64_param;
                else if (typeof object.int64_param === "object")
                    message.int64_param = new $util.LongBits(object.int64_param.low >>> 0, object.int64_param.high >>> 0).toNumber();
            if (object.string_param != null)
                message.string_param = $String(object.string_param);
            if (object.double_param != null)
                message.double_param = $Number(object.double_param);
            if (object.uint64_param != null)
                if ($util.Long)
                    message.uint64_param = $util.Long.fromValue(object.uint64_param, true);
                else if (typeof object.uint64_param === "string")
                    message.uint64_param = $parseInt(object.uint64_param, 10);
                else if (typeof object.uint64_param === "number")
                    message.uint64_param = object.uint64_param;
                else if (typeof object.uint64_param === "object")
                    message.uint64_param = new $util.LongBits(object.uint64_param.low >>> 0, object.uint64_param.high >>> 0).toNumber(true);
            return message;
        };

        /**
         * Creates a plain object from an InferParameter message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.InferParameter
         * @static
         * @param {inference.InferParameter} message InferParameter
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        InferParameter.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (message.bool_param != null && $Object.hasOwnProperty.call(message, "bool_param")) {
                object.bool_param = message.bool_param;
                if (options.oneofs)
                    object.parameter_choice = "bool_param";
            }
            if (message.int64_param != null && $Object.hasOwnProperty.call(message, "int64_param")) {
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.int64_param = typeof message.int64_param === "number" ? $BigInt(message.int64_param) : $util.Long.fromBits(message.int64_param.low >>> 0, message.int64_param.high >>> 0, false).toBigInt();
                else if (typeof message.int64_param === "number")
                    object.int64_param = options.longs === $String ? $String(message.int64_param) : message.int64_param;
                else
                    object.int64_param = options.longs === $String ? $util.Long.prototype.toString.call(message.int64_param) : options.longs === $Number ? new $util.LongBits(message.int64_param.low >>> 0, message.int64_param.high >>> 0).toNumber() : message.int64_param;
                if (options.oneofs)
                    object.parameter_choice = "int64_param";
            }
            if (message.string_param != null && $Object.hasOwnProperty.call(message, "string_param")) {
                object.string_param = message.string_param;
                if (options.oneofs)
                    object.parameter_choice = "string_param";
            }
            if (message.double_param != null && $Object.hasOwnProperty.call(message, "double_param")) {
                object.double_param = options.json && !$isFinite(message.double_param) ? $String(message.double_param) : message.double_param;
                if (options.oneofs)
                    object.parameter_choice = "double_param";
            }
            if (message.uint64_param != null && $Object.hasOwnProperty.call(message, "uint64_param")) {
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.uint64_param = typeof message.uint64_param === "number" ? $BigInt(message.uint64_param) : $util.Long.fromBits(message.uint64_param.low >>> 0, message.uint64_param.high >>> 0, true).toBigInt();
                else if (typeof message.uint64_param === "number")
                    object.uint64_param = options.longs === $String ? $String(message.uint64_param) : message.uint64_param;
                else
                    object.uint64_param = options.longs === $String ? $util.Long.prototype.toString.call(message.uint64_param) : options.longs === $Number ? new $util.LongBits(message.uint64_param.low >>> 0, message.uint64_param.high >>> 0).toNumber(true) : message.uint64_param;
                if (options.oneofs)
                    object.parameter_choice = "uint64_param";
            }
            return object;
        };

        /**
         * Converts this InferParameter to JSON.
         * @function toJSON
         * @memberof inference.InferParameter
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        InferParameter.prototype.toJSON = function() {
            return InferParameter.toObject(this, $protobuf.util.toJSONOptions);
        };

        return InferParameter;
    })();

    inference.InferTensorContents = (function() {

        /**
         * Properties of an InferTensorContents.
         * @typedef {Object} inference.InferTensorContents.$Properties
         * @property {Array.<boolean>|null} [bool_contents] InferTensorContents bool_contents
         * @property {Array.<number>|null} [int_contents] InferTensorContents int_contents
         * @property {Array.<number|Long>|null} [int64_contents] InferTensorContents int64_contents
         * @property {Array.<number>|null} [uint_contents] InferTensorContents uint_contents
         * @property {Array.<number|Long>|null} [uint64_contents] InferTensorContents uint64_contents
         * @property {Array.<number>|null} [fp32_contents] InferTensorContents fp32_contents
         * @property {Array.<number>|null} [fp64_contents] InferTensorContents fp64_contents
         * @property {Array.<Uint8Array>|null} [bytes_contents] InferTensorContents bytes_contents
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of an InferTensorContents.
         * @memberof inference
         * @interface IInferTensorContents
         * @augments inference.InferTensorContents.$Properties
         * @deprecated Use inference.InferTensorContents.$Properties instead.
         */

        /**
         * Shape of an InferTensorContents.
         * @typedef {inference.InferTensorContents.$Properties} inference.InferTensorContents.$Shape
         */

        /**
         * Constructs a new InferTensorContents.
         * @memberof inference
         * @classdesc Represents an InferTensorContents.
         * @constructor
         * @param {inference.InferTensorContents.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const InferTensorContents = function (properties) {
            this.bool_contents = [];
            this.int_contents = [];
            this.int64_contents = [];
            this.uint_contents = [];
            this.uint64_contents = [];
            this.fp32_contents = [];
            this.fp64_contents = [];
            this.bytes_contents = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * InferTensorContents bool_contents.
         * @member {Array.<boolean>} bool_contents
         * @memberof inference.InferTensorContents
         * @instance
         */
        InferTensorContents.prototype.bool_contents = $util.emptyArray;

        /**
         * InferTensorContents int_contents.
         * @member {Array.<number>} int_contents
         * @memberof inference.InferTensorContents
         * @instance
         */
        InferTensorContents.prototype.int_contents = $util.emptyArray;

        /**
         * InferTensorContents int64_contents.
         * @member {Array.<number|Long>} int64_contents
         * @memberof inference.InferTensorContents
         * @instance
         */
        InferTensorContents.prototype.int64_contents = $util.emptyArray;

        /**
         * InferTensorContents uint_contents.
         * @member {Array.<number>} uint_contents
         * @memberof inference.InferTensorContents
         * @instance
         */
        InferTensorContents.prototype.uint_contents = $util.emptyArray;

        /**
         * InferTensorContents uint64_contents.
         * @member {Array.<number|Long>} uint64_contents
         * @memberof inference.InferTensorContents
         * @instance
         */
        InferTensorContents.prototype.uint64_contents = $util.emptyArray;

        /**
         * InferTensorContents fp32_contents.
         * @member {Array.<number>} fp32_contents
         * @memberof inference.InferTensorContents
         * @instance
         */
        InferTensorContents.prototype.fp32_contents = $util.emptyArray;

        /**
         * InferTensorContents fp64_contents.
         * @member {Array.<number>} fp64_contents
         * @memberof inference.InferTensorContents
         * @instance
         */
        InferTensorContents.prototype.fp64_contents = $util.emptyArray;

        /**
         * InferTensorContents bytes_contents.
         * @member {Array.<Uint8Array>} bytes_contents
         * @memberof inference.InferTensorContents
         * @instance
         */
        InferTensorContents.prototype.bytes_contents = $util.emptyArray;

        /**
         * Creates a new InferTensorContents instance using the specified properties.
         * @function create
         * @memberof inference.InferTensorContents
         * @static
         * @param {inference.InferTensorContents.$Properties=} [properties] Properties to set
         * @returns {inference.InferTensorContents} InferTensorContents instance
         * @type {{
         *   (properties: inference.InferTensorContents.$Shape): inference.InferTensorContents & inference.InferTensorContents.$Shape;
         *   (properties?: inference.InferTensorContents.$Properties): inference.InferTensorContents;
         * }}
         */
        InferTensorContents.create = function(properties) {
            return new InferTensorContents(properties);
        };

        /**
         * Encodes the specified InferTensorContents message. Does not implicitly {@link inference.InferTensorContents.verify|verify} messages.
         * @function encode
         * @memberof inference.InferTensorContents
         * @static
         * @param {inference.InferTensorContents.$Properties} message InferTensorContents message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        InferTensorContents.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.bool_contents != null && message.bool_contents.length)
                writer.uint32(/* id 1, wireType 2 =*/10).bools(message.bool_contents);
            if (message.int_contents != null && message.int_contents.length)
                writer.uint32(/* id 2, wireType 2 =*/18).int32s(message.int_contents);
            if (message.int64_contents != null && message.int64_contents.length)
                writer.uint32(/* id 3, wireType 2 =*/26).int64s(message.int64_contents);
            if (message.uint_contents != null && message.uint_contents.length)
                writer.uint32(/* id 4, wireType 2 =*/34).uint32s(message.uint_contents);
            if (message.uint64_contents != null && message.uint64_contents.length)
                writer.uint32(/* id 5, wireType 2 =*/42).uint64s(message.uint64_contents);
            if (message.fp32_contents != null && message.fp32_contents.length)
                writer.uint32(/* id 6, wireType 2 =*/50).floats(message.fp32_contents);
            if (message.fp64_contents != null && message.fp64_contents.length)
                writer.uint32(/* id 7, wireType 2 =*/58).doubles(message.fp64_contents);
            if (message.bytes_contents != null && message.bytes_contents.length)
                for (let i = 0; i < message.bytes_contents.length; ++i)
                    writer.uint32(/* id 8, wireType 2 =*/66).bytes(message.bytes_contents[i]);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes an InferTensorContents message from the specified reader or buffer.
         * @function decode
         * @memberof inference.InferTensorContents
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.InferTensorContents & inference.InferTensorContents.$Shape} InferTensorContents
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        InferTensorContents.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.InferTensorContents();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType === 2) {
                            if (!(message.bool_contents && message.bool_contents.length))
                                message.bool_contents = [];
                            reader.bools(message.bool_contents);
                            continue;
                        }
                        if (wireType !== 0)
                            break;
                        if (!(message.bool_contents && message.bool_contents.length))
                            message.bool_contents = [];
                        message.bool_contents.push(reader.bool());
                        continue;
                    }
                case 2: {
                        if (wireType === 2) {
                            if (!(message.int_contents && message.int_contents.length))
                                message.int_contents = [];
                            reader.int32s(message.int_contents);
                            continue;
                        }
                        if (wireType !== 0)
                            break;
                        if (!(message.int_contents && message.int_contents.length))
                            message.int_contents = [];
                        message.int_contents.push(reader.int32());
                        continue;
                    }
                case 3: {
                        if (wireType === 2) {
                            if (!(message.int64_contents && message.int64_contents.length))
                                message.int64_contents = [];
                            reader.int64s(message.int64_contents);
                            continue;
                        }
                        if (wireType !== 0)
                            break;
                        if (!(message.int64_contents && message.int64_contents.length))
                            message.int64_contents = [];
                        message.int64_contents.push(reader.int64());
                        continue;
                    }
                case 4: {
                        if (wireType === 2) {
                            if (!(message.uint_contents && message.uint_contents.length))
                                message.uint_contents = [];
                            reader.uint32s(message.uint_contents);
                            continue;
                        }
                        if (wireType !== 0)
                            break;
                        if (!(message.uint_contents && message.uint_contents.length))
                            message.uint_contents = [];
                        message.uint_contents.push(reader.uint32());
                        continue;
                    }
                case 5: {
                        if (wireType === 2) {
                            if (!(message.uint64_contents && message.uint64_contents.length))
                                message.uint64_contents = [];
                            reader.uint64s(message.uint64_contents);
                            continue;
                        }
                        if (wireType !== 0)
                            break;
                        if (!(message.uint64_contents && message.uint64_contents.length))
                            message.uint64_contents = [];
                        message.uint64_contents.push(reader.uint64());
                        continue;
                    }
                case 6: {
                        if (wireType === 2) {
                            if (!(message.fp32_contents && message.fp32_contents.length))
                                message.fp32_contents = [];
                            reader.floats(message.fp32_contents);
                            continue;
                        }
                        if (wireType !== 5)
                            break;
                        if (!(message.fp32_contents && message.fp32_contents.length))
                            message.fp32_contents = [];
                        message.fp32_contents.push(reader.float());
                        continue;
                    }
                case 7: {
                        if (wireType === 2) {
                            if (!(message.fp64_contents && message.fp64_contents.length))
                                message.fp64_contents = [];
                            reader.doubles(message.fp64_contents);
                            continue;
                        }
                        if (wireType !== 1)
                            break;
                        if (!(message.fp64_contents && message.fp64_contents.length))
                            message.fp64_contents = [];
                        message.fp64_contents.push(reader.double());
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        if (!(message.bytes_contents && message.bytes_contents.length))
                            message.bytes_contents = [];
                        message.bytes_contents.push(reader.bytes());
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates an InferTensorContents message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.InferTensorContents
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.InferTensorContents} InferTensorContents
         */
        InferTensorContents.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.InferTensorContents)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.InferTensorContents: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.InferTensorContents();
            if (object.bool_contents) {
                if (!$Array.isArray(object.bool_contents))
                    throw $TypeError(".inference.InferTensorContents.bool_contents: array expected");
                message.bool_contents = $Array(object.bool_contents.length);
                for (let i = 0; i < object.bool_contents.length; ++i)
                    message.bool_contents[i] = $Boolean(object.bool_contents[i]);
            }
            if (object.int_contents) {
                if (!$Array.isArray(object.int_contents))
                    throw $TypeError(".inference.InferTensorContents.int_contents: array expected");
                message.int_contents = $Array(object.int_contents.length);
                for (let i = 0; i < object.int_contents.length; ++i)
                    message.int_contents[i] = object.int_contents[i] | 0;
            }
            if (object.int64_contents) {
                if (!$Array.isArray(object.int64_contents))
                    throw $TypeError(".inference.InferTensorContents.int64_contents: array expected");
                message.int64_contents = $Array(object.int64_contents.length);
                for (let i = 0; i < object.int64_contents.length; ++i)
                    if ($util.Long)
                        message.int64_contents[i] = $util.Long.fromValue(object.int64_contents[i], false);
                    else if (typeof object.int64_contents[i] === "string")
                        message.int64_contents[i] = $parseInt(object.int64_contents[i], 10);
                    else if (typeof object.int64_contents[i] === "number")
                        message.int64_contents[i] = object.int64_contents[i];
                    else if (typeof object.int64_contents[i] === "object")
                        message.int64_contents[i] = new $util.LongBits(object.int64_contents[i].low >>> 0, object.int64_contents[i].high >>> 0).toNumber();
            }
            if (object.uint_contents) {
                if (!$Array.isArray(object.uint_contents))
                    throw $TypeError(".inference.InferTensorContents.uint_contents: array expected");
                message.uint_contents = $Array(object.uint_contents.length);
                for (let i = 0; i < object.uint_contents.length; ++i)
                    message.uint_contents[i] = object.uint_contents[i] >>> 0;
            }
            if (object.uint64_contents) {
                if (!$Array.isArray(object.uint64_contents))
                    throw $TypeError(".inference.InferTensorContents.uint64_contents: array expected");
                message.uint64_contents = $Array(object.uint64_contents.length);
                for (let i = 0; i < object.uint64_contents.length; ++i)
                    if ($util.Long)
                        message.uint64_contents[i] = $util.Long.fromValue(object.uint64_contents[i], true);
                    else if (typeof object.uint64_contents[i] === "string")
                        message.uint64_contents[i] = $parseInt(object.uint64_contents[i], 10);
                    else if (typeof object.uint64_contents[i] === "number")
                        message.uint64_contents[i] = object.uint64_contents[i];
                    else if (typeof object.uint64_contents[i] === "object")
                        message.uint64_contents[i] = new $util.LongBits(object.uint64_contents[i].low >>> 0, object.uint64_contents[i].high >>> 0).toNumber(true);
            }
            if (object.fp32_contents) {
                if (!$Array.isArray(object.fp32_contents))
                    throw $TypeError(".inference.InferTensorContents.fp32_contents: array expected");
                message.fp32_contents = $Array(object.fp32_contents.length);
                for (let i = 0; i < object.fp32_contents.length; ++i)
                    message.fp32_contents[i] = $Number(object.fp32_contents[i]);
            }
            if (object.fp64_contents) {
                if (!$Array.isArray(object.fp64_contents))
                    throw $TypeError(".inference.InferTensorContents.fp64_contents: array expected");
                message.fp64_contents = $Array(object.fp64_contents.length);
                for (let i = 0; i < object.fp64_contents.length; ++i)
                    message.fp64_contents[i] = $Number(object.fp64_contents[i]);
            }
            if (object.bytes_contents) {
                if (!$Array.isArray(object.bytes_contents))
                    throw $TypeError(".inference.InferTensorContents.bytes_contents: array expected");
                message.bytes_contents = $Array(object.bytes_contents.length);
                for (let i = 0; i < object.bytes_contents.length; ++i)
                    if (typeof object.bytes_contents[i] === "string")
                        $util.base64.decode(object.bytes_contents[i], message.bytes_contents[i] = $util.newBuffer($util.base64.length(object.bytes_contents[i])), 0);
                    else if (object.bytes_contents[i].length >= 0)
                        message.bytes_contents[i] = object.bytes_contents[i];
            }
            return message;
        };

        /**
         * Creates a plain object from an InferTensorContents message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.InferTensorContents
         * @static
         * @param {inference.InferTensorContents} message InferTensorContents
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        InferTensorContents.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults) {
                object.bool_contents = [];
                object.int_contents = [];
                object.int64_contents = [];
                object.uint_contents = [];
                object.uint64_contents = [];
                object.fp32_contents = [];
                object.fp64_contents = [];
                object.bytes_contents = [];
            }
            if (message.bool_contents && message.bool_contents.length) {
                object.bool_contents = $Array(message.bool_contents.length);
                for (let j = 0; j < message.bool_contents.length; ++j)
                    object.bool_contents[j] = message.bool_contents[j];
            }
            if (message.int_contents && message.int_contents.length) {
                object.int_contents = $Array(message.int_contents.length);
                for (let j = 0; j < message.int_contents.length; ++j)
                    object.int_contents[j] = message.int_contents[j];
            }
            if (message.int64_contents && message.int64_contents.length) {
                object.int64_contents = $Array(message.int64_contents.length);
                for (let j = 0; j < message.int64_contents.length; ++j)
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.int64_contents[j] = typeof message.int64_contents[j] === "number" ? $BigInt(message.int64_contents[j]) : $util.Long.fromBits(message.int64_contents[j].low >>> 0, message.int64_contents[j].high >>> 0, false).toBigInt();
                    else if (typeof message.int64_contents[j] === "number")
                        object.int64_contents[j] = options.longs === $String ? $String(message.int64_contents[j]) : message.int64_contents[j];
                    else
                        object.int64_contents[j] = options.longs === $String ? $util.Long.prototype.toString.call(message.int64_contents[j]) : options.longs === $Number ? new $util.LongBits(message.int64_contents[j].low >>> 0, message.int64_contents[j].high >>> 0).toNumber() : message.int64_contents[j];
            }
            if (message.uint_contents && message.uint_contents.length) {
                object.uint_contents = $Array(message.uint_contents.length);
                for (let j = 0; j < message.uint_contents.length; ++j)
                    object.uint_contents[j] = message.uint_contents[j];
            }
            if (message.uint64_contents && message.uint64_contents.length) {
                object.uint64_contents = $Array(message.uint64_contents.length);
                for (let j = 0; j < message.uint64_contents.length; ++j)
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.uint64_contents[j] = typeof message.uint64_contents[j] === "number" ? $BigInt(message.uint64_contents[j]) : $util.Long.fromBits(message.uint64_contents[j].low >>> 0, message.uint64_contents[j].high >>> 0, true).toBigInt();
                    else if (typeof message.uint64_contents[j] === "number")
                        object.uint64_contents[j] = options.longs === $String ? $String(message.uint64_contents[j]) : message.uint64_contents[j];
                    else
                        object.uint64_contents[j] = options.longs === $String ? $util.Long.prototype.toString.call(message.uint64_contents[j]) : options.longs === $Number ? new $util.LongBits(message.uint64_contents[j].low >>> 0, message.uint64_contents[j].high >>> 0).toNumber(true) : message.uint64_contents[j];
            }
            if (message.fp32_contents && message.fp32_contents.length) {
                object.fp32_contents = $Array(message.fp32_contents.length);
                for (let j = 0; j < message.fp32_contents.length; ++j)
                    object.fp32_contents[j] = options.json && !$isFinite(message.fp32_contents[j]) ? $String(message.fp32_contents[j]) : message.fp32_contents[j];
            }
            if (message.fp64_contents && message.fp64_contents.length) {
                object.fp64_contents = $Array(message.fp64_contents.length);
                for (let j = 0; j < message.fp64_contents.length; ++j)
                    object.fp64_contents[j] = options.json && !$isFinite(message.fp64_contents[j]) ? $String(message.fp64_contents[j]) : message.fp64_contents[j];
            }
            if (message.bytes_contents && message.bytes_contents.length) {
                object.bytes_contents = $Array(message.bytes_contents.length);
                for (let j = 0; j < message.bytes_contents.length; ++j)
                    object.bytes_contents[j] = options.bytes === $String ? $util.base64.encode(message.bytes_contents[j], 0, message.bytes_contents[j].length) : options.bytes === $Array ? $Array.prototype.slice.call(message.bytes_contents[j]) : message.bytes_contents[j];
            }
            return object;
        };

        /**
         * Converts this InferTensorContents to JSON.
         * @function toJSON
         * @memberof inference.InferTensorContents
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        InferTensorContents.prototype.toJSON = function() {
            return InferTensorContents.toObject(this, $protobuf.util.toJSONOptions);
        };

        return InferTensorContents;
    })();

    inference.ModelInferRequest = (function() {

        /**
         * Properties of a ModelInferRequest.
         * @typedef {Object} inference.ModelInferRequest.$Properties
         * @property {string|null} [model_name] ModelInferRequest model_name
         * @property {string|null} [model_version] ModelInferRequest model_version
         * @property {string|null} [id] ModelInferRequest id
         * @property {Object.<string,inference.InferParameter.$Properties>|null} [parameters] ModelInferRequest parameters
         * @property {Array.<inference.ModelInferRequest.InferInputTensor.$Properties>|null} [inputs] ModelInferRequest inputs
         * @property {Array.<inference.ModelInferRequest.InferRequestedOutputTensor.$Properties>|null} [outputs] ModelInferRequest outputs
         * @property {Array.<Uint8Array>|null} [raw_input_contents] ModelInferRequest raw_input_contents
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelInferRequest.
         * @memberof inference
         * @interface IModelInferRequest
         * @augments inference.ModelInferRequest.$Properties
         * @deprecated Use inference.ModelInferRequest.$Properties instead.
         */

        /**
         * Shape of a ModelInferRequest.
         * @typedef {{
         *   model_name?: string|null;
         *   model_version?: string|null;
         *   id?: string|null;
         *   parameters?: Object.<string,inference.InferParameter.$Shape>|null;
         *   inputs?: Array.<inference.ModelInferRequest.InferInputTensor.$Shape>|null;
         *   outputs?: Array.<inference.ModelInferRequest.InferRequestedOutputTensor.$Shape>|null;
         *   raw_input_contents?: Array.<Uint8Array>|null;
         *   $unknowns?: Array.<Uint8Array>;
         * }} inference.ModelInferRequest.$Shape
         */

        /**
         * Constructs a new ModelInferRequest.
         * @memberof inference
         * @classdesc Represents a ModelInferRequest.
         * @constructor
         * @param {inference.ModelInferRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelInferRequest = function (properties) {
            this.parameters = {};
            this.inputs = [];
            this.outputs = [];
            this.raw_input_contents = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelInferRequest model_name.
         * @member {string} model_name
         * @memberof inference.ModelInferRequest
         * @instance
         */
        ModelInferRequest.prototype.model_name = "";

        /**
         * ModelInferRequest model_version.
         * @member {string} model_version
         * @memberof inference.ModelInferRequest
         * @instance
         */
        ModelInferRequest.prototype.model_version = "";

        /**
         * ModelInferRequest id.
         * @member {string} id
         * @memberof inference.ModelInferRequest
         * @instance
         */
        ModelInferRequest.prototype.id = "";

        /**
         * ModelInferRequest parameters.
         * @member {Object.<string,inference.InferParameter.$Properties>} parameters
         * @memberof inference.ModelInferRequest
         * @instance
         */
        ModelInferRequest.prototype.parameters = $util.emptyObject;

        /**
         * ModelInferRequest inputs.
         * @member {Array.<inference.ModelInferRequest.InferInputTensor.$Properties>} inputs
         * @memberof inference.ModelInferRequest
         * @instance
         */
        ModelInferRequest.prototype.inputs = $util.emptyArray;

        /**
         * ModelInferRequest outputs.
         * @member {Array.<inference.ModelInferRequest.InferRequestedOutputTensor.$Properties>} outputs
         * @memberof inference.ModelInferRequest
         * @instance
         */
        ModelInferRequest.prototype.outputs = $util.emptyArray;

        /**
         * ModelInferRequest raw_input_contents.
         * @member {Array.<Uint8Array>} raw_input_contents
         * @memberof inference.ModelInferRequest
         * @instance
         */
        ModelInferRequest.prototype.raw_input_contents = $util.emptyArray;

        /**
         * Creates a new ModelInferRequest instance using the specified properties.
         * @function create
         * @memberof inference.ModelInferRequest
         * @static
         * @param {inference.ModelInferRequest.$Properties=} [properties] Properties to set
         * @returns {inference.ModelInferRequest} ModelInferRequest instance
         * @type {{
         *   (properties: inference.ModelInferRequest.$Shape): inference.ModelInferRequest & inference.ModelInferRequest.$Shape;
         *   (properties?: inference.ModelInferRequest.$Properties): inference.ModelInferRequest;
         * }}
         */
        ModelInferRequest.create = function(properties) {
            return new ModelInferRequest(properties);
        };

        /**
         * Encodes the specified ModelInferRequest message. Does not implicitly {@link inference.ModelInferRequest.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelInferRequest
         * @static
         * @param {inference.ModelInferRequest.$Properties} message ModelInferRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelInferRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.model_name != null && $Object.hasOwnProperty.call(message, "model_name") && message.model_name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.model_name);
            if (message.model_version != null && $Object.hasOwnProperty.call(message, "model_version") && message.model_version !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.model_version);
            if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.id);
            if (message.parameters != null && $Object.hasOwnProperty.call(message, "parameters"))
                for (let keys = $Object.keys(message.parameters), i = 0; i < keys.length; ++i) {
                    writer.uint32(/* id 4, wireType 2 =*/34).fork().uint32(/* id 1, wireType 2 =*/10).string(keys[i]);
                    $root.inference.InferParameter.encode(message.parameters[keys[i]], writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim().ldelim();
                }
            if (message.inputs != null && message.inputs.length)
                for (let i = 0; i < message.inputs.length; ++i)
                    $root.inference.ModelInferRequest.InferInputTensor.encode(message.inputs[i], writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
            if (message.outputs != null && message.outputs.length)
                for (let i = 0; i < message.outputs.length; ++i)
                    $root.inference.ModelInferRequest.InferRequestedOutputTensor.encode(message.outputs[i], writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.raw_input_contents != null && message.raw_input_contents.length)
                for (let i = 0; i < message.raw_input_contents.length; ++i)
                    writer.uint32(/* id 7, wireType 2 =*/58).bytes(message.raw_input_contents[i]);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelInferRequest message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelInferRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelInferRequest & inference.ModelInferRequest.$Shape} ModelInferRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelInferRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, key, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelInferRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.model_name = value;
                        else
                            delete message.model_name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.model_version = value;
                        else
                            delete message.model_version;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.id = value;
                        else
                            delete message.id;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if (message.parameters === $util.emptyObject)
                            message.parameters = {};
                        let end2 = reader.size() + reader.pos;
                        if (end2 > reader.len)
                            throw $RangeError("index out of range");
                        reader.len = end2;
                        key = "";
                        value = null;
                        while (reader.pos < end2) {
                            let tag2 = reader.tag();
                            wireType = tag2 & 7;
                            switch (tag2 >>>= 3) {
                            case 1:
                                if (wireType !== 2)
                                    break;
                                key = reader.stringVerify();
                                continue;
                            case 2:
                                if (wireType !== 2)
                                    break;
                                value = $root.inference.InferParameter.decode(reader, reader.size(), $undefined, _depth + 1, value);
                                continue;
                            }
                            reader.skipType(wireType, _depth, tag2);
                        }
                        if (reader.pos !== end2)
                            throw $RangeError("index out of range");
                        reader.len = end;
                        if (key === "__proto__")
                            $util.makeProp(message.parameters, key);
                        message.parameters[key] = value || new $root.inference.InferParameter();
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if (!(message.inputs && message.inputs.length))
                            message.inputs = [];
                        message.inputs.push($root.inference.ModelInferRequest.InferInputTensor.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if (!(message.outputs && message.outputs.length))
                            message.outputs = [];
                        message.outputs.push($root.inference.ModelInferRequest.InferRequestedOutputTensor.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        if (!(message.raw_input_contents && message.raw_input_contents.length))
                            message.raw_input_contents = [];
                        message.raw_input_contents.push(reader.bytes());
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelInferRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelInferRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelInferRequest} ModelInferRequest
         */
        ModelInferRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelInferRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelInferRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelInferRequest();
            if (object.model_name != null)
                if (typeof object.model_name !== "string" || object.model_name.length)
                    message.model_name = $String(object.model_name);
            if (object.model_version != null)
                if (typeof object.model_version !== "string" || object.model_version.length)
                    message.model_version = $String(object.model_version);
            if (object.id != null)
                if (typeof object.id !== "string" || object.id.length)
                    message.id = $String(object.id);
            if (object.parameters) {
                if (!$util.isObject(object.parameters))
                    throw $TypeError(".inference.ModelInferRequest.parameters: object expected");
                message.parameters = {};
                for (let keys = $Object.keys(object.parameters), i = 0; i < keys.length; ++i) {
                    if (keys[i] === "__proto__")
                        $util.makeProp(message.parameters, keys[i]);
                    if (!$util.isObject(object.parameters[keys[i]]))
                        throw $TypeError(".inference.ModelInferRequest.parameters: object expected");
                    message.parameters[keys[i]] = $root.inference.InferParameter.fromObject(object.parameters[keys[i]], _depth + 1);
                }
            }
            if (object.inputs) {
                if (!$Array.isArray(object.inputs))
                    throw $TypeError(".inference.ModelInferRequest.inputs: array expected");
                message.inputs = $Array(object.inputs.length);
                for (let i = 0; i < object.inputs.length; ++i) {
                    if (!$util.isObject(object.inputs[i]))
                        throw $TypeError(".inference.ModelInferRequest.inputs: object expected");
                    message.inputs[i] = $root.inference.ModelInferRequest.InferInputTensor.fromObject(object.inputs[i], _depth + 1);
                }
            }
            if (object.outputs) {
                if (!$Array.isArray(object.outputs))
                    throw $TypeError(".inference.ModelInferRequest.outputs: array expected");
                message.outputs = $Array(object.outputs.length);
                for (let i = 0; i < object.outputs.length; ++i) {
                    if (!$util.isObject(object.outputs[i]))
                        throw $TypeError(".inference.ModelInferRequest.outputs: object expected");
                    message.outputs[i] = $root.inference.ModelInferRequest.InferRequestedOutputTensor.fromObject(object.outputs[i], _depth + 1);
                }
            }
            if (object.raw_input_contents) {
                if (!$Array.isArray(object.raw_input_contents))
                    throw $TypeError(".inference.ModelInferRequest.raw_input_contents: array expected");
                message.raw_input_contents = $Array(object.raw_input_contents.length);
                for (let i = 0; i < object.raw_input_contents.length; ++i)
                    if (typeof object.raw_input_contents[i] === "string")
                        $util.base64.decode(object.raw_input_contents[i], message.raw_input_contents[i] = $util.newBuffer($util.base64.length(object.raw_input_contents[i])), 0);
                    else if (object.raw_input_contents[i].length >= 0)
                        message.raw_input_contents[i] = object.raw_input_contents[i];
            }
            return message;
        };

        /**
         * Creates a plain object from a ModelInferRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelInferRequest
         * @static
         * @param {inference.ModelInferRequest} message ModelInferRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelInferRequest.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults) {
                object.inputs = [];
                object.outputs = [];
                object.raw_input_contents = [];
            }
            if (options.objects || options.defaults)
                object.parameters = {};
            if (options.defaults) {
                object.model_name = "";
                object.model_version = "";
                object.id = "";
            }
            if (message.model_name != null && $Object.hasOwnProperty.call(message, "model_name"))
                object.model_name = message.model_name;
            if (message.model_version != null && $Object.hasOwnProperty.call(message, "model_version"))
                object.model_version = message.model_version;
            if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                object.id = message.id;
            let keys2;
            if (message.parameters && (keys2 = $Object.keys(message.parameters)).length) {
                object.parameters = {};
                for (let j = 0; j < keys2.length; ++j) {
                    if (keys2[j] === "__proto__")
                        $util.makeProp(object.parameters, keys2[j]);
                    object.parameters[keys2[j]] = $root.inference.InferParameter.toObject(message.parameters[keys2[j]], options, _depth + 1);
                }
            }
            if (message.inputs && message.inputs.length) {
                object.inputs = $Array(message.inputs.length);
                for (let j = 0; j < message.inputs.length; ++j)
                    object.inputs[j] = $root.inference.ModelInferRequest.InferInputTensor.toObject(message.inputs[j], options, _depth + 1);
            }
            if (message.outputs && message.outputs.length) {
                object.outputs = $Array(message.outputs.length);
                for (let j = 0; j < message.outputs.length; ++j)
                    object.outputs[j] = $root.inference.ModelInferRequest.InferRequestedOutputTensor.toObject(message.outputs[j], options, _depth + 1);
            }
            if (message.raw_input_contents && message.raw_input_contents.length) {
                object.raw_input_contents = $Array(message.raw_input_contents.length);
                for (let j = 0; j < message.raw_input_contents.length; ++j)
                    object.raw_input_contents[j] = options.bytes === $String ? $util.base64.encode(message.raw_input_contents[j], 0, message.raw_input_contents[j].length) : options.bytes === $Array ? $Array.prototype.slice.call(message.raw_input_contents[j]) : message.raw_input_contents[j];
            }
            return object;
        };

        /**
         * Converts this ModelInferRequest to JSON.
         * @function toJSON
         * @memberof inference.ModelInferRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelInferRequest.prototype.toJSON = function() {
            return ModelInferRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        ModelInferRequest.InferInputTensor = (function() {

            /**
             * Properties of an InferInputTensor.
             * @typedef {Object} inference.ModelInferRequest.InferInputTensor.$Properties
             * @property {string|null} [name] InferInputTensor name
             * @property {string|null} [datatype] InferInputTensor datatype
             * @property {Array.<number|Long>|null} [shape] InferInputTensor shape
             * @property {Object.<string,inference.InferParameter.$Properties>|null} [parameters] InferInputTensor parameters
             * @property {inference.InferTensorContents.$Properties|null} [contents] InferInputTensor contents
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an InferInputTensor.
             * @memberof inference.ModelInferRequest
             * @interface IInferInputTensor
             * @augments inference.ModelInferRequest.InferInputTensor.$Properties
             * @deprecated Use inference.ModelInferRequest.InferInputTensor.$Properties instead.
             */

            /**
             * Shape of an InferInputTensor.
             * @typedef {{
             *   name?: string|null;
             *   datatype?: string|null;
             *   shape?: Array.<number|Long>|null;
             *   parameters?: Object.<string,inference.InferParameter.$Shape>|null;
             *   contents?: inference.InferTensorContents.$Shape|null;
             *   $unknowns?: Array.<Uint8Array>;
             * }} inference.ModelInferRequest.InferInputTensor.$Shape
             */

            /**
             * Constructs a new InferInputTensor.
             * @memberof inference.ModelInferRequest
             * @classdesc Represents an InferInputTensor.
             * @constructor
             * @param {inference.ModelInferRequest.InferInputTensor.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const InferInputTensor = function (properties) {
                this.shape = [];
                this.parameters = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * InferInputTensor name.
             * @member {string} name
             * @memberof inference.ModelInferRequest.InferInputTensor
             * @instance
             */
            InferInputTensor.prototype.name = "";

            /**
             * InferInputTensor datatype.
             * @member {string} datatype
             * @memberof inference.ModelInferRequest.InferInputTensor
             * @instance
             */
            InferInputTensor.prototype.datatype = "";

            /**
             * InferInputTensor shape.
             * @member {Array.<number|Long>} shape
             * @memberof inference.ModelInferRequest.InferInputTensor
             * @instance
             */
            InferInputTensor.prototype.shape = $util.emptyArray;

            /**
             * InferInputTensor parameters.
             * @member {Object.<string,inference.InferParameter.$Properties>} parameters
             * @memberof inference.ModelInferRequest.InferInputTensor
             * @instance
             */
            InferInputTensor.prototype.parameters = $util.emptyObject;

            /**
             * InferInputTensor contents.
             * @member {inference.InferTensorContents.$Properties|null|undefined} contents
             * @memberof inference.ModelInferRequest.InferInputTensor
             * @instance
             */
            InferInputTensor.prototype.contents = null;

            /**
             * Creates a new InferInputTensor instance using the specified properties.
             * @function create
             * @memberof inference.ModelInferRequest.InferInputTensor
             * @static
             * @param {inference.ModelInferRequest.InferInputTensor.$Properties=} [properties] Properties to set
             * @returns {inference.ModelInferRequest.InferInputTensor} InferInputTensor instance
             * @type {{
             *   (properties: inference.ModelInferRequest.InferInputTensor.$Shape): inference.ModelInferRequest.InferInputTensor & inference.ModelInferRequest.InferInputTensor.$Shape;
             *   (properties?: inference.ModelInferRequest.InferInputTensor.$Properties): inference.ModelInferRequest.InferInputTensor;
             * }}
             */
            InferInputTensor.create = function(properties) {
                return new InferInputTensor(properties);
            };

            /**
             * Encodes the specified InferInputTensor message. Does not implicitly {@link inference.ModelInferRequest.InferInputTensor.verify|verify} messages.
             * @function encode
             * @memberof inference.ModelInferRequest.InferInputTensor
             * @static
             * @param {inference.ModelInferRequest.InferInputTensor.$Properties} message InferInputTensor message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            InferInputTensor.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
                if (message.datatype != null && $Object.hasOwnProperty.call(message, "datatype") && message.datatype !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.datatype);
                if (message.shape != null && message.shape.length)
                    writer.uint32(/* id 3, wireType 2 =*/26).int64s(message.shape);
                if (message.parameters != null && $Object.hasOwnProperty.call(message, "parameters"))
                    for (let keys = $Object.keys(message.parameters), i = 0; i < keys.length; ++i) {
                        writer.uint32(/* id 4, wireType 2 =*/34).fork().uint32(/* id 1, wireType 2 =*/10).string(keys[i]);
                        $root.inference.InferParameter.encode(message.parameters[keys[i]], writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim().ldelim();
                    }
                if (message.contents != null && $Object.hasOwnProperty.call(message, "contents"))
                    $root.inference.InferTensorContents.encode(message.contents, writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes an InferInputTensor message from the specified reader or buffer.
             * @function decode
             * @memberof inference.ModelInferRequest.InferInputTensor
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {inference.ModelInferRequest.InferInputTensor & inference.ModelInferRequest.InferInputTensor.$Shape} InferInputTensor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            InferInputTensor.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.inference.ModelInferRequest.InferInputTensor();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.datatype = value;
                            else
                                delete message.datatype;
                            continue;
                        }
                    case 3: {
                            if (wireType === 2) {
                                if (!(message.shape && message.shape.length))
                                    message.shape = [];
                                reader.int64s(message.shape);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.shape && message.shape.length))
                                message.shape = [];
                            message.shape.push(reader.int64());
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (message.parameters === $util.emptyObject)
                                message.parameters = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = null;
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = $root.inference.InferParameter.decode(reader, reader.size(), $undefined, _depth + 1, value);
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.parameters, key);
                            message.parameters[key] = value || new $root.inference.InferParameter();
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            message.contents = $root.inference.InferTensorContents.decode(reader, reader.size(), $undefined, _depth + 1, message.contents);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates an InferInputTensor message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof inference.ModelInferRequest.InferInputTensor
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {inference.ModelInferRequest.InferInputTensor} InferInputTensor
             */
            InferInputTensor.fromObject = function (object, _depth) {
                if (object instanceof $root.inference.ModelInferRequest.InferInputTensor)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".inference.ModelInferRequest.InferInputTensor: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.inference.ModelInferRequest.InferInputTensor();
                if (object.name != null)
                    if (typeof object.name !== "string" || object.name.length)
                        message.name = $String(object.name);
                if (object.datatype != null)
                    if (typeof object.datatype !== "string" || object.datatype.length)
                        message.datatype = $String(object.datatype);
                if (object.shape) {
                    if (!$Array.isArray(object.shape))
                        throw $TypeError(".inference.ModelInferRequest.InferInputTensor.shape: array expected");
                    message.shape = $Array(object.shape.length);
                    for (let i = 0; i < object.shape.length; ++i)
                        if ($util.Long)
                            message.shape[i] = $util.Long.fromValue(object.shape[i], false);
                        else if (typeof object.shape[i] === "string")
                            message.shape[i] = $parseInt(object.shape[i], 10);
                        else if (typeof object.shape[i] === "number")
                            message.shape[i] = object.shape[i];
                        else if (typeof object.shape[i] === "object")
                            message.shape[i] = new $util.LongBits(object.shape[i].low >>> 0, object.shape[i].high >>> 0).toNumber();
                }
                if (object.parameters) {
                    if (!$util.isObject(object.parameters))
                        throw $TypeError(".inference.ModelInferRequest.InferInputTensor.parameters: object expected");
                    message.parameters = {};
                    for (let keys = $Object.keys(object.parameters), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.parameters, keys[i]);
                        if (!$util.isObject(object.parameters[keys[i]]))
                            throw $TypeError(".inference.ModelInferRequest.InferInputTensor.parameters: object expected");
                        message.parameters[keys[i]] = $root.inference.InferParameter.fromObject(object.parameters[keys[i]], _depth + 1);
                    }
                }
                if (object.contents != null) {
                    if (!$util.isObject(object.contents))
                        throw $TypeError(".inference.ModelInferRequest.InferInputTensor.contents: object expected");
                    message.contents = $root.inference.InferTensorContents.fromObject(object.contents, _depth + 1);
                }
                return message;
            };

            /**
             * Creates a plain object from an InferInputTensor message. Also converts values to other types if specified.
             * @function toObject
             * @memberof inference.ModelInferRequest.InferInputTensor
             * @static
             * @param {inference.ModelInferRequest.InferInputTensor} message InferInputTensor
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            InferInputTensor.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.shape = [];
                if (options.objects || options.defaults)
                    object.parameters = {};
                if (options.defaults) {
                    object.name = "";
                    object.datatype = "";
                    object.contents = null;
                }
                if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                    object.name = message.name;
                if (message.datatype != null && $Object.hasOwnProperty.call(message, "datatype"))
                    object.datatype = message.datatype;
                if (message.shape && message.shape.length) {
                    object.shape = $Array(message.shape.length);
                    for (let j = 0; j < message.shape.length; ++j)
                        if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                            object.shape[j] = typeof message.shape[j] === "number" ? $BigInt(message.shape[j]) : $util.Long.fromBits(message.shape[j].low >>> 0, message.shape[j].high >>> 0, false).toBigInt();
                        else if (typeof message.shape[j] === "number")
                            object.shape[j] = options.longs === $String ? $String(message.shape[j]) : message.shape[j];
                        else
                            object.shape[j] = options.longs === $String ? $util.Long.prototype.toString.call(message.shape[j]) : options.longs === $Number ? new $util.LongBits(message.shape[j].low >>> 0, message.shape[j].high >>> 0).toNumber() : message.shape[j];
                }
                let keys2;
                if (message.parameters && (keys2 = $Object.keys(message.parameters)).length) {
                    object.parameters = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.parameters, keys2[j]);
                        object.parameters[keys2[j]] = $root.inference.InferParameter.toObject(message.parameters[keys2[j]], options, _depth + 1);
                    }
                }
                if (message.contents != null && $Object.hasOwnProperty.call(message, "contents"))
                    object.contents = $root.inference.InferTensorContents.toObject(message.contents, options, _depth + 1);
                return object;
            };

            /**
             * Converts this InferInputTensor to JSON.
             * @function toJSON
             * @memberof inference.ModelInferRequest.InferInputTensor
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            InferInputTensor.prototype.toJSON = function() {
                return InferInputTensor.toObject(this, $protobuf.util.toJSONOptions);
            };

            return InferInputTensor;
        })();

        ModelInferRequest.InferRequestedOutputTensor = (function() {

            /**
             * Properties of an InferRequestedOutputTensor.
             * @typedef {Object} inference.ModelInferRequest.InferRequestedOutputTensor.$Properties
             * @property {string|null} [name] InferRequestedOutputTensor name
             * @property {Object.<string,inference.InferParameter.$Properties>|null} [parameters] InferRequestedOutputTensor parameters
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an InferRequestedOutputTensor.
             * @memberof inference.ModelInferRequest
             * @interface IInferRequestedOutputTensor
             * @augments inference.ModelInferRequest.InferRequestedOutputTensor.$Properties
             * @deprecated Use inference.ModelInferRequest.InferRequestedOutputTensor.$Properties instead.
             */

            /**
             * Shape of an InferRequestedOutputTensor.
             * @typedef {{
             *   name?: string|null;
             *   parameters?: Object.<string,inference.InferParameter.$Shape>|null;
             *   $unknowns?: Array.<Uint8Array>;
             * }} inference.ModelInferRequest.InferRequestedOutputTensor.$Shape
             */

            /**
             * Constructs a new InferRequestedOutputTensor.
             * @memberof inference.ModelInferRequest
             * @classdesc Represents an InferRequestedOutputTensor.
             * @constructor
             * @param {inference.ModelInferRequest.InferRequestedOutputTensor.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const InferRequestedOutputTensor = function (properties) {
                this.parameters = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * InferRequestedOutputTensor name.
             * @member {string} name
             * @memberof inference.ModelInferRequest.InferRequestedOutputTensor
             * @instance
             */
            InferRequestedOutputTensor.prototype.name = "";

            /**
             * InferRequestedOutputTensor parameters.
             * @member {Object.<string,inference.InferParameter.$Properties>} parameters
             * @memberof inference.ModelInferRequest.InferRequestedOutputTensor
             * @instance
             */
            InferRequestedOutputTensor.prototype.parameters = $util.emptyObject;

            /**
             * Creates a new InferRequestedOutputTensor instance using the specified properties.
             * @function create
             * @memberof inference.ModelInferRequest.InferRequestedOutputTensor
             * @static
             * @param {inference.ModelInferRequest.InferRequestedOutputTensor.$Properties=} [properties] Properties to set
             * @returns {inference.ModelInferRequest.InferRequestedOutputTensor} InferRequestedOutputTensor instance
             * @type {{
             *   (properties: inference.ModelInferRequest.InferRequestedOutputTensor.$Shape): inference.ModelInferRequest.InferRequestedOutputTensor & inference.ModelInferRequest.InferRequestedOutputTensor.$Shape;
             *   (properties?: inference.ModelInferRequest.InferRequestedOutputTensor.$Properties): inference.ModelInferRequest.InferRequestedOutputTensor;
             * }}
             */
            InferRequestedOutputTensor.create = function(properties) {
                return new InferRequestedOutputTensor(properties);
            };

            /**
             * Encodes the specified InferRequestedOutputTensor message. Does not implicitly {@link inference.ModelInferRequest.InferRequestedOutputTensor.verify|verify} messages.
             * @function encode
             * @memberof inference.ModelInferRequest.InferRequestedOutputTensor
             * @static
             * @param {inference.ModelInferRequest.InferRequestedOutputTensor.$Properties} message InferRequestedOutputTensor message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            InferRequestedOutputTensor.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
                if (message.parameters != null && $Object.hasOwnProperty.call(message, "parameters"))
                    for (let keys = $Object.keys(message.parameters), i = 0; i < keys.length; ++i) {
                        writer.uint32(/* id 2, wireType 2 =*/18).fork().uint32(/* id 1, wireType 2 =*/10).string(keys[i]);
                        $root.inference.InferParameter.encode(message.parameters[keys[i]], writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim().ldelim();
                    }
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes an InferRequestedOutputTensor message from the specified reader or buffer.
             * @function decode
             * @memberof inference.ModelInferRequest.InferRequestedOutputTensor
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {inference.ModelInferRequest.InferRequestedOutputTensor & inference.ModelInferRequest.InferRequestedOutputTensor.$Shape} InferRequestedOutputTensor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            InferRequestedOutputTensor.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.inference.ModelInferRequest.InferRequestedOutputTensor();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (message.parameters === $util.emptyObject)
                                message.parameters = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = null;
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = $root.inference.InferParameter.decode(reader, reader.size(), $undefined, _depth + 1, value);
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.parameters, key);
                            message.parameters[key] = value || new $root.inference.InferParameter();
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates an InferRequestedOutputTensor message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof inference.ModelInferRequest.InferRequestedOutputTensor
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {inference.ModelInferRequest.InferRequestedOutputTensor} InferRequestedOutputTensor
             */
            InferRequestedOutputTensor.fromObject = function (object, _depth) {
                if (object instanceof $root.inference.ModelInferRequest.InferRequestedOutputTensor)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".inference.ModelInferRequest.InferRequestedOutputTensor: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.inference.ModelInferRequest.InferRequestedOutputTensor();
                if (object.name != null)
                    if (typeof object.name !== "string" || object.name.length)
                        message.name = $String(object.name);
                if (object.parameters) {
                    if (!$util.isObject(object.parameters))
                        throw $TypeError(".inference.ModelInferRequest.InferRequestedOutputTensor.parameters: object expected");
                    message.parameters = {};
                    for (let keys = $Object.keys(object.parameters), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.parameters, keys[i]);
                        if (!$util.isObject(object.parameters[keys[i]]))
                            throw $TypeError(".inference.ModelInferRequest.InferRequestedOutputTensor.parameters: object expected");
                        message.parameters[keys[i]] = $root.inference.InferParameter.fromObject(object.parameters[keys[i]], _depth + 1);
                    }
                }
                return message;
            };

            /**
             * Creates a plain object from an InferRequestedOutputTensor message. Also converts values to other types if specified.
             * @function toObject
             * @memberof inference.ModelInferRequest.InferRequestedOutputTensor
             * @static
             * @param {inference.ModelInferRequest.InferRequestedOutputTensor} message InferRequestedOutputTensor
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            InferRequestedOutputTensor.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.objects || options.defaults)
                    object.parameters = {};
                if (options.defaults)
                    object.name = "";
                if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                    object.name = message.name;
                let keys2;
                if (message.parameters && (keys2 = $Object.keys(message.parameters)).length) {
                    object.parameters = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.parameters, keys2[j]);
                        object.parameters[keys2[j]] = $root.inference.InferParameter.toObject(message.parameters[keys2[j]], options, _depth + 1);
                    }
                }
                return object;
            };

            /**
             * Converts this InferRequestedOutputTensor to JSON.
             * @function toJSON
             * @memberof inference.ModelInferRequest.InferRequestedOutputTensor
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            InferRequestedOutputTensor.prototype.toJSON = function() {
                return InferRequestedOutputTensor.toObject(this, $protobuf.util.toJSONOptions);
            };

            return InferRequestedOutputTensor;
        })();

        return ModelInferRequest;
    })();

    inference.ModelInferResponse = (function() {

        /**
         * Properties of a ModelInferResponse.
         * @typedef {Object} inference.ModelInferResponse.$Properties
         * @property {string|null} [model_name] ModelInferResponse model_name
         * @property {string|null} [model_version] ModelInferResponse model_version
         * @property {string|null} [id] ModelInferResponse id
         * @property {Object.<string,inference.InferParameter.$Properties>|null} [parameters] ModelInferResponse parameters
         * @property {Array.<inference.ModelInferResponse.InferOutputTensor.$Properties>|null} [outputs] ModelInferResponse outputs
         * @property {Array.<Uint8Array>|null} [raw_output_contents] ModelInferResponse raw_output_contents
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelInferResponse.
         * @memberof inference
         * @interface IModelInferResponse
         * @augments inference.ModelInferResponse.$Properties
         * @deprecated Use inference.ModelInferResponse.$Properties instead.
         */

        /**
         * Shape of a ModelInferResponse.
         * @typedef {{
         *   model_name?: string|null;
         *   model_version?: string|null;
         *   id?: string|null;
         *   parameters?: Object.<string,inference.InferParameter.$Shape>|null;
         *   outputs?: Array.<inference.ModelInferResponse.InferOutputTensor.$Shape>|null;
         *   raw_output_contents?: Array.<Uint8Array>|null;
         *   $unknowns?: Array.<Uint8Array>;
         * }} inference.ModelInferResponse.$Shape
         */

        /**
         * Constructs a new ModelInferResponse.
         * @memberof inference
         * @classdesc Represents a ModelInferResponse.
         * @constructor
         * @param {inference.ModelInferResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelInferResponse = function (properties) {
            this.parameters = {};
            this.outputs = [];
            this.raw_output_contents = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelInferResponse model_name.
         * @member {string} model_name
         * @memberof inference.ModelInferResponse
         * @instance
         */
        ModelInferResponse.prototype.model_name = "";

        /**
         * ModelInferResponse model_version.
         * @member {string} model_version
         * @memberof inference.ModelInferResponse
         * @instance
         */
        ModelInferResponse.prototype.model_version = "";

        /**
         * ModelInferResponse id.
         * @member {string} id
         * @memberof inference.ModelInferResponse
         * @instance
         */
        ModelInferResponse.prototype.id = "";

        /**
         * ModelInferResponse parameters.
         * @member {Object.<string,inference.InferParameter.$Properties>} parameters
         * @memberof inference.ModelInferResponse
         * @instance
         */
        ModelInferResponse.prototype.parameters = $util.emptyObject;

        /**
         * ModelInferResponse outputs.
         * @member {Array.<inference.ModelInferResponse.InferOutputTensor.$Properties>} outputs
         * @memberof inference.ModelInferResponse
         * @instance
         */
        ModelInferResponse.prototype.outputs = $util.emptyArray;

        /**
         * ModelInferResponse raw_output_contents.
         * @member {Array.<Uint8Array>} raw_output_contents
         * @memberof inference.ModelInferResponse
         * @instance
         */
        ModelInferResponse.prototype.raw_output_contents = $util.emptyArray;

        /**
         * Creates a new ModelInferResponse instance using the specified properties.
         * @function create
         * @memberof inference.ModelInferResponse
         * @static
         * @param {inference.ModelInferResponse.$Properties=} [properties] Properties to set
         * @returns {inference.ModelInferResponse} ModelInferResponse instance
         * @type {{
         *   (properties: inference.ModelInferResponse.$Shape): inference.ModelInferResponse & inference.ModelInferResponse.$Shape;
         *   (properties?: inference.ModelInferResponse.$Properties): inference.ModelInferResponse;
         * }}
         */
        ModelInferResponse.create = function(properties) {
            return new ModelInferResponse(properties);
        };

        /**
         * Encodes the specified ModelInferResponse message. Does not implicitly {@link inference.ModelInferResponse.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelInferResponse
         * @static
         * @param {inference.ModelInferResponse.$Properties} message ModelInferResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelInferResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.model_name != null && $Object.hasOwnProperty.call(message, "model_name") && message.model_name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.model_name);
            if (message.model_version != null && $Object.hasOwnProperty.call(message, "model_version") && message.model_version !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.model_version);
            if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.id);
            if (message.parameters != null && $Object.hasOwnProperty.call(message, "parameters"))
                for (let keys = $Object.keys(message.parameters), i = 0; i < keys.length; ++i) {
                    writer.uint32(/* id 4, wireType 2 =*/34).fork().uint32(/* id 1, wireType 2 =*/10).string(keys[i]);
                    $root.inference.InferParameter.encode(message.parameters[keys[i]], writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim().ldelim();
                }
            if (message.outputs != null && message.outputs.length)
                for (let i = 0; i < message.outputs.length; ++i)
                    $root.inference.ModelInferResponse.InferOutputTensor.encode(message.outputs[i], writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
            if (message.raw_output_contents != null && message.raw_output_contents.length)
                for (let i = 0; i < message.raw_output_contents.length; ++i)
                    writer.uint32(/* id 6, wireType 2 =*/50).bytes(message.raw_output_contents[i]);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelInferResponse message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelInferResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelInferResponse & inference.ModelInferResponse.$Shape} ModelInferResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelInferResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, key, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelInferResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.model_name = value;
                        else
                            delete message.model_name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.model_version = value;
                        else
                            delete message.model_version;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.id = value;
                        else
                            delete message.id;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if (message.parameters === $util.emptyObject)
                            message.parameters = {};
                        let end2 = reader.size() + reader.pos;
                        if (end2 > reader.len)
                            throw $RangeError("index out of range");
                        reader.len = end2;
                        key = "";
                        value = null;
                        while (reader.pos < end2) {
                            let tag2 = reader.tag();
                            wireType = tag2 & 7;
                            switch (tag2 >>>= 3) {
                            case 1:
                                if (wireType !== 2)
                                    break;
                                key = reader.stringVerify();
                                continue;
                            case 2:
                                if (wireType !== 2)
                                    break;
                                value = $root.inference.InferParameter.decode(reader, reader.size(), $undefined, _depth + 1, value);
                                continue;
                            }
                            reader.skipType(wireType, _depth, tag2);
                        }
                        if (reader.pos !== end2)
                            throw $RangeError("index out of range");
                        reader.len = end;
                        if (key === "__proto__")
                            $util.makeProp(message.parameters, key);
                        message.parameters[key] = value || new $root.inference.InferParameter();
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if (!(message.outputs && message.outputs.length))
                            message.outputs = [];
                        message.outputs.push($root.inference.ModelInferResponse.InferOutputTensor.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if (!(message.raw_output_contents && message.raw_output_contents.length))
                            message.raw_output_contents = [];
                        message.raw_output_contents.push(reader.bytes());
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelInferResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelInferResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelInferResponse} ModelInferResponse
         */
        ModelInferResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelInferResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelInferResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelInferResponse();
            if (object.model_name != null)
                if (typeof object.model_name !== "string" || object.model_name.length)
                    message.model_name = $String(object.model_name);
            if (object.model_version != null)
                if (typeof object.model_version !== "string" || object.model_version.length)
                    message.model_version = $String(object.model_version);
            if (object.id != null)
                if (typeof object.id !== "string" || object.id.length)
                    message.id = $String(object.id);
            if (object.parameters) {
                if (!$util.isObject(object.parameters))
                    throw $TypeError(".inference.ModelInferResponse.parameters: object expected");
                message.parameters = {};
                for (let keys = $Object.keys(object.parameters), i = 0; i < keys.length; ++i) {
                    if (keys[i] === "__proto__")
                        $util.makeProp(message.parameters, keys[i]);
                    if (!$util.isObject(object.parameters[keys[i]]))
                        throw $TypeError(".inference.ModelInferResponse.parameters: object expected");
                    message.parameters[keys[i]] = $root.inference.InferParameter.fromObject(object.parameters[keys[i]], _depth + 1);
                }
            }
            if (object.outputs) {
                if (!$Array.isArray(object.outputs))
                    throw $TypeError(".inference.ModelInferResponse.outputs: array expected");
                message.outputs = $Array(object.outputs.length);
                for (let i = 0; i < object.outputs.length; ++i) {
                    if (!$util.isObject(object.outputs[i]))
                        throw $TypeError(".inference.ModelInferResponse.outputs: object expected");
                    message.outputs[i] = $root.inference.ModelInferResponse.InferOutputTensor.fromObject(object.outputs[i], _depth + 1);
                }
            }
            if (object.raw_output_contents) {
                if (!$Array.isArray(object.raw_output_contents))
                    throw $TypeError(".inference.ModelInferResponse.raw_output_contents: array expected");
                message.raw_output_contents = $Array(object.raw_output_contents.length);
                for (let i = 0; i < object.raw_output_contents.length; ++i)
                    if (typeof object.raw_output_contents[i] === "string")
                        $util.base64.decode(object.raw_output_contents[i], message.raw_output_contents[i] = $util.newBuffer($util.base64.length(object.raw_output_contents[i])), 0);
                    else if (object.raw_output_contents[i].length >= 0)
                        message.raw_output_contents[i] = object.raw_output_contents[i];
            }
            return message;
        };

        /**
         * Creates a plain object from a ModelInferResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelInferResponse
         * @static
         * @param {inference.ModelInferResponse} message ModelInferResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelInferResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults) {
                object.outputs = [];
                object.raw_output_contents = [];
            }
            if (options.objects || options.defaults)
                object.parameters = {};
            if (options.defaults) {
                object.model_name = "";
                object.model_version = "";
                object.id = "";
            }
            if (message.model_name != null && $Object.hasOwnProperty.call(message, "model_name"))
                object.model_name = message.model_name;
            if (message.model_version != null && $Object.hasOwnProperty.call(message, "model_version"))
                object.model_version = message.model_version;
            if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                object.id = message.id;
            let keys2;
            if (message.parameters && (keys2 = $Object.keys(message.parameters)).length) {
                object.parameters = {};
                for (let j = 0; j < keys2.length; ++j) {
                    if (keys2[j] === "__proto__")
                        $util.makeProp(object.parameters, keys2[j]);
                    object.parameters[keys2[j]] = $root.inference.InferParameter.toObject(message.parameters[keys2[j]], options, _depth + 1);
                }
            }
            if (message.outputs && message.outputs.length) {
                object.outputs = $Array(message.outputs.length);
                for (let j = 0; j < message.outputs.length; ++j)
                    object.outputs[j] = $root.inference.ModelInferResponse.InferOutputTensor.toObject(message.outputs[j], options, _depth + 1);
            }
            if (message.raw_output_contents && message.raw_output_contents.length) {
                object.raw_output_contents = $Array(message.raw_output_contents.length);
                for (let j = 0; j < message.raw_output_contents.length; ++j)
                    object.raw_output_contents[j] = options.bytes === $String ? $util.base64.encode(message.raw_output_contents[j], 0, message.raw_output_contents[j].length) : options.bytes === $Array ? $Array.prototype.slice.call(message.raw_output_contents[j]) : message.raw_output_contents[j];
            }
            return object;
        };

        /**
         * Converts this ModelInferResponse to JSON.
         * @function toJSON
         * @memberof inference.ModelInferResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelInferResponse.prototype.toJSON = function() {
            return ModelInferResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        ModelInferResponse.InferOutputTensor = (function() {

            /**
             * Properties of an InferOutputTensor.
             * @typedef {Object} inference.ModelInferResponse.InferOutputTensor.$Properties
             * @property {string|null} [name] InferOutputTensor name
             * @property {string|null} [datatype] InferOutputTensor datatype
             * @property {Array.<number|Long>|null} [shape] InferOutputTensor shape
             * @property {Object.<string,inference.InferParameter.$Properties>|null} [parameters] InferOutputTensor parameters
             * @property {inference.InferTensorContents.$Properties|null} [contents] InferOutputTensor contents
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an InferOutputTensor.
             * @memberof inference.ModelInferResponse
             * @interface IInferOutputTensor
             * @augments inference.ModelInferResponse.InferOutputTensor.$Properties
             * @deprecated Use inference.ModelInferResponse.InferOutputTensor.$Properties instead.
             */

            /**
             * Shape of an InferOutputTensor.
             * @typedef {{
             *   name?: string|null;
             *   datatype?: string|null;
             *   shape?: Array.<number|Long>|null;
             *   parameters?: Object.<string,inference.InferParameter.$Shape>|null;
             *   contents?: inference.InferTensorContents.$Shape|null;
             *   $unknowns?: Array.<Uint8Array>;
             * }} inference.ModelInferResponse.InferOutputTensor.$Shape
             */

            /**
             * Constructs a new InferOutputTensor.
             * @memberof inference.ModelInferResponse
             * @classdesc Represents an InferOutputTensor.
             * @constructor
             * @param {inference.ModelInferResponse.InferOutputTensor.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const InferOutputTensor = function (properties) {
                this.shape = [];
                this.parameters = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * InferOutputTensor name.
             * @member {string} name
             * @memberof inference.ModelInferResponse.InferOutputTensor
             * @instance
             */
            InferOutputTensor.prototype.name = "";

            /**
             * InferOutputTensor datatype.
             * @member {string} datatype
             * @memberof inference.ModelInferResponse.InferOutputTensor
             * @instance
             */
            InferOutputTensor.prototype.datatype = "";

            /**
             * InferOutputTensor shape.
             * @member {Array.<number|Long>} shape
             * @memberof inference.ModelInferResponse.InferOutputTensor
             * @instance
             */
            InferOutputTensor.prototype.shape = $util.emptyArray;

            /**
             * InferOutputTensor parameters.
             * @member {Object.<string,inference.InferParameter.$Properties>} parameters
             * @memberof inference.ModelInferResponse.InferOutputTensor
             * @instance
             */
            InferOutputTensor.prototype.parameters = $util.emptyObject;

            /**
             * InferOutputTensor contents.
             * @member {inference.InferTensorContents.$Properties|null|undefined} contents
             * @memberof inference.ModelInferResponse.InferOutputTensor
             * @instance
             */
            InferOutputTensor.prototype.contents = null;

            /**
             * Creates a new InferOutputTensor instance using the specified properties.
             * @function create
             * @memberof inference.ModelInferResponse.InferOutputTensor
             * @static
             * @param {inference.ModelInferResponse.InferOutputTensor.$Properties=} [properties] Properties to set
             * @returns {inference.ModelInferResponse.InferOutputTensor} InferOutputTensor instance
             * @type {{
             *   (properties: inference.ModelInferResponse.InferOutputTensor.$Shape): inference.ModelInferResponse.InferOutputTensor & inference.ModelInferResponse.InferOutputTensor.$Shape;
             *   (properties?: inference.ModelInferResponse.InferOutputTensor.$Properties): inference.ModelInferResponse.InferOutputTensor;
             * }}
             */
            InferOutputTensor.create = function(properties) {
                return new InferOutputTensor(properties);
            };

            /**
             * Encodes the specified InferOutputTensor message. Does not implicitly {@link inference.ModelInferResponse.InferOutputTensor.verify|verify} messages.
             * @function encode
             * @memberof inference.ModelInferResponse.InferOutputTensor
             * @static
             * @param {inference.ModelInferResponse.InferOutputTensor.$Properties} message InferOutputTensor message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            InferOutputTensor.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
                if (message.datatype != null && $Object.hasOwnProperty.call(message, "datatype") && message.datatype !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.datatype);
                if (message.shape != null && message.shape.length)
                    writer.uint32(/* id 3, wireType 2 =*/26).int64s(message.shape);
                if (message.parameters != null && $Object.hasOwnProperty.call(message, "parameters"))
                    for (let keys = $Object.keys(message.parameters), i = 0; i < keys.length; ++i) {
                        writer.uint32(/* id 4, wireType 2 =*/34).fork().uint32(/* id 1, wireType 2 =*/10).string(keys[i]);
                        $root.inference.InferParameter.encode(message.parameters[keys[i]], writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim().ldelim();
                    }
                if (message.contents != null && $Object.hasOwnProperty.call(message, "contents"))
                    $root.inference.InferTensorContents.encode(message.contents, writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes an InferOutputTensor message from the specified reader or buffer.
             * @function decode
             * @memberof inference.ModelInferResponse.InferOutputTensor
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {inference.ModelInferResponse.InferOutputTensor & inference.ModelInferResponse.InferOutputTensor.$Shape} InferOutputTensor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            InferOutputTensor.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.inference.ModelInferResponse.InferOutputTensor();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.datatype = value;
                            else
                                delete message.datatype;
                            continue;
                        }
                    case 3: {
                            if (wireType === 2) {
                                if (!(message.shape && message.shape.length))
                                    message.shape = [];
                                reader.int64s(message.shape);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.shape && message.shape.length))
                                message.shape = [];
                            message.shape.push(reader.int64());
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (message.parameters === $util.emptyObject)
                                message.parameters = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = null;
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = $root.inference.InferParameter.decode(reader, reader.size(), $undefined, _depth + 1, value);
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.parameters, key);
                            message.parameters[key] = value || new $root.inference.InferParameter();
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            message.contents = $root.inference.InferTensorContents.decode(reader, reader.size(), $undefined, _depth + 1, message.contents);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates an InferOutputTensor message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof inference.ModelInferResponse.InferOutputTensor
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {inference.ModelInferResponse.InferOutputTensor} InferOutputTensor
             */
            InferOutputTensor.fromObject = function (object, _depth) {
                if (object instanceof $root.inference.ModelInferResponse.InferOutputTensor)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".inference.ModelInferResponse.InferOutputTensor: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.inference.ModelInferResponse.InferOutputTensor();
                if (object.name != null)
                    if (typeof object.name !== "string" || object.name.length)
                        message.name = $String(object.name);
                if (object.datatype != null)
                    if (typeof object.datatype !== "string" || object.datatype.length)
                        message.datatype = $String(object.datatype);
                if (object.shape) {
                    if (!$Array.isArray(object.shape))
                        throw $TypeError(".inference.ModelInferResponse.InferOutputTensor.shape: array expected");
                    message.shape = $Array(object.shape.length);
                    for (let i = 0; i < object.shape.length; ++i)
                        if ($util.Long)
                            message.shape[i] = $util.Long.fromValue(object.shape[i], false);
                        else if (typeof object.shape[i] === "string")
                            message.shape[i] = $parseInt(object.shape[i], 10);
                        else if (typeof object.shape[i] === "number")
                            message.shape[i] = object.shape[i];
                        else if (typeof object.shape[i] === "object")
                            message.shape[i] = new $util.LongBits(object.shape[i].low >>> 0, object.shape[i].high >>> 0).toNumber();
                }
                if (object.parameters) {
                    if (!$util.isObject(object.parameters))
                        throw $TypeError(".inference.ModelInferResponse.InferOutputTensor.parameters: object expected");
                    message.parameters = {};
                    for (let keys = $Object.keys(object.parameters), i = 0; i < keys.length; ++i) {
                        if (keys[i] === "__proto__")
                            $util.makeProp(message.parameters, keys[i]);
                        if (!$util.isObject(object.parameters[keys[i]]))
                            throw $TypeError(".inference.ModelInferResponse.InferOutputTensor.parameters: object expected");
                        message.parameters[keys[i]] = $root.inference.InferParameter.fromObject(object.parameters[keys[i]], _depth + 1);
                    }
                }
                if (object.contents != null) {
                    if (!$util.isObject(object.contents))
                        throw $TypeError(".inference.ModelInferResponse.InferOutputTensor.contents: object expected");
                    message.contents = $root.inference.InferTensorContents.fromObject(object.contents, _depth + 1);
                }
                return message;
            };

            /**
             * Creates a plain object from an InferOutputTensor message. Also converts values to other types if specified.
             * @function toObject
             * @memberof inference.ModelInferResponse.InferOutputTensor
             * @static
             * @param {inference.ModelInferResponse.InferOutputTensor} message InferOutputTensor
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            InferOutputTensor.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.shape = [];
                if (options.objects || options.defaults)
                    object.parameters = {};
                if (options.defaults) {
                    object.name = "";
                    object.datatype = "";
                    object.contents = null;
                }
                if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                    object.name = message.name;
                if (message.datatype != null && $Object.hasOwnProperty.call(message, "datatype"))
                    object.datatype = message.datatype;
                if (message.shape && message.shape.length) {
                    object.shape = $Array(message.shape.length);
                    for (let j = 0; j < message.shape.length; ++j)
                        if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                            object.shape[j] = typeof message.shape[j] === "number" ? $BigInt(message.shape[j]) : $util.Long.fromBits(message.shape[j].low >>> 0, message.shape[j].high >>> 0, false).toBigInt();
                        else if (typeof message.shape[j] === "number")
                            object.shape[j] = options.longs === $String ? $String(message.shape[j]) : message.shape[j];
                        else
                            object.shape[j] = options.longs === $String ? $util.Long.prototype.toString.call(message.shape[j]) : options.longs === $Number ? new $util.LongBits(message.shape[j].low >>> 0, message.shape[j].high >>> 0).toNumber() : message.shape[j];
                }
                let keys2;
                if (message.parameters && (keys2 = $Object.keys(message.parameters)).length) {
                    object.parameters = {};
                    for (let j = 0; j < keys2.length; ++j) {
                        if (keys2[j] === "__proto__")
                            $util.makeProp(object.parameters, keys2[j]);
                        object.parameters[keys2[j]] = $root.inference.InferParameter.toObject(message.parameters[keys2[j]], options, _depth + 1);
                    }
                }
                if (message.contents != null && $Object.hasOwnProperty.call(message, "contents"))
                    object.contents = $root.inference.InferTensorContents.toObject(message.contents, options, _depth + 1);
                return object;
            };

            /**
             * Converts this InferOutputTensor to JSON.
             * @function toJSON
             * @memberof inference.ModelInferResponse.InferOutputTensor
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            InferOutputTensor.prototype.toJSON = function() {
                return InferOutputTensor.toObject(this, $protobuf.util.toJSONOptions);
            };

            return InferOutputTensor;
        })();

        return ModelInferResponse;
    })();

    inference.ModelStreamInferResponse = (function() {

        /**
         * Properties of a ModelStreamInferResponse.
         * @typedef {Object} inference.ModelStreamInferResponse.$Properties
         * @property {string|null} [error_message] ModelStreamInferResponse error_message
         * @property {inference.ModelInferResponse.$Properties|null} [infer_response] ModelStreamInferResponse infer_response
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelStreamInferResponse.
         * @memberof inference
         * @interface IModelStreamInferResponse
         * @augments inference.ModelStreamInferResponse.$Properties
         * @deprecated Use inference.ModelStreamInferResponse.$Properties instead.
         */

        /**
         * Shape of a ModelStreamInferResponse.
         * @typedef {{
         *   error_message?: string|null;
         *   infer_response?: inference.ModelInferResponse.$Shape|null;
         *   $unknowns?: Array.<Uint8Array>;
         * }} inference.ModelStreamInferResponse.$Shape
         */

        /**
         * Constructs a new ModelStreamInferResponse.
         * @memberof inference
         * @classdesc Represents a ModelStreamInferResponse.
         * @constructor
         * @param {inference.ModelStreamInferResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelStreamInferResponse = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelStreamInferResponse error_message.
         * @member {string} error_message
         * @memberof inference.ModelStreamInferResponse
         * @instance
         */
        ModelStreamInferResponse.prototype.error_message = "";

        /**
         * ModelStreamInferResponse infer_response.
         * @member {inference.ModelInferResponse.$Properties|null|undefined} infer_response
         * @memberof inference.ModelStreamInferResponse
         * @instance
         */
        ModelStreamInferResponse.prototype.infer_response = null;

        /**
         * Creates a new ModelStreamInferResponse instance using the specified properties.
         * @function create
         * @memberof inference.ModelStreamInferResponse
         * @static
         * @param {inference.ModelStreamInferResponse.$Properties=} [properties] Properties to set
         * @returns {inference.ModelStreamInferResponse} ModelStreamInferResponse instance
         * @type {{
         *   (properties: inference.ModelStreamInferResponse.$Shape): inference.ModelStreamInferResponse & inference.ModelStreamInferResponse.$Shape;
         *   (properties?: inference.ModelStreamInferResponse.$Properties): inference.ModelStreamInferResponse;
         * }}
         */
        ModelStreamInferResponse.create = function(properties) {
            return new ModelStreamInferResponse(properties);
        };

        /**
         * Encodes the specified ModelStreamInferResponse message. Does not implicitly {@link inference.ModelStreamInferResponse.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelStreamInferResponse
         * @static
         * @param {inference.ModelStreamInferResponse.$Properties} message ModelStreamInferResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelStreamInferResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.error_message != null && $Object.hasOwnProperty.call(message, "error_message") && message.error_message !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.error_message);
            if (message.infer_response != null && $Object.hasOwnProperty.call(message, "infer_response"))
                $root.inference.ModelInferResponse.encode(message.infer_response, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelStreamInferResponse message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelStreamInferResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelStreamInferResponse & inference.ModelStreamInferResponse.$Shape} ModelStreamInferResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelStreamInferResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelStreamInferResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.error_message = value;
                        else
                            delete message.error_message;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.infer_response = $root.inference.ModelInferResponse.decode(reader, reader.size(), $undefined, _depth + 1, message.infer_response);
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelStreamInferResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelStreamInferResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelStreamInferResponse} ModelStreamInferResponse
         */
        ModelStreamInferResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelStreamInferResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelStreamInferResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelStreamInferResponse();
            if (object.error_message != null)
                if (typeof object.error_message !== "string" || object.error_message.length)
                    message.error_message = $String(object.error_message);
            if (object.infer_response != null) {
                if (!$util.isObject(object.infer_response))
                    throw $TypeError(".inference.ModelStreamInferResponse.infer_response: object expected");
                message.infer_response = $root.inference.ModelInferResponse.fromObject(object.infer_response, _depth + 1);
            }
            return message;
        };

        /**
         * Creates a plain object from a ModelStreamInferResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelStreamInferResponse
         * @static
         * @param {inference.ModelStreamInferResponse} message ModelStreamInferResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelStreamInferResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.error_message = "";
                object.infer_response = null;
            }
            if (message.error_message != null && $Object.hasOwnProperty.call(message, "error_message"))
                object.error_message = message.error_message;
            if (message.infer_response != null && $Object.hasOwnProperty.call(message, "infer_response"))
                object.infer_response = $root.inference.ModelInferResponse.toObject(message.infer_response, options, _depth + 1);
            return object;
        };

        /**
         * Converts this ModelStreamInferResponse to JSON.
         * @function toJSON
         * @memberof inference.ModelStreamInferResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelStreamInferResponse.prototype.toJSON = function() {
            return ModelStreamInferResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelStreamInferResponse;
    })();

    inference.ModelConfigRequest = (function() {

        /**
         * Properties of a ModelConfigRequest.
         * @typedef {Object} inference.ModelConfigRequest.$Properties
         * @property {string|null} [name] ModelConfigRequest name
         * @property {string|null} [version] ModelConfigRequest version
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelConfigRequest.
         * @memberof inference
         * @interface IModelConfigRequest
         * @augments inference.ModelConfigRequest.$Properties
         * @deprecated Use inference.ModelConfigRequest.$Properties instead.
         */

        /**
         * Shape of a ModelConfigRequest.
         * @typedef {inference.ModelConfigRequest.$Properties} inference.ModelConfigRequest.$Shape
         */

        /**
         * Constructs a new ModelConfigRequest.
         * @memberof inference
         * @classdesc Represents a ModelConfigRequest.
         * @constructor
         * @param {inference.ModelConfigRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelConfigRequest = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelConfigRequest name.
         * @member {string} name
         * @memberof inference.ModelConfigRequest
         * @instance
         */
        ModelConfigRequest.prototype.name = "";

        /**
         * ModelConfigRequest version.
         * @member {string} version
         * @memberof inference.ModelConfigRequest
         * @instance
         */
        ModelConfigRequest.prototype.version = "";

        /**
         * Creates a new ModelConfigRequest instance using the specified properties.
         * @function create
         * @memberof inference.ModelConfigRequest
         * @static
         * @param {inference.ModelConfigRequest.$Properties=} [properties] Properties to set
         * @returns {inference.ModelConfigRequest} ModelConfigRequest instance
         * @type {{
         *   (properties: inference.ModelConfigRequest.$Shape): inference.ModelConfigRequest & inference.ModelConfigRequest.$Shape;
         *   (properties?: inference.ModelConfigRequest.$Properties): inference.ModelConfigRequest;
         * }}
         */
        ModelConfigRequest.create = function(properties) {
            return new ModelConfigRequest(properties);
        };

        /**
         * Encodes the specified ModelConfigRequest message. Does not implicitly {@link inference.ModelConfigRequest.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelConfigRequest
         * @static
         * @param {inference.ModelConfigRequest.$Properties} message ModelConfigRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelConfigRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
            if (message.version != null && $Object.hasOwnProperty.call(message, "version") && message.version !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.version);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelConfigRequest message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelConfigRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelConfigRequest & inference.ModelConfigRequest.$Shape} ModelConfigRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelConfigRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelConfigRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.version = value;
                        else
                            delete message.version;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelConfigRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelConfigRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelConfigRequest} ModelConfigRequest
         */
        ModelConfigRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelConfigRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelConfigRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelConfigRequest();
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.version != null)
                if (typeof object.version !== "string" || object.version.length)
                    message.version = $String(object.version);
            return message;
        };

        /**
         * Creates a plain object from a ModelConfigRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelConfigRequest
         * @static
         * @param {inference.ModelConfigRequest} message ModelConfigRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelConfigRequest.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.name = "";
                object.version = "";
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.version != null && $Object.hasOwnProperty.call(message, "version"))
                object.version = message.version;
            return object;
        };

        /**
         * Converts this ModelConfigRequest to JSON.
         * @function toJSON
         * @memberof inference.ModelConfigRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelConfigRequest.prototype.toJSON = function() {
            return ModelConfigRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelConfigRequest;
    })();

    inference.ModelConfigResponse = (function() {

        /**
         * Properties of a ModelConfigResponse.
         * @typedef {Object} inference.ModelConfigResponse.$Properties
         * @property {inference.ModelConfig.$Properties|null} [config] ModelConfigResponse config
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelConfigResponse.
         * @memberof inference
         * @interface IModelConfigResponse
         * @augments inference.ModelConfigResponse.$Properties
         * @deprecated Use inference.ModelConfigResponse.$Properties instead.
         */

        /**
         * Shape of a ModelConfigResponse.
         * @typedef {{
         *   config?: inference.ModelConfig.$Shape|null;
         *   $unknowns?: Array.<Uint8Array>;
         * }} inference.ModelConfigResponse.$Shape
         */

        /**
         * Constructs a new ModelConfigResponse.
         * @memberof inference
         * @classdesc Represents a ModelConfigResponse.
         * @constructor
         * @param {inference.ModelConfigResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelConfigResponse = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelConfigResponse config.
         * @member {inference.ModelConfig.$Properties|null|undefined} config
         * @memberof inference.ModelConfigResponse
         * @instance
         */
        ModelConfigResponse.prototype.config = null;

        /**
         * Creates a new ModelConfigResponse instance using the specified properties.
         * @function create
         * @memberof inference.ModelConfigResponse
         * @static
         * @param {inference.ModelConfigResponse.$Properties=} [properties] Properties to set
         * @returns {inference.ModelConfigResponse} ModelConfigResponse instance
         * @type {{
         *   (properties: inference.ModelConfigResponse.$Shape): inference.ModelConfigResponse & inference.ModelConfigResponse.$Shape;
         *   (properties?: inference.ModelConfigResponse.$Properties): inference.ModelConfigResponse;
         * }}
         */
        ModelConfigResponse.create = function(properties) {
            return new ModelConfigResponse(properties);
        };

        /**
         * Encodes the specified ModelConfigResponse message. Does not implicitly {@link inference.ModelConfigResponse.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelConfigResponse
         * @static
         * @param {inference.ModelConfigResponse.$Properties} message ModelConfigResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelConfigResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.config != null && $Object.hasOwnProperty.call(message, "config"))
                $root.inference.ModelConfig.encode(message.config, writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelConfigResponse message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelConfigResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelConfigResponse & inference.ModelConfigResponse.$Shape} ModelConfigResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelConfigResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelConfigResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        message.config = $root.inference.ModelConfig.decode(reader, reader.size(), $undefined, _depth + 1, message.config);
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelConfigResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelConfigResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelConfigResponse} ModelConfigResponse
         */
        ModelConfigResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelConfigResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelConfigResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelConfigResponse();
            if (object.config != null) {
                if (!$util.isObject(object.config))
                    throw $TypeError(".inference.ModelConfigResponse.config: object expected");
                message.config = $root.inference.ModelConfig.fromObject(object.config, _depth + 1);
            }
            return message;
        };

        /**
         * Creates a plain object from a ModelConfigResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelConfigResponse
         * @static
         * @param {inference.ModelConfigResponse} message ModelConfigResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelConfigResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults)
                object.config = null;
            if (message.config != null && $Object.hasOwnProperty.call(message, "config"))
                object.config = $root.inference.ModelConfig.toObject(message.config, options, _depth + 1);
            return object;
        };

        /**
         * Converts this ModelConfigResponse to JSON.
         * @function toJSON
         * @memberof inference.ModelConfigResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelConfigResponse.prototype.toJSON = function() {
            return ModelConfigResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelConfigResponse;
    })();

    inference.ModelStatisticsRequest = (function() {

        /**
         * Properties of a ModelStatisticsRequest.
         * @typedef {Object} inference.ModelStatisticsRequest.$Properties
         * @property {string|null} [name] ModelStatisticsRequest name
         * @property {string|null} [version] ModelStatisticsRequest version
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelStatisticsRequest.
         * @memberof inference
         * @interface IModelStatisticsRequest
         * @augments inference.ModelStatisticsRequest.$Properties
         * @deprecated Use inference.ModelStatisticsRequest.$Properties instead.
         */

        /**
         * Shape of a ModelStatisticsRequest.
         * @typedef {inference.ModelStatisticsRequest.$Properties} inference.ModelStatisticsRequest.$Shape
         */

        /**
         * Constructs a new ModelStatisticsRequest.
         * @memberof inference
         * @classdesc Represents a ModelStatisticsRequest.
         * @constructor
         * @param {inference.ModelStatisticsRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelStatisticsRequest = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelStatisticsRequest name.
         * @member {string} name
         * @memberof inference.ModelStatisticsRequest
         * @instance
         */
        ModelStatisticsRequest.prototype.name = "";

        /**
         * ModelStatisticsRequest version.
         * @member {string} version
         * @memberof inference.ModelStatisticsRequest
         * @instance
         */
        ModelStatisticsRequest.prototype.version = "";

        /**
         * Creates a new ModelStatisticsRequest instance using the specified properties.
         * @function create
         * @memberof inference.ModelStatisticsRequest
         * @static
         * @param {inference.ModelStatisticsRequest.$Properties=} [properties] Properties to set
         * @returns {inference.ModelStatisticsRequest} ModelStatisticsRequest instance
         * @type {{
         *   (properties: inference.ModelStatisticsRequest.$Shape): inference.ModelStatisticsRequest & inference.ModelStatisticsRequest.$Shape;
         *   (properties?: inference.ModelStatisticsRequest.$Properties): inference.ModelStatisticsRequest;
         * }}
         */
        ModelStatisticsRequest.create = function(properties) {
            return new ModelStatisticsRequest(properties);
        };

        /**
         * Encodes the specified ModelStatisticsRequest message. Does not implicitly {@link inference.ModelStatisticsRequest.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelStatisticsRequest
         * @static
         * @param {inference.ModelStatisticsRequest.$Properties} message ModelStatisticsRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelStatisticsRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
            if (message.version != null && $Object.hasOwnProperty.call(message, "version") && message.version !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.version);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelStatisticsRequest message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelStatisticsRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelStatisticsRequest & inference.ModelStatisticsRequest.$Shape} ModelStatisticsRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelStatisticsRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelStatisticsRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.version = value;
                        else
                            delete message.version;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelStatisticsRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelStatisticsRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelStatisticsRequest} ModelStatisticsRequest
         */
        ModelStatisticsRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelStatisticsRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelStatisticsRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelStatisticsRequest();
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.version != null)
                if (typeof object.version !== "string" || object.version.length)
                    message.version = $String(object.version);
            return message;
        };

        /**
         * Creates a plain object from a ModelStatisticsRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelStatisticsRequest
         * @static
         * @param {inference.ModelStatisticsRequest} message ModelStatisticsRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelStatisticsRequest.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.name = "";
                object.version = "";
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.version != null && $Object.hasOwnProperty.call(message, "version"))
                object.version = message.version;
            return object;
        };

        /**
         * Converts this ModelStatisticsRequest to JSON.
         * @function toJSON
         * @memberof inference.ModelStatisticsRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelStatisticsRequest.prototype.toJSON = function() {
            return ModelStatisticsRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelStatisticsRequest;
    })();

    inference.StatisticDuration = (function() {

        /**
         * Properties of a StatisticDuration.
         * @typedef {Object} inference.StatisticDuration.$Properties
         * @property {number|Long|null} [count] StatisticDuration count
         * @property {number|Long|null} [ns] StatisticDuration ns
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a StatisticDuration.
         * @memberof inference
         * @interface IStatisticDuration
         * @augments inference.StatisticDuration.$Properties
         * @deprecated Use inference.StatisticDuration.$Properties instead.
         */

        /**
         * Shape of a StatisticDuration.
         * @typedef {inference.StatisticDuration.$Properties} inference.StatisticDuration.$Shape
         */

        /**
         * Constructs a new StatisticDuration.
         * @memberof inference
         * @classdesc Represents a StatisticDuration.
         * @constructor
         * @param {inference.StatisticDuration.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const StatisticDuration = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * StatisticDuration count.
         * @member {number|Long} count
         * @memberof inference.StatisticDuration
         * @instance
         */
        StatisticDuration.prototype.count = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

        /**
         * StatisticDuration ns.
         * @member {number|Long} ns
         * @memberof inference.StatisticDuration
         * @instance
         */
        StatisticDuration.prototype.ns = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

        /**
         * Creates a new StatisticDuration instance using the specified properties.
         * @function create
         * @memberof inference.StatisticDuration
         * @static
         * @param {inference.StatisticDuration.$Properties=} [properties] Properties to set
         * @returns {inference.StatisticDuration} StatisticDuration instance
         * @type {{
         *   (properties: inference.StatisticDuration.$Shape): inference.StatisticDuration & inference.StatisticDuration.$Shape;
         *   (properties?: inference.StatisticDuration.$Properties): inference.StatisticDuration;
         * }}
         */
        StatisticDuration.create = function(properties) {
            return new StatisticDuration(properties);
        };

        /**
         * Encodes the specified StatisticDuration message. Does not implicitly {@link inference.StatisticDuration.verify|verify} messages.
         * @function encode
         * @memberof inference.StatisticDuration
         * @static
         * @param {inference.StatisticDuration.$Properties} message StatisticDuration message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        StatisticDuration.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.count != null && $Object.hasOwnProperty.call(message, "count") && (typeof message.count === "object" ? message.count.low || message.count.high : message.count !== 0))
                writer.uint32(/* id 1, wireType 0 =*/8).uint64(message.count);
            if (message.ns != null && $Object.hasOwnProperty.call(message, "ns") && (typeof message.ns === "object" ? message.ns.low || message.ns.high : message.ns !== 0))
                writer.uint32(/* id 2, wireType 0 =*/16).uint64(message.ns);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a StatisticDuration message from the specified reader or buffer.
         * @function decode
         * @memberof inference.StatisticDuration
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.StatisticDuration & inference.StatisticDuration.$Shape} StatisticDuration
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        StatisticDuration.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.StatisticDuration();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                            message.count = value;
                        else
                            delete message.count;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                            message.ns = value;
                        else
                            delete message.ns;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a StatisticDuration message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.StatisticDuration
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.StatisticDuration} StatisticDuration
         */
        StatisticDuration.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.StatisticDuration)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.StatisticDuration: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.StatisticDuration();
            if (object.count != null)
                if (typeof object.count === "object" ? object.count.low || object.count.high : $Number(object.count) !== 0)
                    if ($util.Long)
                        message.count = $util.Long.fromValue(object.count, true);
                    else if (typeof object.count === "string")
                        message.count = $parseInt(object.count, 10);
                    else if (typeof object.count === "number")
                        message.count = object.count;
                    else if (typeof object.count === "object")
                        message.count = new $util.LongBits(object.count.low >>> 0, object.count.high >>> 0).toNumber(true);
            if (object.ns != null)
                if (typeof object.ns === "object" ? object.ns.low || object.ns.high : $Number(object.ns) !== 0)
                    if ($util.Long)
                        message.ns = $util.Long.fromValue(object.ns, true);
                    else if (typeof object.ns === "string")
                        message.ns = $parseInt(object.ns, 10);
                    else if (typeof object.ns === "number")
                        message.ns = object.ns;
                    else if (typeof object.ns === "object")
                        message.ns = new $util.LongBits(object.ns.low >>> 0, object.ns.high >>> 0).toNumber(true);
            return message;
        };

        /**
         * Creates a plain object from a StatisticDuration message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.StatisticDuration
         * @static
         * @param {inference.StatisticDuration} message StatisticDuration
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        StatisticDuration.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, true);
                    object.count = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.count = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, true);
                    object.ns = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.ns = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
            }
            if (message.count != null && $Object.hasOwnProperty.call(message, "count"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.count = typeof message.count === "number" ? $BigInt(message.count) : $util.Long.fromBits(message.count.low >>> 0, message.count.high >>> 0, true).toBigInt();
                else if (typeof message.count === "number")
                    object.count = options.longs === $String ? $String(message.count) : message.count;
                else
                    object.count = options.longs === $String ? $util.Long.prototype.toString.call(message.count) : options.longs === $Number ? new $util.LongBits(message.count.low >>> 0, message.count.high >>> 0).toNumber(true) : message.count;
            if (message.ns != null && $Object.hasOwnProperty.call(message, "ns"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.ns = typeof message.ns === "number" ? $BigInt(message.ns) : $util.Long.fromBits(message.ns.low >>> 0, message.ns.high >>> 0, true).toBigInt();
                else if (typeof message.ns === "number")
                    object.ns = options.longs === $String ? $String(message.ns) : message.ns;
                else
                    object.ns = options.longs === $String ? $util.Long.prototype.toString.call(message.ns) : options.longs === $Number ? new $util.LongBits(message.ns.low >>> 0, message.ns.high >>> 0).toNumber(true) : message.ns;
            return object;
        };

        /**
         * Converts this StatisticDuration to JSON.
         * @function toJSON
         * @memberof inference.StatisticDuration
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        StatisticDuration.prototype.toJSON = function() {
            return StatisticDuration.toObject(this, $protobuf.util.toJSONOptions);
        };

        return StatisticDuration;
    })();

    inference.InferStatistics = (function() {

        /**
         * Properties of an InferStatistics.
         * @typedef {Object} inference.InferStatistics.$Properties
         * @property {inference.StatisticDuration.$Properties|null} [success] InferStatistics success
         * @property {inference.StatisticDuration.$Properties|null} [fail] InferStatistics fail
         * @property {inference.StatisticDuration.$Properties|null} [queue] InferStatistics queue
         * @property {inference.StatisticDuration.$Properties|null} [compute_input] InferStatistics compute_input
         * @property {inference.StatisticDuration.$Properties|null} [compute_infer] InferStatistics compute_infer
         * @property {inference.StatisticDuration.$Properties|null} [compute_output] InferStatistics compute_output
         * @property {inference.StatisticDuration.$Properties|null} [cache_hit] InferStatistics cache_hit
         * @property {inference.StatisticDuration.$Properties|null} [cache_miss] InferStatistics cache_miss
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of an InferStatistics.
         * @memberof inference
         * @interface IInferStatistics
         * @augments inference.InferStatistics.$Properties
         * @deprecated Use inference.InferStatistics.$Properties instead.
         */

        /**
         * Shape of an InferStatistics.
         * @typedef {inference.InferStatistics.$Properties} inference.InferStatistics.$Shape
         */

        /**
         * Constructs a new InferStatistics.
         * @memberof inference
         * @classdesc Represents an InferStatistics.
         * @constructor
         * @param {inference.InferStatistics.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const InferStatistics = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * InferStatistics success.
         * @member {inference.StatisticDuration.$Properties|null|undefined} success
         * @memberof inference.InferStatistics
         * @instance
         */
        InferStatistics.prototype.success = null;

        /**
         * InferStatistics fail.
         * @member {inference.StatisticDuration.$Properties|null|undefined} fail
         * @memberof inference.InferStatistics
         * @instance
         */
        InferStatistics.prototype.fail = null;

        /**
         * InferStatistics queue.
         * @member {inference.StatisticDuration.$Properties|null|undefined} queue
         * @memberof inference.InferStatistics
         * @instance
         */
        InferStatistics.prototype.queue = null;

        /**
         * InferStatistics compute_input.
         * @member {inference.StatisticDuration.$Properties|null|undefined} compute_input
         * @memberof inference.InferStatistics
         * @instance
         */
        InferStatistics.prototype.compute_input = null;

        /**
         * InferStatistics compute_infer.
         * @member {inference.StatisticDuration.$Properties|null|undefined} compute_infer
         * @memberof inference.InferStatistics
         * @instance
         */
        InferStatistics.prototype.compute_infer = null;

        /**
         * InferStatistics compute_output.
         * @member {inference.StatisticDuration.$Properties|null|undefined} compute_output
         * @memberof inference.InferStatistics
         * @instance
         */
        InferStatistics.prototype.compute_output = null;

        /**
         * InferStatistics cache_hit.
         * @member {inference.StatisticDuration.$Properties|null|undefined} cache_hit
         * @memberof inference.InferStatistics
         * @instance
         */
        InferStatistics.prototype.cache_hit = null;

        /**
         * InferStatistics cache_miss.
         * @member {inference.StatisticDuration.$Properties|null|undefined} cache_miss
         * @memberof inference.InferStatistics
         * @instance
         */
        InferStatistics.prototype.cache_miss = null;

        /**
         * Creates a new InferStatistics instance using the specified properties.
         * @function create
         * @memberof inference.InferStatistics
         * @static
         * @param {inference.InferStatistics.$Properties=} [properties] Properties to set
         * @returns {inference.InferStatistics} InferStatistics instance
         * @type {{
         *   (properties: inference.InferStatistics.$Shape): inference.InferStatistics & inference.InferStatistics.$Shape;
         *   (properties?: inference.InferStatistics.$Properties): inference.InferStatistics;
         * }}
         */
        InferStatistics.create = function(properties) {
            return new InferStatistics(properties);
        };

        /**
         * Encodes the specified InferStatistics message. Does not implicitly {@link inference.InferStatistics.verify|verify} messages.
         * @function encode
         * @memberof inference.InferStatistics
         * @static
         * @param {inference.InferStatistics.$Properties} message InferStatistics message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        InferStatistics.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.success != null && $Object.hasOwnProperty.call(message, "success"))
                $root.inference.StatisticDuration.encode(message.success, writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
            if (message.fail != null && $Object.hasOwnProperty.call(message, "fail"))
                $root.inference.StatisticDuration.encode(message.fail, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.queue != null && $Object.hasOwnProperty.call(message, "queue"))
                $root.inference.StatisticDuration.encode(message.queue, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.compute_input != null && $Object.hasOwnProperty.call(message, "compute_input"))
                $root.inference.StatisticDuration.encode(message.compute_input, writer.uint32(/* id 4, wireType 2 =*/34).fork(), _depth + 1).ldelim();
            if (message.compute_infer != null && $Object.hasOwnProperty.call(message, "compute_infer"))
                $root.inference.StatisticDuration.encode(message.compute_infer, writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
            if (message.compute_output != null && $Object.hasOwnProperty.call(message, "compute_output"))
                $root.inference.StatisticDuration.encode(message.compute_output, writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.cache_hit != null && $Object.hasOwnProperty.call(message, "cache_hit"))
                $root.inference.StatisticDuration.encode(message.cache_hit, writer.uint32(/* id 7, wireType 2 =*/58).fork(), _depth + 1).ldelim();
            if (message.cache_miss != null && $Object.hasOwnProperty.call(message, "cache_miss"))
                $root.inference.StatisticDuration.encode(message.cache_miss, writer.uint32(/* id 8, wireType 2 =*/66).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes an InferStatistics message from the specified reader or buffer.
         * @function decode
         * @memberof inference.InferStatistics
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.InferStatistics & inference.InferStatistics.$Shape} InferStatistics
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        InferStatistics.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.InferStatistics();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        message.success = $root.inference.StatisticDuration.decode(reader, reader.size(), $undefined, _depth + 1, message.success);
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.fail = $root.inference.StatisticDuration.decode(reader, reader.size(), $undefined, _depth + 1, message.fail);
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.queue = $root.inference.StatisticDuration.decode(reader, reader.size(), $undefined, _depth + 1, message.queue);
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        message.compute_input = $root.inference.StatisticDuration.decode(reader, reader.size(), $undefined, _depth + 1, message.compute_input);
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        message.compute_infer = $root.inference.StatisticDuration.decode(reader, reader.size(), $undefined, _depth + 1, message.compute_infer);
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        message.compute_output = $root.inference.StatisticDuration.decode(reader, reader.size(), $undefined, _depth + 1, message.compute_output);
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        message.cache_hit = $root.inference.StatisticDuration.decode(reader, reader.size(), $undefined, _depth + 1, message.cache_hit);
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        message.cache_miss = $root.inference.StatisticDuration.decode(reader, reader.size(), $undefined, _depth + 1, message.cache_miss);
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates an InferStatistics message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.InferStatistics
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.InferStatistics} InferStatistics
         */
        InferStatistics.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.InferStatistics)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.InferStatistics: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.InferStatistics();
            if (object.success != null) {
                if (!$util.isObject(object.success))
                    throw $TypeError(".inference.InferStatistics.success: object expected");
                message.success = $root.inference.StatisticDuration.fromObject(object.success, _depth + 1);
            }
            if (object.fail != null) {
                if (!$util.isObject(object.fail))
                    throw $TypeError(".inference.InferStatistics.fail: object expected");
                message.fail = $root.inference.StatisticDuration.fromObject(object.fail, _depth + 1);
            }
            if (object.queue != null) {
                if (!$util.isObject(object.queue))
                    throw $TypeError(".inference.InferStatistics.queue: object expected");
                message.queue = $root.inference.StatisticDuration.fromObject(object.queue, _depth + 1);
            }
            if (object.compute_input != null) {
                if (!$util.isObject(object.compute_input))
                    throw $TypeError(".inference.InferStatistics.compute_input: object expected");
                message.compute_input = $root.inference.StatisticDuration.fromObject(object.compute_input, _depth + 1);
            }
            if (object.compute_infer != null) {
                if (!$util.isObject(object.compute_infer))
                    throw $TypeError(".inference.InferStatistics.compute_infer: object expected");
                message.compute_infer = $root.inference.StatisticDuration.fromObject(object.compute_infer, _depth + 1);
            }
            if (object.compute_output != null) {
                if (!$util.isObject(object.compute_output))
                    throw $TypeError(".inference.InferStatistics.compute_output: object expected");
                message.compute_output = $root.inference.StatisticDuration.fromObject(object.compute_output, _depth + 1);
            }
            if (object.cache_hit != null) {
                if (!$util.isObject(object.cache_hit))
                    throw $TypeError(".inference.InferStatistics.cache_hit: object expected");
                message.cache_hit = $root.inference.StatisticDuration.fromObject(object.cache_hit, _depth + 1);
            }
            if (object.cache_miss != null) {
                if (!$util.isObject(object.cache_miss))
                    throw $TypeError(".inference.InferStatistics.cache_miss: object expected");
                message.cache_miss = $root.inference.StatisticDuration.fromObject(object.cache_miss, _depth + 1);
            }
            return message;
        };

        /**
         * Creates a plain object from an InferStatistics message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.InferStatistics
         * @static
         * @param {inference.InferStatistics} message InferStatistics
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        InferStatistics.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.success = null;
                object.fail = null;
                object.queue = null;
                object.compute_input = null;
                object.compute_infer = null;
                object.compute_output = null;
                object.cache_hit = null;
                object.cache_miss = null;
            }
            if (message.success != null && $Object.hasOwnProperty.call(message, "success"))
                object.success = $root.inference.StatisticDuration.toObject(message.success, options, _depth + 1);
            if (message.fail != null && $Object.hasOwnProperty.call(message, "fail"))
                object.fail = $root.inference.StatisticDuration.toObject(message.fail, options, _depth + 1);
            if (message.queue != null && $Object.hasOwnProperty.call(message, "queue"))
                object.queue = $root.inference.StatisticDuration.toObject(message.queue, options, _depth + 1);
            if (message.compute_input != null && $Object.hasOwnProperty.call(message, "compute_input"))
                object.compute_input = $root.inference.StatisticDuration.toObject(message.compute_input, options, _depth + 1);
            if (message.compute_infer != null && $Object.hasOwnProperty.call(message, "compute_infer"))
                object.compute_infer = $root.inference.StatisticDuration.toObject(message.compute_infer, options, _depth + 1);
            if (message.compute_output != null && $Object.hasOwnProperty.call(message, "compute_output"))
                object.compute_output = $root.inference.StatisticDuration.toObject(message.compute_output, options, _depth + 1);
            if (message.cache_hit != null && $Object.hasOwnProperty.call(message, "cache_hit"))
                object.cache_hit = $root.inference.StatisticDuration.toObject(message.cache_hit, options, _depth + 1);
            if (message.cache_miss != null && $Object.hasOwnProperty.call(message, "cache_miss"))
                object.cache_miss = $root.inference.StatisticDuration.toObject(message.cache_miss, options, _depth + 1);
            return object;
        };

        /**
         * Converts this InferStatistics to JSON.
         * @function toJSON
         * @memberof inference.InferStatistics
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        InferStatistics.prototype.toJSON = function() {
            return InferStatistics.toObject(this, $protobuf.util.toJSONOptions);
        };

        return InferStatistics;
    })();

    inference.InferBatchStatistics = (function() {

        /**
         * Properties of an InferBatchStatistics.
         * @typedef {Object} inference.InferBatchStatistics.$Properties
         * @property {number|Long|null} [batch_size] InferBatchStatistics batch_size
         * @property {inference.StatisticDuration.$Properties|null} [compute_input] InferBatchStatistics compute_input
         * @property {inference.StatisticDuration.$Properties|null} [compute_infer] InferBatchStatistics compute_infer
         * @property {inference.StatisticDuration.$Properties|null} [compute_output] InferBatchStatistics compute_output
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of an InferBatchStatistics.
         * @memberof inference
         * @interface IInferBatchStatistics
         * @augments inference.InferBatchStatistics.$Properties
         * @deprecated Use inference.InferBatchStatistics.$Properties instead.
         */

        /**
         * Shape of an InferBatchStatistics.
         * @typedef {inference.InferBatchStatistics.$Properties} inference.InferBatchStatistics.$Shape
         */

        /**
         * Constructs a new InferBatchStatistics.
         * @memberof inference
         * @classdesc Represents an InferBatchStatistics.
         * @constructor
         * @param {inference.InferBatchStatistics.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const InferBatchStatistics = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * InferBatchStatistics batch_size.
         * @member {number|Long} batch_size
         * @memberof inference.InferBatchStatistics
         * @instance
         */
        InferBatchStatistics.prototype.batch_size = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

        /**
         * InferBatchStatistics compute_input.
         * @member {inference.StatisticDuration.$Properties|null|undefined} compute_input
         * @memberof inference.InferBatchStatistics
         * @instance
         */
        InferBatchStatistics.prototype.compute_input = null;

        /**
         * InferBatchStatistics compute_infer.
         * @member {inference.StatisticDuration.$Properties|null|undefined} compute_infer
         * @memberof inference.InferBatchStatistics
         * @instance
         */
        InferBatchStatistics.prototype.compute_infer = null;

        /**
         * InferBatchStatistics compute_output.
         * @member {inference.StatisticDuration.$Properties|null|undefined} compute_output
         * @memberof inference.InferBatchStatistics
         * @instance
         */
        InferBatchStatistics.prototype.compute_output = null;

        /**
         * Creates a new InferBatchStatistics instance using the specified properties.
         * @function create
         * @memberof inference.InferBatchStatistics
         * @static
         * @param {inference.InferBatchStatistics.$Properties=} [properties] Properties to set
         * @returns {inference.InferBatchStatistics} InferBatchStatistics instance
         * @type {{
         *   (properties: inference.InferBatchStatistics.$Shape): inference.InferBatchStatistics & inference.InferBatchStatistics.$Shape;
         *   (properties?: inference.InferBatchStatistics.$Properties): inference.InferBatchStatistics;
         * }}
         */
        InferBatchStatistics.create = function(properties) {
            return new InferBatchStatistics(properties);
        };

        /**
         * Encodes the specified InferBatchStatistics message. Does not implicitly {@link inference.InferBatchStatistics.verify|verify} messages.
         * @function encode
         * @memberof inference.InferBatchStatistics
         * @static
         * @param {inference.InferBatchStatistics.$Properties} message InferBatchStatistics message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        InferBatchStatistics.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.batch_size != null && $Object.hasOwnProperty.call(message, "batch_size") && (typeof message.batch_size === "object" ? message.batch_size.low || message.batch_size.high : message.batch_size !== 0))
                writer.uint32(/* id 1, wireType 0 =*/8).uint64(message.batch_size);
            if (message.compute_input != null && $Object.hasOwnProperty.call(message, "compute_input"))
                $root.inference.StatisticDuration.encode(message.compute_input, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.compute_infer != null && $Object.hasOwnProperty.call(message, "compute_infer"))
                $root.inference.StatisticDuration.encode(message.compute_infer, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.compute_output != null && $Object.hasOwnProperty.call(message, "compute_output"))
                $root.inference.StatisticDuration.encode(message.compute_output, writer.uint32(/* id 4, wireType 2 =*/34).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes an InferBatchStatistics message from the specified reader or buffer.
         * @function decode
         * @memberof inference.InferBatchStatistics
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.InferBatchStatistics & inference.InferBatchStatistics.$Shape} InferBatchStatistics
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        InferBatchStatistics.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.InferBatchStatistics();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                            message.batch_size = value;
                        else
                            delete message.batch_size;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.compute_input = $root.inference.StatisticDuration.decode(reader, reader.size(), $undefined, _depth + 1, message.compute_input);
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.compute_infer = $root.inference.StatisticDuration.decode(reader, reader.size(), $undefined, _depth + 1, message.compute_infer);
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        message.compute_output = $root.inference.StatisticDuration.decode(reader, reader.size(), $undefined, _depth + 1, message.compute_output);
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates an InferBatchStatistics message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.InferBatchStatistics
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.InferBatchStatistics} InferBatchStatistics
         */
        InferBatchStatistics.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.InferBatchStatistics)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.InferBatchStatistics: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.InferBatchStatistics();
            if (object.batch_size != null)
                if (typeof object.batch_size === "object" ? object.batch_size.low || object.batch_size.high : $Number(object.batch_size) !== 0)
                    if ($util.Long)
                        message.batch_size = $util.Long.fromValue(object.batch_size, true);
                    else if (typeof object.batch_size === "string")
                        message.batch_size = $parseInt(object.batch_size, 10);
                    else if (typeof object.batch_size === "number")
                        message.batch_size = object.batch_size;
                    else if (typeof object.batch_size === "object")
                        message.batch_size = new $util.LongBits(object.batch_size.low >>> 0, object.batch_size.high >>> 0).toNumber(true);
            if (object.compute_input != null) {
                if (!$util.isObject(object.compute_input))
                    throw $TypeError(".inference.InferBatchStatistics.compute_input: object expected");
                message.compute_input = $root.inference.StatisticDuration.fromObject(object.compute_input, _depth + 1);
            }
            if (object.compute_infer != null) {
                if (!$util.isObject(object.compute_infer))
                    throw $TypeError(".inference.InferBatchStatistics.compute_infer: object expected");
                message.compute_infer = $root.inference.StatisticDuration.fromObject(object.compute_infer, _depth + 1);
            }
            if (object.compute_output != null) {
                if (!$util.isObject(object.compute_output))
                    throw $TypeError(".inference.InferBatchStatistics.compute_output: object expected");
                message.compute_output = $root.inference.StatisticDuration.fromObject(object.compute_output, _depth + 1);
            }
            return message;
        };

        /**
         * Creates a plain object from an InferBatchStatistics message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.InferBatchStatistics
         * @static
         * @param {inference.InferBatchStatistics} message InferBatchStatistics
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        InferBatchStatistics.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, true);
                    object.batch_size = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.batch_size = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.compute_input = null;
                object.compute_infer = null;
                object.compute_output = null;
            }
            if (message.batch_size != null && $Object.hasOwnProperty.call(message, "batch_size"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.batch_size = typeof message.batch_size === "number" ? $BigInt(message.batch_size) : $util.Long.fromBits(message.batch_size.low >>> 0, message.batch_size.high >>> 0, true).toBigInt();
                else if (typeof message.batch_size === "number")
                    object.batch_size = options.longs === $String ? $String(message.batch_size) : message.batch_size;
                else
                    object.batch_size = options.longs === $String ? $util.Long.prototype.toString.call(message.batch_size) : options.longs === $Number ? new $util.LongBits(message.batch_size.low >>> 0, message.batch_size.high >>> 0).toNumber(true) : message.batch_size;
            if (message.compute_input != null && $Object.hasOwnProperty.call(message, "compute_input"))
                object.compute_input = $root.inference.StatisticDuration.toObject(message.compute_input, options, _depth + 1);
            if (message.compute_infer != null && $Object.hasOwnProperty.call(message, "compute_infer"))
                object.compute_infer = $root.inference.StatisticDuration.toObject(message.compute_infer, options, _depth + 1);
            if (message.compute_output != null && $Object.hasOwnProperty.call(message, "compute_output"))
                object.compute_output = $root.inference.StatisticDuration.toObject(message.compute_output, options, _depth + 1);
            return object;
        };

        /**
         * Converts this InferBatchStatistics to JSON.
         * @function toJSON
         * @memberof inference.InferBatchStatistics
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        InferBatchStatistics.prototype.toJSON = function() {
            return InferBatchStatistics.toObject(this, $protobuf.util.toJSONOptions);
        };

        return InferBatchStatistics;
    })();

    inference.ModelStatistics = (function() {

        /**
         * Properties of a ModelStatistics.
         * @typedef {Object} inference.ModelStatistics.$Properties
         * @property {string|null} [name] ModelStatistics name
         * @property {string|null} [version] ModelStatistics version
         * @property {number|Long|null} [last_inference] ModelStatistics last_inference
         * @property {number|Long|null} [inference_count] ModelStatistics inference_count
         * @property {number|Long|null} [execution_count] ModelStatistics execution_count
         * @property {inference.InferStatistics.$Properties|null} [inference_stats] ModelStatistics inference_stats
         * @property {Array.<inference.InferBatchStatistics.$Properties>|null} [batch_stats] ModelStatistics batch_stats
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelStatistics.
         * @memberof inference
         * @interface IModelStatistics
         * @augments inference.ModelStatistics.$Properties
         * @deprecated Use inference.ModelStatistics.$Properties instead.
         */

        /**
         * Shape of a ModelStatistics.
         * @typedef {inference.ModelStatistics.$Properties} inference.ModelStatistics.$Shape
         */

        /**
         * Constructs a new ModelStatistics.
         * @memberof inference
         * @classdesc Represents a ModelStatistics.
         * @constructor
         * @param {inference.ModelStatistics.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelStatistics = function (properties) {
            this.batch_stats = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelStatistics name.
         * @member {string} name
         * @memberof inference.ModelStatistics
         * @instance
         */
        ModelStatistics.prototype.name = "";

        /**
         * ModelStatistics version.
         * @member {string} version
         * @memberof inference.ModelStatistics
         * @instance
         */
        ModelStatistics.prototype.version = "";

        /**
         * ModelStatistics last_inference.
         * @member {number|Long} last_inference
         * @memberof inference.ModelStatistics
         * @instance
         */
        ModelStatistics.prototype.last_inference = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

        /**
         * ModelStatistics inference_count.
         * @member {number|Long} inference_count
         * @memberof inference.ModelStatistics
         * @instance
         */
        ModelStatistics.prototype.inference_count = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

        /**
         * ModelStatistics execution_count.
         * @member {number|Long} execution_count
         * @memberof inference.ModelStatistics
         * @instance
         */
        ModelStatistics.prototype.execution_count = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

        /**
         * ModelStatistics inference_stats.
         * @member {inference.InferStatistics.$Properties|null|undefined} inference_stats
         * @memberof inference.ModelStatistics
         * @instance
         */
        ModelStatistics.prototype.inference_stats = null;

        /**
         * ModelStatistics batch_stats.
         * @member {Array.<inference.InferBatchStatistics.$Properties>} batch_stats
         * @memberof inference.ModelStatistics
         * @instance
         */
        ModelStatistics.prototype.batch_stats = $util.emptyArray;

        /**
         * Creates a new ModelStatistics instance using the specified properties.
         * @function create
         * @memberof inference.ModelStatistics
         * @static
         * @param {inference.ModelStatistics.$Properties=} [properties] Properties to set
         * @returns {inference.ModelStatistics} ModelStatistics instance
         * @type {{
         *   (properties: inference.ModelStatistics.$Shape): inference.ModelStatistics & inference.ModelStatistics.$Shape;
         *   (properties?: inference.ModelStatistics.$Properties): inference.ModelStatistics;
         * }}
         */
        ModelStatistics.create = function(properties) {
            return new ModelStatistics(properties);
        };

        /**
         * Encodes the specified ModelStatistics message. Does not implicitly {@link inference.ModelStatistics.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelStatistics
         * @static
         * @param {inference.ModelStatistics.$Properties} message ModelStatistics message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelStatistics.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
            if (message.version != null && $Object.hasOwnProperty.call(message, "version") && message.version !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.version);
            if (message.last_inference != null && $Object.hasOwnProperty.call(message, "last_inference") && (typeof message.last_inference === "object" ? message.last_inference.low || message.last_inference.high : message.last_inference !== 0))
                writer.uint32(/* id 3, wireType 0 =*/24).uint64(message.last_inference);
            if (message.inference_count != null && $Object.hasOwnProperty.call(message, "inference_count") && (typeof message.inference_count === "object" ? message.inference_count.low || message.inference_count.high : message.inference_count !== 0))
                writer.uint32(/* id 4, wireType 0 =*/32).uint64(message.inference_count);
            if (message.execution_count != null && $Object.hasOwnProperty.call(message, "execution_count") && (typeof message.execution_count === "object" ? message.execution_count.low || message.execution_count.high : message.execution_count !== 0))
                writer.uint32(/* id 5, wireType 0 =*/40).uint64(message.execution_count);
            if (message.inference_stats != null && $Object.hasOwnProperty.call(message, "inference_stats"))
                $root.inference.InferStatistics.encode(message.inference_stats, writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.batch_stats != null && message.batch_stats.length)
                for (let i = 0; i < message.batch_stats.length; ++i)
                    $root.inference.InferBatchStatistics.encode(message.batch_stats[i], writer.uint32(/* id 7, wireType 2 =*/58).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelStatistics message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelStatistics
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelStatistics & inference.ModelStatistics.$Shape} ModelStatistics
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelStatistics.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelStatistics();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.version = value;
                        else
                            delete message.version;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                            message.last_inference = value;
                        else
                            delete message.last_inference;
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                            message.inference_count = value;
                        else
                            delete message.inference_count;
                        continue;
                    }
                case 5: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                            message.execution_count = value;
                        else
                            delete message.execution_count;
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        message.inference_stats = $root.inference.InferStatistics.decode(reader, reader.size(), $undefined, _depth + 1, message.inference_stats);
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        if (!(message.batch_stats && message.batch_stats.length))
                            message.batch_stats = [];
                        message.batch_stats.push($root.inference.InferBatchStatistics.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelStatistics message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelStatistics
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelStatistics} ModelStatistics
         */
        ModelStatistics.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelStatistics)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelStatistics: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelStatistics();
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.version != null)
                if (typeof object.version !== "string" || object.version.length)
                    message.version = $String(object.version);
            if (object.last_inference != null)
                if (typeof object.last_inference === "object" ? object.last_inference.low || object.last_inference.high : $Number(object.last_inference) !== 0)
                    if ($util.Long)
                        message.last_inference = $util.Long.fromValue(object.last_inference, true);
                    else if (typeof object.last_inference === "string")
                        message.last_inference = $parseInt(object.last_inference, 10);
                    else if (typeof object.last_inference === "number")
                        message.last_inference = object.last_inference;
                    else if (typeof object.last_inference === "object")
                        message.last_inference = new $util.LongBits(object.last_inference.low >>> 0, object.last_inference.high >>> 0).toNumber(true);
            if (object.inference_count != null)
                if (typeof object.inference_count === "object" ? object.inference_count.low || object.inference_count.high : $Number(object.inference_count) !== 0)
                    if ($util.Long)
                        message.inference_count = $util.Long.fromValue(object.inference_count, true);
                    else if (typeof object.inference_count === "string")
                        message.inference_count = $parseInt(object.inference_count, 10);
                    else if (typeof object.inference_count === "number")
                        message.inference_count = object.inference_count;
                    else if (typeof object.inference_count === "object")
                        message.inference_count = new $util.LongBits(object.inference_count.low >>> 0, object.inference_count.high >>> 0).toNumber(true);
            if (object.execution_count != null)
                if (typeof object.execution_count === "object" ? object.execution_count.low || object.execution_count.high : $Number(object.execution_count) !== 0)
                    if ($util.Long)
                        message.execution_count = $util.Long.fromValue(object.execution_count, true);
                    else if (typeof object.execution_count === "string")
                        message.execution_count = $parseInt(object.execution_count, 10);
                    else if (typeof object.execution_count === "number")
                        message.execution_count = object.execution_count;
                    else if (typeof object.execution_count === "object")
                        message.execution_count = new $util.LongBits(object.execution_count.low >>> 0, object.execution_count.high >>> 0).toNumber(true);
            if (object.inference_stats != null) {
                if (!$util.isObject(object.inference_stats))
                    throw $TypeError(".inference.ModelStatistics.inference_stats: object expected");
                message.inference_stats = $root.inference.InferStatistics.fromObject(object.inference_stats, _depth + 1);
            }
            if (object.batch_stats) {
                if (!$Array.isArray(object.batch_stats))
                    throw $TypeError(".inference.ModelStatistics.batch_stats: array expected");
                message.batch_stats = $Array(object.batch_stats.length);
                for (let i = 0; i < object.batch_stats.length; ++i) {
                    if (!$util.isObject(object.batch_stats[i]))
                        throw $TypeError(".inference.ModelStatistics.batch_stats: object expected");
                    message.batch_stats[i] = $root.inference.InferBatchStatistics.fromObject(object.batch_stats[i], _depth + 1);
                }
            }
            return message;
        };

        /**
         * Creates a plain object from a ModelStatistics message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelStatistics
         * @static
         * @param {inference.ModelStatistics} message ModelStatistics
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelStatistics.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.batch_stats = [];
            if (options.defaults) {
                object.name = "";
                object.version = "";
                if ($util.Long) {
                    let long = new $util.Long(0, 0, true);
                    object.last_inference = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.last_inference = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, true);
                    object.inference_count = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.inference_count = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, true);
                    object.execution_count = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.execution_count = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.inference_stats = null;
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.version != null && $Object.hasOwnProperty.call(message, "version"))
                object.version = message.version;
            if (message.last_inference != null && $Object.hasOwnProperty.call(message, "last_inference"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.last_inference = typeof message.last_inference === "number" ? $BigInt(message.last_inference) : $util.Long.fromBits(message.last_inference.low >>> 0, message.last_inference.high >>> 0, true).toBigInt();
                else if (typeof message.last_inference === "number")
                    object.last_inference = options.longs === $String ? $String(message.last_inference) : message.last_inference;
                else
                    object.last_inference = options.longs === $String ? $util.Long.prototype.toString.call(message.last_inference) : options.longs === $Number ? new $util.LongBits(message.last_inference.low >>> 0, message.last_inference.high >>> 0).toNumber(true) : message.last_inference;
            if (message.inference_count != null && $Object.hasOwnProperty.call(message, "inference_count"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.inference_count = typeof message.inference_count === "number" ? $BigInt(message.inference_count) : $util.Long.fromBits(message.inference_count.low >>> 0, message.inference_count.high >>> 0, true).toBigInt();
                else if (typeof message.inference_count === "number")
                    object.inference_count = options.longs === $String ? $String(message.inference_count) : message.inference_count;
                else
                    object.inference_count = options.longs === $String ? $util.Long.prototype.toString.call(message.inference_count) : options.longs === $Number ? new $util.LongBits(message.inference_count.low >>> 0, message.inference_count.high >>> 0).toNumber(true) : message.inference_count;
            if (message.execution_count != null && $Object.hasOwnProperty.call(message, "execution_count"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.execution_count = typeof message.execution_count === "number" ? $BigInt(message.execution_count) : $util.Long.fromBits(message.execution_count.low >>> 0, message.execution_count.high >>> 0, true).toBigInt();
                else if (typeof message.execution_count === "number")
                    object.execution_count = options.longs === $String ? $String(message.execution_count) : message.execution_count;
                else
                    object.execution_count = options.longs === $String ? $util.Long.prototype.toString.call(message.execution_count) : options.longs === $Number ? new $util.LongBits(message.execution_count.low >>> 0, message.execution_count.high >>> 0).toNumber(true) : message.execution_count;
            if (message.inference_stats != null && $Object.hasOwnProperty.call(message, "inference_stats"))
                object.inference_stats = $root.inference.InferStatistics.toObject(message.inference_stats, options, _depth + 1);
            if (message.batch_stats && message.batch_stats.length) {
                object.batch_stats = $Array(message.batch_stats.length);
                for (let j = 0; j < message.batch_stats.length; ++j)
                    object.batch_stats[j] = $root.inference.InferBatchStatistics.toObject(message.batch_stats[j], options, _depth + 1);
            }
            return object;
        };

        /**
         * Converts this ModelStatistics to JSON.
         * @function toJSON
         * @memberof inference.ModelStatistics
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelStatistics.prototype.toJSON = function() {
            return ModelStatistics.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelStatistics;
    })();

    inference.ModelStatisticsResponse = (function() {

        /**
         * Properties of a ModelStatisticsResponse.
         * @typedef {Object} inference.ModelStatisticsResponse.$Properties
         * @property {Array.<inference.ModelStatistics.$Properties>|null} [model_stats] ModelStatisticsResponse model_stats
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelStatisticsResponse.
         * @memberof inference
         * @interface IModelStatisticsResponse
         * @augments inference.ModelStatisticsResponse.$Properties
         * @deprecated Use inference.ModelStatisticsResponse.$Properties instead.
         */

        /**
         * Shape of a ModelStatisticsResponse.
         * @typedef {inference.ModelStatisticsResponse.$Properties} inference.ModelStatisticsResponse.$Shape
         */

        /**
         * Constructs a new ModelStatisticsResponse.
         * @memberof inference
         * @classdesc Represents a ModelStatisticsResponse.
         * @constructor
         * @param {inference.ModelStatisticsResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelStatisticsResponse = function (properties) {
            this.model_stats = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelStatisticsResponse model_stats.
         * @member {Array.<inference.ModelStatistics.$Properties>} model_stats
         * @memberof inference.ModelStatisticsResponse
         * @instance
         */
        ModelStatisticsResponse.prototype.model_stats = $util.emptyArray;

        /**
         * Creates a new ModelStatisticsResponse instance using the specified properties.
         * @function create
         * @memberof inference.ModelStatisticsResponse
         * @static
         * @param {inference.ModelStatisticsResponse.$Properties=} [properties] Properties to set
         * @returns {inference.ModelStatisticsResponse} ModelStatisticsResponse instance
         * @type {{
         *   (properties: inference.ModelStatisticsResponse.$Shape): inference.ModelStatisticsResponse & inference.ModelStatisticsResponse.$Shape;
         *   (properties?: inference.ModelStatisticsResponse.$Properties): inference.ModelStatisticsResponse;
         * }}
         */
        ModelStatisticsResponse.create = function(properties) {
            return new ModelStatisticsResponse(properties);
        };

        /**
         * Encodes the specified ModelStatisticsResponse message. Does not implicitly {@link inference.ModelStatisticsResponse.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelStatisticsResponse
         * @static
         * @param {inference.ModelStatisticsResponse.$Properties} message ModelStatisticsResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelStatisticsResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.model_stats != null && message.model_stats.length)
                for (let i = 0; i < message.model_stats.length; ++i)
                    $root.inference.ModelStatistics.encode(message.model_stats[i], writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelStatisticsResponse message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelStatisticsResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelStatisticsResponse & inference.ModelStatisticsResponse.$Shape} ModelStatisticsResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelStatisticsResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelStatisticsResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if (!(message.model_stats && message.model_stats.length))
                            message.model_stats = [];
                        message.model_stats.push($root.inference.ModelStatistics.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelStatisticsResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelStatisticsResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelStatisticsResponse} ModelStatisticsResponse
         */
        ModelStatisticsResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelStatisticsResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelStatisticsResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelStatisticsResponse();
            if (object.model_stats) {
                if (!$Array.isArray(object.model_stats))
                    throw $TypeError(".inference.ModelStatisticsResponse.model_stats: array expected");
                message.model_stats = $Array(object.model_stats.length);
                for (let i = 0; i < object.model_stats.length; ++i) {
                    if (!$util.isObject(object.model_stats[i]))
                        throw $TypeError(".inference.ModelStatisticsResponse.model_stats: object expected");
                    message.model_stats[i] = $root.inference.ModelStatistics.fromObject(object.model_stats[i], _depth + 1);
                }
            }
            return message;
        };

        /**
         * Creates a plain object from a ModelStatisticsResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelStatisticsResponse
         * @static
         * @param {inference.ModelStatisticsResponse} message ModelStatisticsResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelStatisticsResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.model_stats = [];
            if (message.model_stats && message.model_stats.length) {
                object.model_stats = $Array(message.model_stats.length);
                for (let j = 0; j < message.model_stats.length; ++j)
                    object.model_stats[j] = $root.inference.ModelStatistics.toObject(message.model_stats[j], options, _depth + 1);
            }
            return object;
        };

        /**
         * Converts this ModelStatisticsResponse to JSON.
         * @function toJSON
         * @memberof inference.ModelStatisticsResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelStatisticsResponse.prototype.toJSON = function() {
            return ModelStatisticsResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelStatisticsResponse;
    })();

    /**
     * DataType enum.
     * @name inference.DataType
     * @enum {number}
     * @property {number} TYPE_INVALID=0 TYPE_INVALID value
     * @property {number} TYPE_BOOL=1 TYPE_BOOL value
     * @property {number} TYPE_UINT8=2 TYPE_UINT8 value
     * @property {number} TYPE_UINT16=3 TYPE_UINT16 value
     * @property {number} TYPE_UINT32=4 TYPE_UINT32 value
     * @property {number} TYPE_UINT64=5 TYPE_UINT64 value
     * @property {number} TYPE_INT8=6 TYPE_INT8 value
     * @property {number} TYPE_INT16=7 TYPE_INT16 value
     * @property {number} TYPE_INT32=8 TYPE_INT32 value
     * @property {number} TYPE_INT64=9 TYPE_INT64 value
     * @property {number} TYPE_FP16=10 TYPE_FP16 value
     * @property {number} TYPE_FP32=11 TYPE_FP32 value
     * @property {number} TYPE_FP64=12 TYPE_FP64 value
     * @property {number} TYPE_STRING=13 TYPE_STRING value
     * @property {number} TYPE_BF16=14 TYPE_BF16 value
     */
    inference.DataType = (function() {
        const valuesById = $Object.create(null), values = $Object.create(valuesById);
        values[valuesById[0] = "TYPE_INVALID"] = 0;
        values[valuesById[1] = "TYPE_BOOL"] = 1;
        values[valuesById[2] = "TYPE_UINT8"] = 2;
        values[valuesById[3] = "TYPE_UINT16"] = 3;
        values[valuesById[4] = "TYPE_UINT32"] = 4;
        values[valuesById[5] = "TYPE_UINT64"] = 5;
        values[valuesById[6] = "TYPE_INT8"] = 6;
        values[valuesById[7] = "TYPE_INT16"] = 7;
        values[valuesById[8] = "TYPE_INT32"] = 8;
        values[valuesById[9] = "TYPE_INT64"] = 9;
        values[valuesById[10] = "TYPE_FP16"] = 10;
        values[valuesById[11] = "TYPE_FP32"] = 11;
        values[valuesById[12] = "TYPE_FP64"] = 12;
        values[valuesById[13] = "TYPE_STRING"] = 13;
        values[valuesById[14] = "TYPE_BF16"] = 14;
        return values;
    })();

    inference.ModelInstanceGroup = (function() {

        /**
         * Properties of a ModelInstanceGroup.
         * @typedef {Object} inference.ModelInstanceGroup.$Properties
         * @property {string|null} [name] ModelInstanceGroup name
         * @property {inference.ModelInstanceGroup.Kind|null} [kind] ModelInstanceGroup kind
         * @property {number|null} [count] ModelInstanceGroup count
         * @property {Array.<number>|null} [gpus] ModelInstanceGroup gpus
         * @property {boolean|null} [passive] ModelInstanceGroup passive
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelInstanceGroup.
         * @memberof inference
         * @interface IModelInstanceGroup
         * @augments inference.ModelInstanceGroup.$Properties
         * @deprecated Use inference.ModelInstanceGroup.$Properties instead.
         */

        /**
         * Shape of a ModelInstanceGroup.
         * @typedef {inference.ModelInstanceGroup.$Properties} inference.ModelInstanceGroup.$Shape
         */

        /**
         * Constructs a new ModelInstanceGroup.
         * @memberof inference
         * @classdesc Represents a ModelInstanceGroup.
         * @constructor
         * @param {inference.ModelInstanceGroup.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelInstanceGroup = function (properties) {
            this.gpus = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelInstanceGroup name.
         * @member {string} name
         * @memberof inference.ModelInstanceGroup
         * @instance
         */
        ModelInstanceGroup.prototype.name = "";

        /**
         * ModelInstanceGroup kind.
         * @member {inference.ModelInstanceGroup.Kind} kind
         * @memberof inference.ModelInstanceGroup
         * @instance
         */
        ModelInstanceGroup.prototype.kind = 0;

        /**
         * ModelInstanceGroup count.
         * @member {number} count
         * @memberof inference.ModelInstanceGroup
         * @instance
         */
        ModelInstanceGroup.prototype.count = 0;

        /**
         * ModelInstanceGroup gpus.
         * @member {Array.<number>} gpus
         * @memberof inference.ModelInstanceGroup
         * @instance
         */
        ModelInstanceGroup.prototype.gpus = $util.emptyArray;

        /**
         * ModelInstanceGroup passive.
         * @member {boolean} passive
         * @memberof inference.ModelInstanceGroup
         * @instance
         */
        ModelInstanceGroup.prototype.passive = false;

        /**
         * Creates a new ModelInstanceGroup instance using the specified properties.
         * @function create
         * @memberof inference.ModelInstanceGroup
         * @static
         * @param {inference.ModelInstanceGroup.$Properties=} [properties] Properties to set
         * @returns {inference.ModelInstanceGroup} ModelInstanceGroup instance
         * @type {{
         *   (properties: inference.ModelInstanceGroup.$Shape): inference.ModelInstanceGroup & inference.ModelInstanceGroup.$Shape;
         *   (properties?: inference.ModelInstanceGroup.$Properties): inference.ModelInstanceGroup;
         * }}
         */
        ModelInstanceGroup.create = function(properties) {
            return new ModelInstanceGroup(properties);
        };

        /**
         * Encodes the specified ModelInstanceGroup message. Does not implicitly {@link inference.ModelInstanceGroup.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelInstanceGroup
         * @static
         * @param {inference.ModelInstanceGroup.$Properties} message ModelInstanceGroup message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelInstanceGroup.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
            if (message.count != null && $Object.hasOwnProperty.call(message, "count") && message.count !== 0)
                writer.uint32(/* id 2, wireType 0 =*/16).int32(message.count);
            if (message.gpus != null && message.gpus.length)
                writer.uint32(/* id 3, wireType 2 =*/26).int32s(message.gpus);
            if (message.kind != null && $Object.hasOwnProperty.call(message, "kind") && message.kind !== 0)
                writer.uint32(/* id 4, wireType 0 =*/32).int32(message.kind);
            if (message.passive != null && $Object.hasOwnProperty.call(message, "passive") && message.passive !== false)
                writer.uint32(/* id 7, wireType 0 =*/56).bool(message.passive);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelInstanceGroup message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelInstanceGroup
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelInstanceGroup & inference.ModelInstanceGroup.$Shape} ModelInstanceGroup
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelInstanceGroup.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelInstanceGroup();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.kind = value;
                        else
                            delete message.kind;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.count = value;
                        else
                            delete message.count;
                        continue;
                    }
                case 3: {
                        if (wireType === 2) {
                            if (!(message.gpus && message.gpus.length))
                                message.gpus = [];
                            reader.int32s(message.gpus);
                            continue;
                        }
                        if (wireType !== 0)
                            break;
                        if (!(message.gpus && message.gpus.length))
                            message.gpus = [];
                        message.gpus.push(reader.int32());
                        continue;
                    }
                case 7: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.passive = value;
                        else
                            delete message.passive;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelInstanceGroup message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelInstanceGroup
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelInstanceGroup} ModelInstanceGroup
         */
        ModelInstanceGroup.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelInstanceGroup)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelInstanceGroup: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelInstanceGroup();
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.kind !== 0 && (typeof object.kind !== "string" || $root.inference.ModelInstanceGroup.Kind[object.kind] !== 0))
                switch (object.kind) {
                case "KIND_AUTO":
                case 0:
                    message.kind = 0;
                    break;
                case "KIND_GPU":
                case 1:
                    message.kind = 1;
                    break;
                case "KIND_CPU":
                case 2:
                    message.kind = 2;
                    break;
                case "KIND_MODEL":
                case 3:
                    message.kind = 3;
                    break;
                default:
                    if (typeof object.kind === "number" && (object.kind | 0) === object.kind)
                        message.kind = object.kind;
                }
            if (object.count != null)
                if ($Number(object.count) !== 0)
                    message.count = object.count | 0;
            if (object.gpus) {
                if (!$Array.isArray(object.gpus))
                    throw $TypeError(".inference.ModelInstanceGroup.gpus: array expected");
                message.gpus = $Array(object.gpus.length);
                for (let i = 0; i < object.gpus.length; ++i)
                    message.gpus[i] = object.gpus[i] | 0;
            }
            if (object.passive != null)
                if (object.passive)
                    message.passive = $Boolean(object.passive);
            return message;
        };

        /**
         * Creates a plain object from a ModelInstanceGroup message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelInstanceGroup
         * @static
         * @param {inference.ModelInstanceGroup} message ModelInstanceGroup
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelInstanceGroup.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.gpus = [];
            if (options.defaults) {
                object.name = "";
                object.count = 0;
                object.kind = options.enums === $String ? "KIND_AUTO" : 0;
                object.passive = false;
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.count != null && $Object.hasOwnProperty.call(message, "count"))
                object.count = message.count;
            if (message.gpus && message.gpus.length) {
                object.gpus = $Array(message.gpus.length);
                for (let j = 0; j < message.gpus.length; ++j)
                    object.gpus[j] = message.gpus[j];
            }
            if (message.kind != null && $Object.hasOwnProperty.call(message, "kind"))
                object.kind = options.enums === $String ? $root.inference.ModelInstanceGroup.Kind[message.kind] === $undefined ? message.kind : $root.inference.ModelInstanceGroup.Kind[message.kind] : message.kind;
            if (message.passive != null && $Object.hasOwnProperty.call(message, "passive"))
                object.passive = message.passive;
            return object;
        };

        /**
         * Converts this ModelInstanceGroup to JSON.
         * @function toJSON
         * @memberof inference.ModelInstanceGroup
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelInstanceGroup.prototype.toJSON = function() {
            return ModelInstanceGroup.toObject(this, $protobuf.util.toJSONOptions);
        };

        /**
         * Kind enum.
         * @name inference.ModelInstanceGroup.Kind
         * @enum {number}
         * @property {number} KIND_AUTO=0 KIND_AUTO value
         * @property {number} KIND_GPU=1 KIND_GPU value
         * @property {number} KIND_CPU=2 KIND_CPU value
         * @property {number} KIND_MODEL=3 KIND_MODEL value
         */
        ModelInstanceGroup.Kind = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "KIND_AUTO"] = 0;
            values[valuesById[1] = "KIND_GPU"] = 1;
            values[valuesById[2] = "KIND_CPU"] = 2;
            values[valuesById[3] = "KIND_MODEL"] = 3;
            return values;
        })();

        return ModelInstanceGroup;
    })();

    inference.ModelVersionPolicy = (function() {

        /**
         * Properties of a ModelVersionPolicy.
         * @typedef {Object} inference.ModelVersionPolicy.$Properties
         * @property {inference.ModelVersionPolicy.Latest.$Properties|null} [latest] ModelVersionPolicy latest
         * @property {inference.ModelVersionPolicy.All.$Properties|null} [all] ModelVersionPolicy all
         * @property {inference.ModelVersionPolicy.Specific.$Properties|null} [specific] ModelVersionPolicy specific
         * @property {"latest"|"all"|"specific"} [policy_choice] ModelVersionPolicy policy_choice
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelVersionPolicy.
         * @memberof inference
         * @interface IModelVersionPolicy
         * @augments inference.ModelVersionPolicy.$Properties
         * @deprecated Use inference.ModelVersionPolicy.$Properties instead.
         */

        /**
         * Narrowed shape of a ModelVersionPolicy.
         * @typedef {{
         *   latest?: inference.ModelVersionPolicy.Latest.$Shape|null;
         *   all?: inference.ModelVersionPolicy.All.$Shape|null;
         *   specific?: inference.ModelVersionPolicy.Specific.$Shape|null;
         *   $unknowns?: Array.<Uint8Array>;
         * } & (
         *   ({ policy_choice?: undefined; latest?: null; all?: null; specific?: null }|{ policy_choice?: "latest"; latest: inference.ModelVersionPolicy.Latest.$Shape; all?: null; specific?: null }|{ policy_choice?: "all"; latest?: null; all: inference.ModelVersionPolicy.All.$Shape; specific?: null }|{ policy_choice?: "specific"; latest?: null; all?: null; specific: inference.ModelVersionPolicy.Specific.$Shape })
         * )} inference.ModelVersionPolicy.$Shape
         */

        /**
         * Constructs a new ModelVersionPolicy.
         * @memberof inference
         * @classdesc Represents a ModelVersionPolicy.
         * @constructor
         * @param {inference.ModelVersionPolicy.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelVersionPolicy = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelVersionPolicy latest.
         * @member {inference.ModelVersionPolicy.Latest.$Properties|null|undefined} latest
         * @memberof inference.ModelVersionPolicy
         * @instance
         */
        ModelVersionPolicy.prototype.latest = null;

        /**
         * ModelVersionPolicy all.
         * @member {inference.ModelVersionPolicy.All.$Properties|null|undefined} all
         * @memberof inference.ModelVersionPolicy
         * @instance
         */
        ModelVersionPolicy.prototype.all = null;

        /**
         * ModelVersionPolicy specific.
         * @member {inference.ModelVersionPolicy.Specific.$Properties|null|undefined} specific
         * @memberof inference.ModelVersionPolicy
         * @instance
         */
        ModelVersionPolicy.prototype.specific = null;

        // OneOf field names bound to virtual getters and setters
        let $oneOfFields;

        /**
         * ModelVersionPolicy policy_choice.
         * @member {"latest"|"all"|"specific"|undefined} policy_choice
         * @memberof inference.ModelVersionPolicy
         * @instance
         */
        $Object.defineProperty(ModelVersionPolicy.prototype, "policy_choice", {
            get: $util.oneOfGetter($oneOfFields = ["latest", "all", "specific"]),
            set: $util.oneOfSetter($oneOfFields)
        });

        /**
         * Creates a new ModelVersionPolicy instance using the specified properties.
         * @function create
         * @memberof inference.ModelVersionPolicy
         * @static
         * @param {inference.ModelVersionPolicy.$Properties=} [properties] Properties to set
         * @returns {inference.ModelVersionPolicy} ModelVersionPolicy instance
         * @type {{
         *   (properties: inference.ModelVersionPolicy.$Shape): inference.ModelVersionPolicy & inference.ModelVersionPolicy.$Shape;
         *   (properties?: inference.ModelVersionPolicy.$Properties): inference.ModelVersionPolicy;
         * }}
         */
        ModelVersionPolicy.create = function(properties) {
            return new ModelVersionPolicy(properties);
        };

        /**
         * Encodes the specified ModelVersionPolicy message. Does not implicitly {@link inference.ModelVersionPolicy.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelVersionPolicy
         * @static
         * @param {inference.ModelVersionPolicy.$Properties} message ModelVersionPolicy message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelVersionPolicy.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.latest != null && $Object.hasOwnProperty.call(message, "latest"))
                $root.inference.ModelVersionPolicy.Latest.encode(message.latest, writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
            if (message.all != null && $Object.hasOwnProperty.call(message, "all"))
                $root.inference.ModelVersionPolicy.All.encode(message.all, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.specific != null && $Object.hasOwnProperty.call(message, "specific"))
                $root.inference.ModelVersionPolicy.Specific.encode(message.specific, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelVersionPolicy message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelVersionPolicy
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelVersionPolicy & inference.ModelVersionPolicy.$Shape} ModelVersionPolicy
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelVersionPolicy.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelVersionPolicy();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        message.latest = $root.inference.ModelVersionPolicy.Latest.decode(reader, reader.size(), $undefined, _depth + 1, message.latest);
                        message.policy_choice = "latest";
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.all = $root.inference.ModelVersionPolicy.All.decode(reader, reader.size(), $undefined, _depth + 1, message.all);
                        message.policy_choice = "all";
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.specific = $root.inference.ModelVersionPolicy.Specific.decode(reader, reader.size(), $undefined, _depth + 1, message.specific);
                        message.policy_choice = "specific";
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelVersionPolicy message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelVersionPolicy
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelVersionPolicy} ModelVersionPolicy
         */
        ModelVersionPolicy.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelVersionPolicy)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelVersionPolicy: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelVersionPolicy();
            if (object.latest != null) {
                if (!$util.isObject(object.latest))
                    throw $TypeError(".inference.ModelVersionPolicy.latest: object expected");
                message.latest = $root.inference.ModelVersionPolicy.Latest.fromObject(object.latest, _depth + 1);
            }
            if (object.all != null) {
                if (!$util.isObject(object.all))
                    throw $TypeError(".inference.ModelVersionPolicy.all: object expected");
                message.all = $root.inference.ModelVersionPolicy.All.fromObject(object.all, _depth + 1);
            }
            if (object.specific != null) {
                if (!$util.isObject(object.specific))
                    throw $TypeError(".inference.ModelVersionPolicy.specific: object expected");
                message.specific = $root.inference.ModelVersionPolicy.Specific.fromObject(object.specific, _depth + 1);
            }
            return message;
        };

        /**
         * Creates a plain object from a ModelVersionPolicy message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelVersionPolicy
         * @static
         * @param {inference.ModelVersionPolicy} message ModelVersionPolicy
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelVersionPolicy.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (message.latest != null && $Object.hasOwnProperty.call(message, "latest")) {
                object.latest = $root.inference.ModelVersionPolicy.Latest.toObject(message.latest, options, _depth + 1);
                if (options.oneofs)
                    object.policy_choice = "latest";
            }
            if (message.all != null && $Object.hasOwnProperty.call(message, "all")) {
                object.all = $root.inference.ModelVersionPolicy.All.toObject(message.all, options, _depth + 1);
                if (options.oneofs)
                    object.policy_choice = "all";
            }
            if (message.specific != null && $Object.hasOwnProperty.call(message, "specific")) {
                object.specific = $root.inference.ModelVersionPolicy.Specific.toObject(message.specific, options, _depth + 1);
                if (options.oneofs)
                    object.policy_choice = "specific";
            }
            return object;
        };

        /**
         * Converts this ModelVersionPolicy to JSON.
         * @function toJSON
         * @memberof inference.ModelVersionPolicy
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelVersionPolicy.prototype.toJSON = function() {
            return ModelVersionPolicy.toObject(this, $protobuf.util.toJSONOptions);
        };

        ModelVersionPolicy.Latest = (function() {

            /**
             * Properties of a Latest.
             * @typedef {Object} inference.ModelVersionPolicy.Latest.$Properties
             * @property {number|null} [num_versions] Latest num_versions
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Latest.
             * @memberof inference.ModelVersionPolicy
             * @interface ILatest
             * @augments inference.ModelVersionPolicy.Latest.$Properties
             * @deprecated Use inference.ModelVersionPolicy.Latest.$Properties instead.
             */

            /**
             * Shape of a Latest.
             * @typedef {inference.ModelVersionPolicy.Latest.$Properties} inference.ModelVersionPolicy.Latest.$Shape
             */

            /**
             * Constructs a new Latest.
             * @memberof inference.ModelVersionPolicy
             * @classdesc Represents a Latest.
             * @constructor
             * @param {inference.ModelVersionPolicy.Latest.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Latest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Latest num_versions.
             * @member {number} num_versions
             * @memberof inference.ModelVersionPolicy.Latest
             * @instance
             */
            Latest.prototype.num_versions = 0;

            /**
             * Creates a new Latest instance using the specified properties.
             * @function create
             * @memberof inference.ModelVersionPolicy.Latest
             * @static
             * @param {inference.ModelVersionPolicy.Latest.$Properties=} [properties] Properties to set
             * @returns {inference.ModelVersionPolicy.Latest} Latest instance
             * @type {{
             *   (properties: inference.ModelVersionPolicy.Latest.$Shape): inference.ModelVersionPolicy.Latest & inference.ModelVersionPolicy.Latest.$Shape;
             *   (properties?: inference.ModelVersionPolicy.Latest.$Properties): inference.ModelVersionPolicy.Latest;
             * }}
             */
            Latest.create = function(properties) {
                return new Latest(properties);
            };

            /**
             * Encodes the specified Latest message. Does not implicitly {@link inference.ModelVersionPolicy.Latest.verify|verify} messages.
             * @function encode
             * @memberof inference.ModelVersionPolicy.Latest
             * @static
             * @param {inference.ModelVersionPolicy.Latest.$Properties} message Latest message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Latest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.num_versions != null && $Object.hasOwnProperty.call(message, "num_versions") && message.num_versions !== 0)
                    writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.num_versions);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a Latest message from the specified reader or buffer.
             * @function decode
             * @memberof inference.ModelVersionPolicy.Latest
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {inference.ModelVersionPolicy.Latest & inference.ModelVersionPolicy.Latest.$Shape} Latest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Latest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.inference.ModelVersionPolicy.Latest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.num_versions = value;
                            else
                                delete message.num_versions;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates a Latest message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof inference.ModelVersionPolicy.Latest
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {inference.ModelVersionPolicy.Latest} Latest
             */
            Latest.fromObject = function (object, _depth) {
                if (object instanceof $root.inference.ModelVersionPolicy.Latest)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".inference.ModelVersionPolicy.Latest: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.inference.ModelVersionPolicy.Latest();
                if (object.num_versions != null)
                    if ($Number(object.num_versions) !== 0)
                        message.num_versions = object.num_versions >>> 0;
                return message;
            };

            /**
             * Creates a plain object from a Latest message. Also converts values to other types if specified.
             * @function toObject
             * @memberof inference.ModelVersionPolicy.Latest
             * @static
             * @param {inference.ModelVersionPolicy.Latest} message Latest
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Latest.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults)
                    object.num_versions = 0;
                if (message.num_versions != null && $Object.hasOwnProperty.call(message, "num_versions"))
                    object.num_versions = message.num_versions;
                return object;
            };

            /**
             * Converts this Latest to JSON.
             * @function toJSON
             * @memberof inference.ModelVersionPolicy.Latest
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Latest.prototype.toJSON = function() {
                return Latest.toObject(this, $protobuf.util.toJSONOptions);
            };

            return Latest;
        })();

        ModelVersionPolicy.All = (function() {

            /**
             * Properties of an All.
             * @typedef {Object} inference.ModelVersionPolicy.All.$Properties
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an All.
             * @memberof inference.ModelVersionPolicy
             * @interface IAll
             * @augments inference.ModelVersionPolicy.All.$Properties
             * @deprecated Use inference.ModelVersionPolicy.All.$Properties instead.
             */

            /**
             * Shape of an All.
             * @typedef {inference.ModelVersionPolicy.All.$Properties} inference.ModelVersionPolicy.All.$Shape
             */

            /**
             * Constructs a new All.
             * @memberof inference.ModelVersionPolicy
             * @classdesc Represents an All.
             * @constructor
             * @param {inference.ModelVersionPolicy.All.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const All = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Creates a new All instance using the specified properties.
             * @function create
             * @memberof inference.ModelVersionPolicy.All
             * @static
             * @param {inference.ModelVersionPolicy.All.$Properties=} [properties] Properties to set
             * @returns {inference.ModelVersionPolicy.All} All instance
             * @type {{
             *   (properties: inference.ModelVersionPolicy.All.$Shape): inference.ModelVersionPolicy.All & inference.ModelVersionPolicy.All.$Shape;
             *   (properties?: inference.ModelVersionPolicy.All.$Properties): inference.ModelVersionPolicy.All;
             * }}
             */
            All.create = function(properties) {
                return new All(properties);
            };

            /**
             * Encodes the specified All message. Does not implicitly {@link inference.ModelVersionPolicy.All.verify|verify} messages.
             * @function encode
             * @memberof inference.ModelVersionPolicy.All
             * @static
             * @param {inference.ModelVersionPolicy.All.$Properties} message All message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            All.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes an All message from the specified reader or buffer.
             * @function decode
             * @memberof inference.ModelVersionPolicy.All
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {inference.ModelVersionPolicy.All & inference.ModelVersionPolicy.All.$Shape} All
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            All.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.inference.ModelVersionPolicy.All();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates an All message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof inference.ModelVersionPolicy.All
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {inference.ModelVersionPolicy.All} All
             */
            All.fromObject = function (object, _depth) {
                if (object instanceof $root.inference.ModelVersionPolicy.All)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".inference.ModelVersionPolicy.All: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                return new $root.inference.ModelVersionPolicy.All();
            };

            /**
             * Creates a plain object from an All message. Also converts values to other types if specified.
             * @function toObject
             * @memberof inference.ModelVersionPolicy.All
             * @static
             * @param {inference.ModelVersionPolicy.All} message All
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            All.toObject = function () {
                return {};
            };

            /**
             * Converts this All to JSON.
             * @function toJSON
             * @memberof inference.ModelVersionPolicy.All
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            All.prototype.toJSON = function() {
                return All.toObject(this, $protobuf.util.toJSONOptions);
            };

            return All;
        })();

        ModelVersionPolicy.Specific = (function() {

            /**
             * Properties of a Specific.
             * @typedef {Object} inference.ModelVersionPolicy.Specific.$Properties
             * @property {Array.<number|Long>|null} [versions] Specific versions
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Specific.
             * @memberof inference.ModelVersionPolicy
             * @interface ISpecific
             * @augments inference.ModelVersionPolicy.Specific.$Properties
             * @deprecated Use inference.ModelVersionPolicy.Specific.$Properties instead.
             */

            /**
             * Shape of a Specific.
             * @typedef {inference.ModelVersionPolicy.Specific.$Properties} inference.ModelVersionPolicy.Specific.$Shape
             */

            /**
             * Constructs a new Specific.
             * @memberof inference.ModelVersionPolicy
             * @classdesc Represents a Specific.
             * @constructor
             * @param {inference.ModelVersionPolicy.Specific.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Specific = function (properties) {
                this.versions = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Specific versions.
             * @member {Array.<number|Long>} versions
             * @memberof inference.ModelVersionPolicy.Specific
             * @instance
             */
            Specific.prototype.versions = $util.emptyArray;

            /**
             * Creates a new Specific instance using the specified properties.
             * @function create
             * @memberof inference.ModelVersionPolicy.Specific
             * @static
             * @param {inference.ModelVersionPolicy.Specific.$Properties=} [properties] Properties to set
             * @returns {inference.ModelVersionPolicy.Specific} Specific instance
             * @type {{
             *   (properties: inference.ModelVersionPolicy.Specific.$Shape): inference.ModelVersionPolicy.Specific & inference.ModelVersionPolicy.Specific.$Shape;
             *   (properties?: inference.ModelVersionPolicy.Specific.$Properties): inference.ModelVersionPolicy.Specific;
             * }}
             */
            Specific.create = function(properties) {
                return new Specific(properties);
            };

            /**
             * Encodes the specified Specific message. Does not implicitly {@link inference.ModelVersionPolicy.Specific.verify|verify} messages.
             * @function encode
             * @memberof inference.ModelVersionPolicy.Specific
             * @static
             * @param {inference.ModelVersionPolicy.Specific.$Properties} message Specific message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Specific.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.versions != null && message.versions.length)
                    writer.uint32(/* id 1, wireType 2 =*/10).int64s(message.versions);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a Specific message from the specified reader or buffer.
             * @function decode
             * @memberof inference.ModelVersionPolicy.Specific
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {inference.ModelVersionPolicy.Specific & inference.ModelVersionPolicy.Specific.$Shape} Specific
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Specific.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.inference.ModelVersionPolicy.Specific();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType === 2) {
                                if (!(message.versions && message.versions.length))
                                    message.versions = [];
                                reader.int64s(message.versions);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.versions && message.versions.length))
                                message.versions = [];
                            message.versions.push(reader.int64());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates a Specific message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof inference.ModelVersionPolicy.Specific
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {inference.ModelVersionPolicy.Specific} Specific
             */
            Specific.fromObject = function (object, _depth) {
                if (object instanceof $root.inference.ModelVersionPolicy.Specific)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".inference.ModelVersionPolicy.Specific: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.inference.ModelVersionPolicy.Specific();
                if (object.versions) {
                    if (!$Array.isArray(object.versions))
                        throw $TypeError(".inference.ModelVersionPolicy.Specific.versions: array expected");
                    message.versions = $Array(object.versions.length);
                    for (let i = 0; i < object.versions.length; ++i)
                        if ($util.Long)
                            message.versions[i] = $util.Long.fromValue(object.versions[i], false);
                        else if (typeof object.versions[i] === "string")
                            message.versions[i] = $parseInt(object.versions[i], 10);
                        else if (typeof object.versions[i] === "number")
                            message.versions[i] = object.versions[i];
                        else if (typeof object.versions[i] === "object")
                            message.versions[i] = new $util.LongBits(object.versions[i].low >>> 0, object.versions[i].high >>> 0).toNumber();
                }
                return message;
            };

            /**
             * Creates a plain object from a Specific message. Also converts values to other types if specified.
             * @function toObject
             * @memberof inference.ModelVersionPolicy.Specific
             * @static
             * @param {inference.ModelVersionPolicy.Specific} message Specific
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Specific.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults)
                    object.versions = [];
                if (message.versions && message.versions.length) {
                    object.versions = $Array(message.versions.length);
                    for (let j = 0; j < message.versions.length; ++j)
                        if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                            object.versions[j] = typeof message.versions[j] === "number" ? $BigInt(message.versions[j]) : $util.Long.fromBits(message.versions[j].low >>> 0, message.versions[j].high >>> 0, false).toBigInt();
                        else if (typeof message.versions[j] === "number")
                            object.versions[j] = options.longs === $String ? $String(message.versions[j]) : message.versions[j];
                        else
                            object.versions[j] = options.longs === $String ? $util.Long.prototype.toString.call(message.versions[j]) : options.longs === $Number ? new $util.LongBits(message.versions[j].low >>> 0, message.versions[j].high >>> 0).toNumber() : message.versions[j];
                }
                return object;
            };

            /**
             * Converts this Specific to JSON.
             * @function toJSON
             * @memberof inference.ModelVersionPolicy.Specific
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Specific.prototype.toJSON = function() {
                return Specific.toObject(this, $protobuf.util.toJSONOptions);
            };

            return Specific;
        })();

        return ModelVersionPolicy;
    })();

    inference.ModelInput = (function() {

        /**
         * Properties of a ModelInput.
         * @typedef {Object} inference.ModelInput.$Properties
         * @property {string|null} [name] ModelInput name
         * @property {inference.DataType|null} [data_type] ModelInput data_type
         * @property {inference.ModelInput.Format|null} [format] ModelInput format
         * @property {Array.<number|Long>|null} [dims] ModelInput dims
         * @property {boolean|null} [is_shape_tensor] ModelInput is_shape_tensor
         * @property {boolean|null} [allow_ragged_batch] ModelInput allow_ragged_batch
         * @property {boolean|null} [optional] ModelInput optional
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelInput.
         * @memberof inference
         * @interface IModelInput
         * @augments inference.ModelInput.$Properties
         * @deprecated Use inference.ModelInput.$Properties instead.
         */

        /**
         * Shape of a ModelInput.
         * @typedef {inference.ModelInput.$Properties} inference.ModelInput.$Shape
         */

        /**
         * Constructs a new ModelInput.
         * @memberof inference
         * @classdesc Represents a ModelInput.
         * @constructor
         * @param {inference.ModelInput.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelInput = function (properties) {
            this.dims = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelInput name.
         * @member {string} name
         * @memberof inference.ModelInput
         * @instance
         */
        ModelInput.prototype.name = "";

        /**
         * ModelInput data_type.
         * @member {inference.DataType} data_type
         * @memberof inference.ModelInput
         * @instance
         */
        ModelInput.prototype.data_type = 0;

        /**
         * ModelInput format.
         * @member {inference.ModelInput.Format} format
         * @memberof inference.ModelInput
         * @instance
         */
        ModelInput.prototype.format = 0;

        /**
         * ModelInput dims.
         * @member {Array.<number|Long>} dims
         * @memberof inference.ModelInput
         * @instance
         */
        ModelInput.prototype.dims = $util.emptyArray;

        /**
         * ModelInput is_shape_tensor.
         * @member {boolean} is_shape_tensor
         * @memberof inference.ModelInput
         * @instance
         */
        ModelInput.prototype.is_shape_tensor = false;

        /**
         * ModelInput allow_ragged_batch.
         * @member {boolean} allow_ragged_batch
         * @memberof inference.ModelInput
         * @instance
         */
        ModelInput.prototype.allow_ragged_batch = false;

        /**
         * ModelInput optional.
         * @member {boolean} optional
         * @memberof inference.ModelInput
         * @instance
         */
        ModelInput.prototype.optional = false;

        /**
         * Creates a new ModelInput instance using the specified properties.
         * @function create
         * @memberof inference.ModelInput
         * @static
         * @param {inference.ModelInput.$Properties=} [properties] Properties to set
         * @returns {inference.ModelInput} ModelInput instance
         * @type {{
         *   (properties: inference.ModelInput.$Shape): inference.ModelInput & inference.ModelInput.$Shape;
         *   (properties?: inference.ModelInput.$Properties): inference.ModelInput;
         * }}
         */
        ModelInput.create = function(properties) {
            return new ModelInput(properties);
        };

        /**
         * Encodes the specified ModelInput message. Does not implicitly {@link inference.ModelInput.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelInput
         * @static
         * @param {inference.ModelInput.$Properties} message ModelInput message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelInput.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
            if (message.data_type != null && $Object.hasOwnProperty.call(message, "data_type") && message.data_type !== 0)
                writer.uint32(/* id 2, wireType 0 =*/16).int32(message.data_type);
            if (message.format != null && $Object.hasOwnProperty.call(message, "format") && message.format !== 0)
                writer.uint32(/* id 3, wireType 0 =*/24).int32(message.format);
            if (message.dims != null && message.dims.length)
                writer.uint32(/* id 4, wireType 2 =*/34).int64s(message.dims);
            if (message.is_shape_tensor != null && $Object.hasOwnProperty.call(message, "is_shape_tensor") && message.is_shape_tensor !== false)
                writer.uint32(/* id 6, wireType 0 =*/48).bool(message.is_shape_tensor);
            if (message.allow_ragged_batch != null && $Object.hasOwnProperty.call(message, "allow_ragged_batch") && message.allow_ragged_batch !== false)
                writer.uint32(/* id 7, wireType 0 =*/56).bool(message.allow_ragged_batch);
            if (message.optional != null && $Object.hasOwnProperty.call(message, "optional") && message.optional !== false)
                writer.uint32(/* id 8, wireType 0 =*/64).bool(message.optional);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelInput message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelInput
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelInput & inference.ModelInput.$Shape} ModelInput
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelInput.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelInput();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.data_type = value;
                        else
                            delete message.data_type;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.format = value;
                        else
                            delete message.format;
                        continue;
                    }
                case 4: {
                        if (wireType === 2) {
                            if (!(message.dims && message.dims.length))
                                message.dims = [];
                            reader.int64s(message.dims);
                            continue;
                        }
                        if (wireType !== 0)
                            break;
                        if (!(message.dims && message.dims.length))
                            message.dims = [];
                        message.dims.push(reader.int64());
                        continue;
                    }
                case 6: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.is_shape_tensor = value;
                        else
                            delete message.is_shape_tensor;
                        continue;
                    }
                case 7: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.allow_ragged_batch = value;
                        else
                            delete message.allow_ragged_batch;
                        continue;
                    }
                case 8: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.optional = value;
                        else
                            delete message.optional;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelInput message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelInput
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelInput} ModelInput
         */
        ModelInput.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelInput)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelInput: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelInput();
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.data_type !== 0 && (typeof object.data_type !== "string" || $root.inference.DataType[object.data_type] !== 0))
                switch (object.data_type) {
                case "TYPE_INVALID":
                case 0:
                    message.data_type = 0;
                    break;
                case "TYPE_BOOL":
                case 1:
                    message.data_type = 1;
                    break;
                case "TYPE_UINT8":
                case 2:
                    message.data_type = 2;
                    break;
                case "TYPE_UINT16":
                case 3:
                    message.data_type = 3;
                    break;
                case "TYPE_UINT32":
                case 4:
                    message.data_type = 4;
                    break;
                case "TYPE_UINT64":
                case 5:
                    message.data_type = 5;
                    break;
                case "TYPE_INT8":
                case 6:
                    message.data_type = 6;
                    break;
                case "TYPE_INT16":
                case 7:
                    message.data_type = 7;
                    break;
                case "TYPE_INT32":
                case 8:
                    message.data_type = 8;
                    break;
                case "TYPE_INT64":
                case 9:
                    message.data_type = 9;
                    break;
                case "TYPE_FP16":
                case 10:
                    message.data_type = 10;
                    break;
                case "TYPE_FP32":
                case 11:
                    message.data_type = 11;
                    break;
                case "TYPE_FP64":
                case 12:
                    message.data_type = 12;
                    break;
                case "TYPE_STRING":
                case 13:
                    message.data_type = 13;
                    break;
                case "TYPE_BF16":
                case 14:
                    message.data_type = 14;
                    break;
                default:
                    if (typeof object.data_type === "number" && (object.data_type | 0) === object.data_type)
                        message.data_type = object.data_type;
                }
            if (object.format !== 0 && (typeof object.format !== "string" || $root.inference.ModelInput.Format[object.format] !== 0))
                switch (object.format) {
                case "FORMAT_NONE":
                case 0:
                    message.format = 0;
                    break;
                case "FORMAT_NHWC":
                case 1:
                    message.format = 1;
                    break;
                case "FORMAT_NCHW":
                case 2:
                    message.format = 2;
                    break;
                default:
                    if (typeof object.format === "number" && (object.format | 0) === object.format)
                        message.format = object.format;
                }
            if (object.dims) {
                if (!$Array.isArray(object.dims))
                    throw $TypeError(".inference.ModelInput.dims: array expected");
                message.dims = $Array(object.dims.length);
                for (let i = 0; i < object.dims.length; ++i)
                    if ($util.Long)
                        message.dims[i] = $util.Long.fromValue(object.dims[i], false);
                    else if (typeof object.dims[i] === "string")
                        message.dims[i] = $parseInt(object.dims[i], 10);
                    else if (typeof object.dims[i] === "number")
                        message.dims[i] = object.dims[i];
                    else if (typeof object.dims[i] === "object")
                        message.dims[i] = new $util.LongBits(object.dims[i].low >>> 0, object.dims[i].high >>> 0).toNumber();
            }
            if (object.is_shape_tensor != null)
                if (object.is_shape_tensor)
                    message.is_shape_tensor = $Boolean(object.is_shape_tensor);
            if (object.allow_ragged_batch != null)
                if (object.allow_ragged_batch)
                    message.allow_ragged_batch = $Boolean(object.allow_ragged_batch);
            if (object.optional != null)
                if (object.optional)
                    message.optional = $Boolean(object.optional);
            return message;
        };

        /**
         * Creates a plain object from a ModelInput message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelInput
         * @static
         * @param {inference.ModelInput} message ModelInput
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelInput.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.dims = [];
            if (options.defaults) {
                object.name = "";
                object.data_type = options.enums === $String ? "TYPE_INVALID" : 0;
                object.format = options.enums === $String ? "FORMAT_NONE" : 0;
                object.is_shape_tensor = false;
                object.allow_ragged_batch = false;
                object.optional = false;
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.data_type != null && $Object.hasOwnProperty.call(message, "data_type"))
                object.data_type = options.enums === $String ? $root.inference.DataType[message.data_type] === $undefined ? message.data_type : $root.inference.DataType[message.data_type] : message.data_type;
            if (message.format != null && $Object.hasOwnProperty.call(message, "format"))
                object.format = options.enums === $String ? $root.inference.ModelInput.Format[message.format] === $undefined ? message.format : $root.inference.ModelInput.Format[message.format] : message.format;
            if (message.dims && message.dims.length) {
                object.dims = $Array(message.dims.length);
                for (let j = 0; j < message.dims.length; ++j)
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.dims[j] = typeof message.dims[j] === "number" ? $BigInt(message.dims[j]) : $util.Long.fromBits(message.dims[j].low >>> 0, message.dims[j].high >>> 0, false).toBigInt();
                    else if (typeof message.dims[j] === "number")
                        object.dims[j] = options.longs === $String ? $String(message.dims[j]) : message.dims[j];
                    else
                        object.dims[j] = options.longs === $String ? $util.Long.prototype.toString.call(message.dims[j]) : options.longs === $Number ? new $util.LongBits(message.dims[j].low >>> 0, message.dims[j].high >>> 0).toNumber() : message.dims[j];
            }
            if (message.is_shape_tensor != null && $Object.hasOwnProperty.call(message, "is_shape_tensor"))
                object.is_shape_tensor = message.is_shape_tensor;
            if (message.allow_ragged_batch != null && $Object.hasOwnProperty.call(message, "allow_ragged_batch"))
                object.allow_ragged_batch = message.allow_ragged_batch;
            if (message.optional != null && $Object.hasOwnProperty.call(message, "optional"))
                object.optional = message.optional;
            return object;
        };

        /**
         * Converts this ModelInput to JSON.
         * @function toJSON
         * @memberof inference.ModelInput
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelInput.prototype.toJSON = function() {
            return ModelInput.toObject(this, $protobuf.util.toJSONOptions);
        };

        /**
         * Format enum.
         * @name inference.ModelInput.Format
         * @enum {number}
         * @property {number} FORMAT_NONE=0 FORMAT_NONE value
         * @property {number} FORMAT_NHWC=1 FORMAT_NHWC value
         * @property {number} FORMAT_NCHW=2 FORMAT_NCHW value
         */
        ModelInput.Format = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "FORMAT_NONE"] = 0;
            values[valuesById[1] = "FORMAT_NHWC"] = 1;
            values[valuesById[2] = "FORMAT_NCHW"] = 2;
            return values;
        })();

        return ModelInput;
    })();

    inference.ModelOutput = (function() {

        /**
         * Properties of a ModelOutput.
         * @typedef {Object} inference.ModelOutput.$Properties
         * @property {string|null} [name] ModelOutput name
         * @property {inference.DataType|null} [data_type] ModelOutput data_type
         * @property {Array.<number|Long>|null} [dims] ModelOutput dims
         * @property {string|null} [label_filename] ModelOutput label_filename
         * @property {boolean|null} [is_shape_tensor] ModelOutput is_shape_tensor
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelOutput.
         * @memberof inference
         * @interface IModelOutput
         * @augments inference.ModelOutput.$Properties
         * @deprecated Use inference.ModelOutput.$Properties instead.
         */

        /**
         * Shape of a ModelOutput.
         * @typedef {inference.ModelOutput.$Properties} inference.ModelOutput.$Shape
         */

        /**
         * Constructs a new ModelOutput.
         * @memberof inference
         * @classdesc Represents a ModelOutput.
         * @constructor
         * @param {inference.ModelOutput.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelOutput = function (properties) {
            this.dims = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelOutput name.
         * @member {string} name
         * @memberof inference.ModelOutput
         * @instance
         */
        ModelOutput.prototype.name = "";

        /**
         * ModelOutput data_type.
         * @member {inference.DataType} data_type
         * @memberof inference.ModelOutput
         * @instance
         */
        ModelOutput.prototype.data_type = 0;

        /**
         * ModelOutput dims.
         * @member {Array.<number|Long>} dims
         * @memberof inference.ModelOutput
         * @instance
         */
        ModelOutput.prototype.dims = $util.emptyArray;

        /**
         * ModelOutput label_filename.
         * @member {string} label_filename
         * @memberof inference.ModelOutput
         * @instance
         */
        ModelOutput.prototype.label_filename = "";

        /**
         * ModelOutput is_shape_tensor.
         * @member {boolean} is_shape_tensor
         * @memberof inference.ModelOutput
         * @instance
         */
        ModelOutput.prototype.is_shape_tensor = false;

        /**
         * Creates a new ModelOutput instance using the specified properties.
         * @function create
         * @memberof inference.ModelOutput
         * @static
         * @param {inference.ModelOutput.$Properties=} [properties] Properties to set
         * @returns {inference.ModelOutput} ModelOutput instance
         * @type {{
         *   (properties: inference.ModelOutput.$Shape): inference.ModelOutput & inference.ModelOutput.$Shape;
         *   (properties?: inference.ModelOutput.$Properties): inference.ModelOutput;
         * }}
         */
        ModelOutput.create = function(properties) {
            return new ModelOutput(properties);
        };

        /**
         * Encodes the specified ModelOutput message. Does not implicitly {@link inference.ModelOutput.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelOutput
         * @static
         * @param {inference.ModelOutput.$Properties} message ModelOutput message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelOutput.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
            if (message.data_type != null && $Object.hasOwnProperty.call(message, "data_type") && message.data_type !== 0)
                writer.uint32(/* id 2, wireType 0 =*/16).int32(message.data_type);
            if (message.dims != null && message.dims.length)
                writer.uint32(/* id 3, wireType 2 =*/26).int64s(message.dims);
            if (message.label_filename != null && $Object.hasOwnProperty.call(message, "label_filename") && message.label_filename !== "")
                writer.uint32(/* id 4, wireType 2 =*/34).string(message.label_filename);
            if (message.is_shape_tensor != null && $Object.hasOwnProperty.call(message, "is_shape_tensor") && message.is_shape_tensor !== false)
                writer.uint32(/* id 6, wireType 0 =*/48).bool(message.is_shape_tensor);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelOutput message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelOutput
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelOutput & inference.ModelOutput.$Shape} ModelOutput
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelOutput.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelOutput();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.data_type = value;
                        else
                            delete message.data_type;
                        continue;
                    }
                case 3: {
                        if (wireType === 2) {
                            if (!(message.dims && message.dims.length))
                                message.dims = [];
                            reader.int64s(message.dims);
                            continue;
                        }
                        if (wireType !== 0)
                            break;
                        if (!(message.dims && message.dims.length))
                            message.dims = [];
                        message.dims.push(reader.int64());
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.label_filename = value;
                        else
                            delete message.label_filename;
                        continue;
                    }
                case 6: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.is_shape_tensor = value;
                        else
                            delete message.is_shape_tensor;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelOutput message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelOutput
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelOutput} ModelOutput
         */
        ModelOutput.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelOutput)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelOutput: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelOutput();
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.data_type !== 0 && (typeof object.data_type !== "string" || $root.inference.DataType[object.data_type] !== 0))
                switch (object.data_type) {
                case "TYPE_INVALID":
                case 0:
                    message.data_type = 0;
                    break;
                case "TYPE_BOOL":
                case 1:
                    message.data_type = 1;
                    break;
                case "TYPE_UINT8":
                case 2:
                    message.data_type = 2;
                    break;
                case "TYPE_UINT16":
                case 3:
                    message.data_type = 3;
                    break;
                case "TYPE_UINT32":
                case 4:
                    message.data_type = 4;
                    break;
                case "TYPE_UINT64":
                case 5:
                    message.data_type = 5;
                    break;
                case "TYPE_INT8":
                case 6:
                    message.data_type = 6;
                    break;
                case "TYPE_INT16":
                case 7:
                    message.data_type = 7;
                    break;
                case "TYPE_INT32":
                case 8:
                    message.data_type = 8;
                    break;
                case "TYPE_INT64":
                case 9:
                    message.data_type = 9;
                    break;
                case "TYPE_FP16":
                case 10:
                    message.data_type = 10;
                    break;
                case "TYPE_FP32":
                case 11:
                    message.data_type = 11;
                    break;
                case "TYPE_FP64":
                case 12:
                    message.data_type = 12;
                    break;
                case "TYPE_STRING":
                case 13:
                    message.data_type = 13;
                    break;
                case "TYPE_BF16":
                case 14:
                    message.data_type = 14;
                    break;
                default:
                    if (typeof object.data_type === "number" && (object.data_type | 0) === object.data_type)
                        message.data_type = object.data_type;
                }
            if (object.dims) {
                if (!$Array.isArray(object.dims))
                    throw $TypeError(".inference.ModelOutput.dims: array expected");
                message.dims = $Array(object.dims.length);
                for (let i = 0; i < object.dims.length; ++i)
                    if ($util.Long)
                        message.dims[i] = $util.Long.fromValue(object.dims[i], false);
                    else if (typeof object.dims[i] === "string")
                        message.dims[i] = $parseInt(object.dims[i], 10);
                    else if (typeof object.dims[i] === "number")
                        message.dims[i] = object.dims[i];
                    else if (typeof object.dims[i] === "object")
                        message.dims[i] = new $util.LongBits(object.dims[i].low >>> 0, object.dims[i].high >>> 0).toNumber();
            }
            if (object.label_filename != null)
                if (typeof object.label_filename !== "string" || object.label_filename.length)
                    message.label_filename = $String(object.label_filename);
            if (object.is_shape_tensor != null)
                if (object.is_shape_tensor)
                    message.is_shape_tensor = $Boolean(object.is_shape_tensor);
            return message;
        };

        /**
         * Creates a plain object from a ModelOutput message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelOutput
         * @static
         * @param {inference.ModelOutput} message ModelOutput
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelOutput.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.dims = [];
            if (options.defaults) {
                object.name = "";
                object.data_type = options.enums === $String ? "TYPE_INVALID" : 0;
                object.label_filename = "";
                object.is_shape_tensor = false;
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.data_type != null && $Object.hasOwnProperty.call(message, "data_type"))
                object.data_type = options.enums === $String ? $root.inference.DataType[message.data_type] === $undefined ? message.data_type : $root.inference.DataType[message.data_type] : message.data_type;
            if (message.dims && message.dims.length) {
                object.dims = $Array(message.dims.length);
                for (let j = 0; j < message.dims.length; ++j)
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.dims[j] = typeof message.dims[j] === "number" ? $BigInt(message.dims[j]) : $util.Long.fromBits(message.dims[j].low >>> 0, message.dims[j].high >>> 0, false).toBigInt();
                    else if (typeof message.dims[j] === "number")
                        object.dims[j] = options.longs === $String ? $String(message.dims[j]) : message.dims[j];
                    else
                        object.dims[j] = options.longs === $String ? $util.Long.prototype.toString.call(message.dims[j]) : options.longs === $Number ? new $util.LongBits(message.dims[j].low >>> 0, message.dims[j].high >>> 0).toNumber() : message.dims[j];
            }
            if (message.label_filename != null && $Object.hasOwnProperty.call(message, "label_filename"))
                object.label_filename = message.label_filename;
            if (message.is_shape_tensor != null && $Object.hasOwnProperty.call(message, "is_shape_tensor"))
                object.is_shape_tensor = message.is_shape_tensor;
            return object;
        };

        /**
         * Converts this ModelOutput to JSON.
         * @function toJSON
         * @memberof inference.ModelOutput
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelOutput.prototype.toJSON = function() {
            return ModelOutput.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelOutput;
    })();

    inference.ModelDynamicBatching = (function() {

        /**
         * Properties of a ModelDynamicBatching.
         * @typedef {Object} inference.ModelDynamicBatching.$Properties
         * @property {Array.<number>|null} [preferred_batch_size] ModelDynamicBatching preferred_batch_size
         * @property {number|Long|null} [max_queue_delay_microseconds] ModelDynamicBatching max_queue_delay_microseconds
         * @property {boolean|null} [preserve_ordering] ModelDynamicBatching preserve_ordering
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelDynamicBatching.
         * @memberof inference
         * @interface IModelDynamicBatching
         * @augments inference.ModelDynamicBatching.$Properties
         * @deprecated Use inference.ModelDynamicBatching.$Properties instead.
         */

        /**
         * Shape of a ModelDynamicBatching.
         * @typedef {inference.ModelDynamicBatching.$Properties} inference.ModelDynamicBatching.$Shape
         */

        /**
         * Constructs a new ModelDynamicBatching.
         * @memberof inference
         * @classdesc Represents a ModelDynamicBatching.
         * @constructor
         * @param {inference.ModelDynamicBatching.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelDynamicBatching = function (properties) {
            this.preferred_batch_size = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelDynamicBatching preferred_batch_size.
         * @member {Array.<number>} preferred_batch_size
         * @memberof inference.ModelDynamicBatching
         * @instance
         */
        ModelDynamicBatching.prototype.preferred_batch_size = $util.emptyArray;

        /**
         * ModelDynamicBatching max_queue_delay_microseconds.
         * @member {number|Long} max_queue_delay_microseconds
         * @memberof inference.ModelDynamicBatching
         * @instance
         */
        ModelDynamicBatching.prototype.max_queue_delay_microseconds = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

        /**
         * ModelDynamicBatching preserve_ordering.
         * @member {boolean} preserve_ordering
         * @memberof inference.ModelDynamicBatching
         * @instance
         */
        ModelDynamicBatching.prototype.preserve_ordering = false;

        /**
         * Creates a new ModelDynamicBatching instance using the specified properties.
         * @function create
         * @memberof inference.ModelDynamicBatching
         * @static
         * @param {inference.ModelDynamicBatching.$Properties=} [properties] Properties to set
         * @returns {inference.ModelDynamicBatching} ModelDynamicBatching instance
         * @type {{
         *   (properties: inference.ModelDynamicBatching.$Shape): inference.ModelDynamicBatching & inference.ModelDynamicBatching.$Shape;
         *   (properties?: inference.ModelDynamicBatching.$Properties): inference.ModelDynamicBatching;
         * }}
         */
        ModelDynamicBatching.create = function(properties) {
            return new ModelDynamicBatching(properties);
        };

        /**
         * Encodes the specified ModelDynamicBatching message. Does not implicitly {@link inference.ModelDynamicBatching.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelDynamicBatching
         * @static
         * @param {inference.ModelDynamicBatching.$Properties} message ModelDynamicBatching message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelDynamicBatching.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.preferred_batch_size != null && message.preferred_batch_size.length)
                writer.uint32(/* id 1, wireType 2 =*/10).int32s(message.preferred_batch_size);
            if (message.max_queue_delay_microseconds != null && $Object.hasOwnProperty.call(message, "max_queue_delay_microseconds") && (typeof message.max_queue_delay_microseconds === "object" ? message.max_queue_delay_microseconds.low || message.max_queue_delay_microseconds.high : message.max_queue_delay_microseconds !== 0))
                writer.uint32(/* id 2, wireType 0 =*/16).uint64(message.max_queue_delay_microseconds);
            if (message.preserve_ordering != null && $Object.hasOwnProperty.call(message, "preserve_ordering") && message.preserve_ordering !== false)
                writer.uint32(/* id 3, wireType 0 =*/24).bool(message.preserve_ordering);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelDynamicBatching message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelDynamicBatching
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelDynamicBatching & inference.ModelDynamicBatching.$Shape} ModelDynamicBatching
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelDynamicBatching.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelDynamicBatching();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType === 2) {
                            if (!(message.preferred_batch_size && message.preferred_batch_size.length))
                                message.preferred_batch_size = [];
                            reader.int32s(message.preferred_batch_size);
                            continue;
                        }
                        if (wireType !== 0)
                            break;
                        if (!(message.preferred_batch_size && message.preferred_batch_size.length))
                            message.preferred_batch_size = [];
                        message.preferred_batch_size.push(reader.int32());
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                            message.max_queue_delay_microseconds = value;
                        else
                            delete message.max_queue_delay_microseconds;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.preserve_ordering = value;
                        else
                            delete message.preserve_ordering;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelDynamicBatching message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelDynamicBatching
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelDynamicBatching} ModelDynamicBatching
         */
        ModelDynamicBatching.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelDynamicBatching)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelDynamicBatching: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelDynamicBatching();
            if (object.preferred_batch_size) {
                if (!$Array.isArray(object.preferred_batch_size))
                    throw $TypeError(".inference.ModelDynamicBatching.preferred_batch_size: array expected");
                message.preferred_batch_size = $Array(object.preferred_batch_size.length);
                for (let i = 0; i < object.preferred_batch_size.length; ++i)
                    message.preferred_batch_size[i] = object.preferred_batch_size[i] | 0;
            }
            if (object.max_queue_delay_microseconds != null)
                if (typeof object.max_queue_delay_microseconds === "object" ? object.max_queue_delay_microseconds.low || object.max_queue_delay_microseconds.high : $Number(object.max_queue_delay_microseconds) !== 0)
                    if ($util.Long)
                        message.max_queue_delay_microseconds = $util.Long.fromValue(object.max_queue_delay_microseconds, true);
                    else if (typeof object.max_queue_delay_microseconds === "string")
                        message.max_queue_delay_microseconds = $parseInt(object.max_queue_delay_microseconds, 10);
                    else if (typeof object.max_queue_delay_microseconds === "number")
                        message.max_queue_delay_microseconds = object.max_queue_delay_microseconds;
                    else if (typeof object.max_queue_delay_microseconds === "object")
                        message.max_queue_delay_microseconds = new $util.LongBits(object.max_queue_delay_microseconds.low >>> 0, object.max_queue_delay_microseconds.high >>> 0).toNumber(true);
            if (object.preserve_ordering != null)
                if (object.preserve_ordering)
                    message.preserve_ordering = $Boolean(object.preserve_ordering);
            return message;
        };

        /**
         * Creates a plain object from a ModelDynamicBatching message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelDynamicBatching
         * @static
         * @param {inference.ModelDynamicBatching} message ModelDynamicBatching
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelDynamicBatching.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.preferred_batch_size = [];
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, true);
                    object.max_queue_delay_microseconds = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.max_queue_delay_microseconds = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.preserve_ordering = false;
            }
            if (message.preferred_batch_size && message.preferred_batch_size.length) {
                object.preferred_batch_size = $Array(message.preferred_batch_size.length);
                for (let j = 0; j < message.preferred_batch_size.length; ++j)
                    object.preferred_batch_size[j] = message.preferred_batch_size[j];
            }
            if (message.max_queue_delay_microseconds != null && $Object.hasOwnProperty.call(message, "max_queue_delay_microseconds"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.max_queue_delay_microseconds = typeof message.max_queue_delay_microseconds === "number" ? $BigInt(message.max_queue_delay_microseconds) : $util.Long.fromBits(message.max_queue_delay_microseconds.low >>> 0, message.max_queue_delay_microseconds.high >>> 0, true).toBigInt();
                else if (typeof message.max_queue_delay_microseconds === "number")
                    object.max_queue_delay_microseconds = options.longs === $String ? $String(message.max_queue_delay_microseconds) : message.max_queue_delay_microseconds;
                else
                    object.max_queue_delay_microseconds = options.longs === $String ? $util.Long.prototype.toString.call(message.max_queue_delay_microseconds) : options.longs === $Number ? new $util.LongBits(message.max_queue_delay_microseconds.low >>> 0, message.max_queue_delay_microseconds.high >>> 0).toNumber(true) : message.max_queue_delay_microseconds;
            if (message.preserve_ordering != null && $Object.hasOwnProperty.call(message, "preserve_ordering"))
                object.preserve_ordering = message.preserve_ordering;
            return object;
        };

        /**
         * Converts this ModelDynamicBatching to JSON.
         * @function toJSON
         * @memberof inference.ModelDynamicBatching
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelDynamicBatching.prototype.toJSON = function() {
            return ModelDynamicBatching.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelDynamicBatching;
    })();

    inference.ModelConfig = (function() {

        /**
         * Properties of a ModelConfig.
         * @typedef {Object} inference.ModelConfig.$Properties
         * @property {string|null} [name] ModelConfig name
         * @property {string|null} [platform] ModelConfig platform
         * @property {string|null} [backend] ModelConfig backend
         * @property {inference.ModelVersionPolicy.$Properties|null} [version_policy] ModelConfig version_policy
         * @property {number|null} [max_batch_size] ModelConfig max_batch_size
         * @property {Array.<inference.ModelInput.$Properties>|null} [input] ModelConfig input
         * @property {Array.<inference.ModelOutput.$Properties>|null} [output] ModelConfig output
         * @property {inference.ModelDynamicBatching.$Properties|null} [dynamic_batching] ModelConfig dynamic_batching
         * @property {Array.<inference.ModelInstanceGroup.$Properties>|null} [instance_group] ModelConfig instance_group
         * @property {"dynamic_batching"} [scheduling_choice] ModelConfig scheduling_choice
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ModelConfig.
         * @memberof inference
         * @interface IModelConfig
         * @augments inference.ModelConfig.$Properties
         * @deprecated Use inference.ModelConfig.$Properties instead.
         */

        /**
         * Narrowed shape of a ModelConfig.
         * @typedef {{
         *   name?: string|null;
         *   platform?: string|null;
         *   backend?: string|null;
         *   version_policy?: inference.ModelVersionPolicy.$Shape|null;
         *   max_batch_size?: number|null;
         *   input?: Array.<inference.ModelInput.$Shape>|null;
         *   output?: Array.<inference.ModelOutput.$Shape>|null;
         *   dynamic_batching?: inference.ModelDynamicBatching.$Shape|null;
         *   instance_group?: Array.<inference.ModelInstanceGroup.$Shape>|null;
         *   $unknowns?: Array.<Uint8Array>;
         * } & (
         *   ({ scheduling_choice?: undefined; dynamic_batching?: null }|{ scheduling_choice?: "dynamic_batching"; dynamic_batching: inference.ModelDynamicBatching.$Shape })
         * )} inference.ModelConfig.$Shape
         */

        /**
         * Constructs a new ModelConfig.
         * @memberof inference
         * @classdesc Represents a ModelConfig.
         * @constructor
         * @param {inference.ModelConfig.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ModelConfig = function (properties) {
            this.input = [];
            this.output = [];
            this.instance_group = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ModelConfig name.
         * @member {string} name
         * @memberof inference.ModelConfig
         * @instance
         */
        ModelConfig.prototype.name = "";

        /**
         * ModelConfig platform.
         * @member {string} platform
         * @memberof inference.ModelConfig
         * @instance
         */
        ModelConfig.prototype.platform = "";

        /**
         * ModelConfig backend.
         * @member {string} backend
         * @memberof inference.ModelConfig
         * @instance
         */
        ModelConfig.prototype.backend = "";

        /**
         * ModelConfig version_policy.
         * @member {inference.ModelVersionPolicy.$Properties|null|undefined} version_policy
         * @memberof inference.ModelConfig
         * @instance
         */
        ModelConfig.prototype.version_policy = null;

        /**
         * ModelConfig max_batch_size.
         * @member {number} max_batch_size
         * @memberof inference.ModelConfig
         * @instance
         */
        ModelConfig.prototype.max_batch_size = 0;

        /**
         * ModelConfig input.
         * @member {Array.<inference.ModelInput.$Properties>} input
         * @memberof inference.ModelConfig
         * @instance
         */
        ModelConfig.prototype.input = $util.emptyArray;

        /**
         * ModelConfig output.
         * @member {Array.<inference.ModelOutput.$Properties>} output
         * @memberof inference.ModelConfig
         * @instance
         */
        ModelConfig.prototype.output = $util.emptyArray;

        /**
         * ModelConfig dynamic_batching.
         * @member {inference.ModelDynamicBatching.$Properties|null|undefined} dynamic_batching
         * @memberof inference.ModelConfig
         * @instance
         */
        ModelConfig.prototype.dynamic_batching = null;

        /**
         * ModelConfig instance_group.
         * @member {Array.<inference.ModelInstanceGroup.$Properties>} instance_group
         * @memberof inference.ModelConfig
         * @instance
         */
        ModelConfig.prototype.instance_group = $util.emptyArray;

        // OneOf field names bound to virtual getters and setters
        let $oneOfFields;

        /**
         * ModelConfig scheduling_choice.
         * @member {"dynamic_batching"|undefined} scheduling_choice
         * @memberof inference.ModelConfig
         * @instance
         */
        $Object.defineProperty(ModelConfig.prototype, "scheduling_choice", {
            get: $util.oneOfGetter($oneOfFields = ["dynamic_batching"]),
            set: $util.oneOfSetter($oneOfFields)
        });

        /**
         * Creates a new ModelConfig instance using the specified properties.
         * @function create
         * @memberof inference.ModelConfig
         * @static
         * @param {inference.ModelConfig.$Properties=} [properties] Properties to set
         * @returns {inference.ModelConfig} ModelConfig instance
         * @type {{
         *   (properties: inference.ModelConfig.$Shape): inference.ModelConfig & inference.ModelConfig.$Shape;
         *   (properties?: inference.ModelConfig.$Properties): inference.ModelConfig;
         * }}
         */
        ModelConfig.create = function(properties) {
            return new ModelConfig(properties);
        };

        /**
         * Encodes the specified ModelConfig message. Does not implicitly {@link inference.ModelConfig.verify|verify} messages.
         * @function encode
         * @memberof inference.ModelConfig
         * @static
         * @param {inference.ModelConfig.$Properties} message ModelConfig message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ModelConfig.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.name);
            if (message.platform != null && $Object.hasOwnProperty.call(message, "platform") && message.platform !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.platform);
            if (message.version_policy != null && $Object.hasOwnProperty.call(message, "version_policy"))
                $root.inference.ModelVersionPolicy.encode(message.version_policy, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.max_batch_size != null && $Object.hasOwnProperty.call(message, "max_batch_size") && message.max_batch_size !== 0)
                writer.uint32(/* id 4, wireType 0 =*/32).int32(message.max_batch_size);
            if (message.input != null && message.input.length)
                for (let i = 0; i < message.input.length; ++i)
                    $root.inference.ModelInput.encode(message.input[i], writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
            if (message.output != null && message.output.length)
                for (let i = 0; i < message.output.length; ++i)
                    $root.inference.ModelOutput.encode(message.output[i], writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.instance_group != null && message.instance_group.length)
                for (let i = 0; i < message.instance_group.length; ++i)
                    $root.inference.ModelInstanceGroup.encode(message.instance_group[i], writer.uint32(/* id 7, wireType 2 =*/58).fork(), _depth + 1).ldelim();
            if (message.dynamic_batching != null && $Object.hasOwnProperty.call(message, "dynamic_batching"))
                $root.inference.ModelDynamicBatching.encode(message.dynamic_batching, writer.uint32(/* id 11, wireType 2 =*/90).fork(), _depth + 1).ldelim();
            if (message.backend != null && $Object.hasOwnProperty.call(message, "backend") && message.backend !== "")
                writer.uint32(/* id 17, wireType 2 =*/138).string(message.backend);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ModelConfig message from the specified reader or buffer.
         * @function decode
         * @memberof inference.ModelConfig
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {inference.ModelConfig & inference.ModelConfig.$Shape} ModelConfig
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ModelConfig.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.inference.ModelConfig();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.platform = value;
                        else
                            delete message.platform;
                        continue;
                    }
                case 17: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.backend = value;
                        else
                            delete message.backend;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.version_policy = $root.inference.ModelVersionPolicy.decode(reader, reader.size(), $undefined, _depth + 1, message.version_policy);
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.max_batch_size = value;
                        else
                            delete message.max_batch_size;
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if (!(message.input && message.input.length))
                            message.input = [];
                        message.input.push($root.inference.ModelInput.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if (!(message.output && message.output.length))
                            message.output = [];
                        message.output.push($root.inference.ModelOutput.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 11: {
                        if (wireType !== 2)
                            break;
                        message.dynamic_batching = $root.inference.ModelDynamicBatching.decode(reader, reader.size(), $undefined, _depth + 1, message.dynamic_batching);
                        message.scheduling_choice = "dynamic_batching";
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        if (!(message.instance_group && message.instance_group.length))
                            message.instance_group = [];
                        message.instance_group.push($root.inference.ModelInstanceGroup.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a ModelConfig message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof inference.ModelConfig
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {inference.ModelConfig} ModelConfig
         */
        ModelConfig.fromObject = function (object, _depth) {
            if (object instanceof $root.inference.ModelConfig)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".inference.ModelConfig: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.inference.ModelConfig();
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.platform != null)
                if (typeof object.platform !== "string" || object.platform.length)
                    message.platform = $String(object.platform);
            if (object.backend != null)
                if (typeof object.backend !== "string" || object.backend.length)
                    message.backend = $String(object.backend);
            if (object.version_policy != null) {
                if (!$util.isObject(object.version_policy))
                    throw $TypeError(".inference.ModelConfig.version_policy: object expected");
                message.version_policy = $root.inference.ModelVersionPolicy.fromObject(object.version_policy, _depth + 1);
            }
            if (object.max_batch_size != null)
                if ($Number(object.max_batch_size) !== 0)
                    message.max_batch_size = object.max_batch_size | 0;
            if (object.input) {
                if (!$Array.isArray(object.input))
                    throw $TypeError(".inference.ModelConfig.input: array expected");
                message.input = $Array(object.input.length);
                for (let i = 0; i < object.input.length; ++i) {
                    if (!$util.isObject(object.input[i]))
                        throw $TypeError(".inference.ModelConfig.input: object expected");
                    message.input[i] = $root.inference.ModelInput.fromObject(object.input[i], _depth + 1);
                }
            }
            if (object.output) {
                if (!$Array.isArray(object.output))
                    throw $TypeError(".inference.ModelConfig.output: array expected");
                message.output = $Array(object.output.length);
                for (let i = 0; i < object.output.length; ++i) {
                    if (!$util.isObject(object.output[i]))
                        throw $TypeError(".inference.ModelConfig.output: object expected");
                    message.output[i] = $root.inference.ModelOutput.fromObject(object.output[i], _depth + 1);
                }
            }
            if (object.dynamic_batching != null) {
                if (!$util.isObject(object.dynamic_batching))
                    throw $TypeError(".inference.ModelConfig.dynamic_batching: object expected");
                message.dynamic_batching = $root.inference.ModelDynamicBatching.fromObject(object.dynamic_batching, _depth + 1);
            }
            if (object.instance_group) {
                if (!$Array.isArray(object.instance_group))
                    throw $TypeError(".inference.ModelConfig.instance_group: array expected");
                message.instance_group = $Array(object.instance_group.length);
                for (let i = 0; i < object.instance_group.length; ++i) {
                    if (!$util.isObject(object.instance_group[i]))
                        throw $TypeError(".inference.ModelConfig.instance_group: object expected");
                    message.instance_group[i] = $root.inference.ModelInstanceGroup.fromObject(object.instance_group[i], _depth + 1);
                }
            }
            return message;
        };

        /**
         * Creates a plain object from a ModelConfig message. Also converts values to other types if specified.
         * @function toObject
         * @memberof inference.ModelConfig
         * @static
         * @param {inference.ModelConfig} message ModelConfig
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        ModelConfig.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults) {
                object.input = [];
                object.output = [];
                object.instance_group = [];
            }
            if (options.defaults) {
                object.name = "";
                object.platform = "";
                object.version_policy = null;
                object.max_batch_size = 0;
                object.backend = "";
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.platform != null && $Object.hasOwnProperty.call(message, "platform"))
                object.platform = message.platform;
            if (message.version_policy != null && $Object.hasOwnProperty.call(message, "version_policy"))
                object.version_policy = $root.inference.ModelVersionPolicy.toObject(message.version_policy, options, _depth + 1);
            if (message.max_batch_size != null && $Object.hasOwnProperty.call(message, "max_batch_size"))
                object.max_batch_size = message.max_batch_size;
            if (message.input && message.input.length) {
                object.input = $Array(message.input.length);
                for (let j = 0; j < message.input.length; ++j)
                    object.input[j] = $root.inference.ModelInput.toObject(message.input[j], options, _depth + 1);
            }
            if (message.output && message.output.length) {
                object.output = $Array(message.output.length);
                for (let j = 0; j < message.output.length; ++j)
                    object.output[j] = $root.inference.ModelOutput.toObject(message.output[j], options, _depth + 1);
            }
            if (message.instance_group && message.instance_group.length) {
                object.instance_group = $Array(message.instance_group.length);
                for (let j = 0; j < message.instance_group.length; ++j)
                    object.instance_group[j] = $root.inference.ModelInstanceGroup.toObject(message.instance_group[j], options, _depth + 1);
            }
            if (message.dynamic_batching != null && $Object.hasOwnProperty.call(message, "dynamic_batching")) {
                object.dynamic_batching = $root.inference.ModelDynamicBatching.toObject(message.dynamic_batching, options, _depth + 1);
                if (options.oneofs)
                    object.scheduling_choice = "dynamic_batching";
            }
            if (message.backend != null && $Object.hasOwnProperty.call(message, "backend"))
                object.backend = message.backend;
            return object;
        };

        /**
         * Converts this ModelConfig to JSON.
         * @function toJSON
         * @memberof inference.ModelConfig
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        ModelConfig.prototype.toJSON = function() {
            return ModelConfig.toObject(this, $protobuf.util.toJSONOptions);
        };

        return ModelConfig;
    })();

    return inference;
})();

export {
  $root as default
};
