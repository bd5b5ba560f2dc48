import * as $protobuf from "protobufjs/minimal.js";
import Long = require("long");

/** Namespace inference. */
export namespace inference {

    /** Represents a GRPCInferenceService */
    class GRPCInferenceService extends $protobuf.rpc.Service {

        /**
         * Constructs a new GRPCInferenceService service.
         * @param rpcImpl RPC implementation
         * @param [requestDelimited=false] Whether requests are length-delimited
         * @param [responseDelimited=false] Whether responses are length-delimited
         */
        constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);

        /**
         * Creates new GRPCInferenceService service using the specified rpc implementation.
         * @param rpcImpl RPC implementation
         * @param [requestDelimited=false] Whether requests are length-delimited
         * @param [responseDelimited=false] Whether responses are length-delimited
         * @returns RPC service. Useful where requests and/or responses are streamed.
         */
        static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): GRPCInferenceService;

        /** Calls ServerLive. */
        serverLive: inference.GRPCInferenceService.ServerLive;

        /** Calls ServerReady. */
        serverReady: inference.GRPCInferenceService.ServerReady;

        /** Calls ModelReady. */
        modelReady: inference.GRPCInferenceService.ModelReady;

        /** Calls ServerMetadata. */
        serverMetadata: inference.GRPCInferenceService.ServerMetadata;

        /** Calls ModelMetadata. */
        modelMetadata: inference.GRPCInferenceService.ModelMetadata;

        /** Calls ModelInfer. */
        modelInfer: inference.GRPCInferenceService.ModelInfer;

        /** Calls ModelStreamInfer. */
        modelStreamInfer: inference.GRPCInferenceService.ModelStreamInfer;

        /** Calls ModelConfig. */
        modelConfig: inference.GRPCInferenceService.ModelConfig;

        /** Calls ModelStatistics. */
        modelStatistics: inference.GRPCInferenceService.ModelStatistics;
    }

    namespace GRPCInferenceService {

        /**
         * Callback as used by {@link inference.GRPCInferenceService#serverLive}.
         * @param error Error, if any
         * @param [response] ServerLiveResponse
         */
        type ServerLiveCallback = (error: (Error|null), response?: inference.ServerLiveResponse) => void;

        /** Calls ServerLive. */
        type ServerLive = {
          (request: inference.IServerLiveRequest, callback: inference.GRPCInferenceService.ServerLiveCallback): void;
          (request: inference.IServerLiveRequest): Promise<inference.ServerLiveResponse>;
          readonly name: "ServerLive";
          readonly path: "/inference.GRPCInferenceService/ServerLive";
          readonly requestType: "ServerLiveRequest";
          readonly responseType: "ServerLiveResponse";
          readonly requestStream: undefined;
          readonly responseStream: undefined;
        };

        /**
         * Callback as used by {@link inference.GRPCInferenceService#serverReady}.
         * @param error Error, if any
         * @param [response] ServerReadyResponse
         */
        type ServerReadyCallback = (error: (Error|null), response?: inference.ServerReadyResponse) => void;

        /** Calls ServerReady. */
        type ServerReady = {
          (request: inference.IServerReadyRequest, callback: inference.GRPCInferenceService.ServerReadyCallback): void;
          (request: inference.IServerReadyRequest): Promise<inference.ServerReadyResponse>;
          readonly name: "ServerReady";
          readonly path: "/inference.GRPCInferenceService/ServerReady";
          readonly requestType: "ServerReadyRequest";
          readonly responseType: "ServerReadyResponse";
          readonly requestStream: undefined;
          readonly responseStream: undefined;
        };

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelReady}.
         * @param error Error, if any
         * @param [response] ModelReadyResponse
         */
        type ModelReadyCallback = (error: (Error|null), response?: inference.ModelReadyResponse) => void;

        /** Calls ModelReady. */
        type ModelReady = {
          (request: inference.IModelReadyRequest, callback: inference.GRPCInferenceService.ModelReadyCallback): void;
          (request: inference.IModelReadyRequest): Promise<inference.ModelReadyResponse>;
          readonly name: "ModelReady";
          readonly path: "/inference.GRPCInferenceService/ModelReady";
          readonly requestType: "ModelReadyRequest";
          readonly responseType: "ModelReadyResponse";
          readonly requestStream: undefined;
          readonly responseStream: undefined;
        };

        /**
         * Callback as used by {@link inference.GRPCInferenceService#serverMetadata}.
         * @param error Error, if any
         * @param [response] ServerMetadataResponse
         */
        type ServerMetadataCallback = (error: (Error|null), response?: inference.ServerMetadataResponse) => void;

        /** Calls ServerMetadata. */
        type ServerMetadata = {
          (request: inference.IServerMetadataRequest, callback: inference.GRPCInferenceService.ServerMetadataCallback): void;
          (request: inference.IServerMetadataRequest): Promise<inference.ServerMetadataResponse>;
          readonly name: "ServerMetadata";
          readonly path: "/inference.GRPCInferenceService/ServerMetadata";
          readonly requestType: "ServerMetadataRequest";
          readonly responseType: "ServerMetadataResponse";
          readonly requestStream: undefined;
          readonly responseStream: undefined;
        };

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelMetadata}.
         * @param error Error, if any
         * @param [response] ModelMetadataResponse
         */
        type ModelMetadataCallback = (error: (Error|null), response?: inference.ModelMetadataResponse) => void;

        /** Calls ModelMetadata. */
        type ModelMetadata = {
          (request: inference.IModelMetadataRequest, callback: inference.GRPCInferenceService.ModelMetadataCallback): void;
          (request: inference.IModelMetadataRequest): Promise<inference.ModelMetadataResponse>;
          readonly name: "ModelMetadata";
          readonly path: "/inference.GRPCInferenceService/ModelMetadata";
          readonly requestType: "ModelMetadataRequest";
          readonly responseType: "ModelMetadataResponse";
          readonly requestStream: undefined;
          readonly responseStream: undefined;
        };

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelInfer}.
         * @param error Error, if any
         * @param [response] ModelInferResponse
         */
        type ModelInferCallback = (error: (Error|null), response?: inference.ModelInferResponse) => void;

        /** Calls ModelInfer. */
        type ModelInfer = {
          (request: inference.IModelInferRequest, callback: inference.GRPCInferenceService.ModelInferCallback): void;
          (request: inference.IModelInferRequest): Promise<inference.ModelInferResponse>;
          readonly name: "ModelInfer";
          readonly path: "/inference.GRPCInferenceService/ModelInfer";
          readonly requestType: "ModelInferRequest";
          readonly responseType: "ModelInferResponse";
          readonly requestStream: undefined;
          readonly responseStream: undefined;
        };

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelStreamInfer}.
         * @param error Error, if any
         * @param [response] ModelStreamInferResponse
         */
        type ModelStreamInferCallback = (error: (Error|null), response?: inference.ModelStreamInferResponse) => void;

        /** Calls ModelStreamInfer. */
        type ModelStreamInfer = {
          (request: inference.IModelInferRequest, callback: inference.GRPCInferenceService.ModelStreamInferCallback): void;
          (request: inference.IModelInferRequest): Promise<inference.ModelStreamInferResponse>;
          readonly name: "ModelStreamInfer";
          readonly path: "/inference.GRPCInferenceService/ModelStreamInfer";
          readonly requestType: "ModelInferRequest";
          readonly responseType: "ModelStreamInferResponse";
          readonly requestStream: true;
          readonly responseStream: true;
        };

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelConfig}.
         * @param error Error, if any
         * @param [response] ModelConfigResponse
         */
        type ModelConfigCallback = (error: (Error|null), response?: inference.ModelConfigResponse) => void;

        /** Calls ModelConfig. */
        type ModelConfig = {
          (request: inference.IModelConfigRequest, callback: inference.GRPCInferenceService.ModelConfigCallback): void;
          (request: inference.IModelConfigRequest): Promise<inference.ModelConfigResponse>;
          readonly name: "ModelConfig";
          readonly path: "/inference.GRPCInferenceService/ModelConfig";
          readonly requestType: "ModelConfigRequest";
          readonly responseType: "ModelConfigResponse";
          readonly requestStream: undefined;
          readonly responseStream: undefined;
        };

        /**
         * Callback as used by {@link inference.GRPCInferenceService#modelStatistics}.
         * @param error Error, if any
         * @param [response] ModelStatisticsResponse
         */
        type ModelStatisticsCallback = (error: (Error|null), response?: inference.ModelStatisticsResponse) => void;

        /** Calls ModelStatistics. */
        type ModelStatistics = {
          (request: inference.IModelStatisticsRequest, callback: inference.GRPCInferenceService.ModelStatisticsCallback): void;
          (request: inference.IModelStatisticsRequest): Promise<inference.ModelStatisticsResponse>;
          readonly name: "ModelStatistics";
          readonly path: "/inference.GRPCInferenceService/ModelStatistics";
          readonly requestType: "ModelStatisticsRequest";
          readonly responseType: "ModelStatisticsResponse";
          readonly requestStream: undefined;
          readonly responseStream: undefined;
        };
    }

    /**
     * Properties of a ServerLiveRequest.
     * @deprecated Use inference.ServerLiveRequest.$Properties instead.
     */
    interface IServerLiveRequest extends inference.ServerLiveRequest.$Properties {
    }

    /** Represents a ServerLiveRequest. */
    class ServerLiveRequest {

        /**
         * Constructs a new ServerLiveRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ServerLiveRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /**
         * Creates a new ServerLiveRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ServerLiveRequest instance
         */
        static create(properties: inference.ServerLiveRequest.$Shape): inference.ServerLiveRequest & inference.ServerLiveRequest.$Shape;
        static create(properties?: inference.ServerLiveRequest.$Properties): inference.ServerLiveRequest;

        /**
         * Encodes the specified ServerLiveRequest message. Does not implicitly {@link inference.ServerLiveRequest.verify|verify} messages.
         * @param message ServerLiveRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ServerLiveRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ServerLiveRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ServerLiveRequest & inference.ServerLiveRequest.$Shape} ServerLiveRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ServerLiveRequest & inference.ServerLiveRequest.$Shape;

        /**
         * Creates a ServerLiveRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ServerLiveRequest
         */
        static fromObject(object: { [k: string]: any }): inference.ServerLiveRequest;

        /**
         * Creates a plain object from a ServerLiveRequest message. Also converts values to other types if specified.
         * @param message ServerLiveRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ServerLiveRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ServerLiveRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ServerLiveRequest {

        /** Properties of a ServerLiveRequest. */
        interface $Properties {

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ServerLiveRequest. */
        type $Shape = inference.ServerLiveRequest.$Properties;
    }

    /**
     * Properties of a ServerLiveResponse.
     * @deprecated Use inference.ServerLiveResponse.$Properties instead.
     */
    interface IServerLiveResponse extends inference.ServerLiveResponse.$Properties {
    }

    /** Represents a ServerLiveResponse. */
    class ServerLiveResponse {

        /**
         * Constructs a new ServerLiveResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ServerLiveResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ServerLiveResponse live. */
        live: boolean;

        /**
         * Creates a new ServerLiveResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ServerLiveResponse instance
         */
        static create(properties: inference.ServerLiveResponse.$Shape): inference.ServerLiveResponse & inference.ServerLiveResponse.$Shape;
        static create(properties?: inference.ServerLiveResponse.$Properties): inference.ServerLiveResponse;

        /**
         * Encodes the specified ServerLiveResponse message. Does not implicitly {@link inference.ServerLiveResponse.verify|verify} messages.
         * @param message ServerLiveResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ServerLiveResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ServerLiveResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ServerLiveResponse & inference.ServerLiveResponse.$Shape} ServerLiveResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ServerLiveResponse & inference.ServerLiveResponse.$Shape;

        /**
         * Creates a ServerLiveResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ServerLiveResponse
         */
        static fromObject(object: { [k: string]: any }): inference.ServerLiveResponse;

        /**
         * Creates a plain object from a ServerLiveResponse message. Also converts values to other types if specified.
         * @param message ServerLiveResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ServerLiveResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ServerLiveResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ServerLiveResponse {

        /** Properties of a ServerLiveResponse. */
        interface $Properties {

            /** ServerLiveResponse live */
            live?: (boolean|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ServerLiveResponse. */
        type $Shape = inference.ServerLiveResponse.$Properties;
    }

    /**
     * Properties of a ServerReadyRequest.
     * @deprecated Use inference.ServerReadyRequest.$Properties instead.
     */
    interface IServerReadyRequest extends inference.ServerReadyRequest.$Properties {
    }

    /** Represents a ServerReadyRequest. */
    class ServerReadyRequest {

        /**
         * Constructs a new ServerReadyRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ServerReadyRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /**
         * Creates a new ServerReadyRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ServerReadyRequest instance
         */
        static create(properties: inference.ServerReadyRequest.$Shape): inference.ServerReadyRequest & inference.ServerReadyRequest.$Shape;
        static create(properties?: inference.ServerReadyRequest.$Properties): inference.ServerReadyRequest;

        /**
         * Encodes the specified ServerReadyRequest message. Does not implicitly {@link inference.ServerReadyRequest.verify|verify} messages.
         * @param message ServerReadyRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ServerReadyRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ServerReadyRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ServerReadyRequest & inference.ServerReadyRequest.$Shape} ServerReadyRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ServerReadyRequest & inference.ServerReadyRequest.$Shape;

        /**
         * Creates a ServerReadyRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ServerReadyRequest
         */
        static fromObject(object: { [k: string]: any }): inference.ServerReadyRequest;

        /**
         * Creates a plain object from a ServerReadyRequest message. Also converts values to other types if specified.
         * @param message ServerReadyRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ServerReadyRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ServerReadyRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ServerReadyRequest {

        /** Properties of a ServerReadyRequest. */
        interface $Properties {

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ServerReadyRequest. */
        type $Shape = inference.ServerReadyRequest.$Properties;
    }

    /**
     * Properties of a ServerReadyResponse.
     * @deprecated Use inference.ServerReadyResponse.$Properties instead.
     */
    interface IServerReadyResponse extends inference.ServerReadyResponse.$Properties {
    }

    /** Represents a ServerReadyResponse. */
    class ServerReadyResponse {

        /**
         * Constructs a new ServerReadyResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ServerReadyResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ServerReadyResponse ready. */
        ready: boolean;

        /**
         * Creates a new ServerReadyResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ServerReadyResponse instance
         */
        static create(properties: inference.ServerReadyResponse.$Shape): inference.ServerReadyResponse & inference.ServerReadyResponse.$Shape;
        static create(properties?: inference.ServerReadyResponse.$Properties): inference.ServerReadyResponse;

        /**
         * Encodes the specified ServerReadyResponse message. Does not implicitly {@link inference.ServerReadyResponse.verify|verify} messages.
         * @param message ServerReadyResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ServerReadyResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ServerReadyResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ServerReadyResponse & inference.ServerReadyResponse.$Shape} ServerReadyResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ServerReadyResponse & inference.ServerReadyResponse.$Shape;

        /**
         * Creates a ServerReadyResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ServerReadyResponse
         */
        static fromObject(object: { [k: string]: any }): inference.ServerReadyResponse;

        /**
         * Creates a plain object from a ServerReadyResponse message. Also converts values to other types if specified.
         * @param message ServerReadyResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ServerReadyResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ServerReadyResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ServerReadyResponse {

        /** Properties of a ServerReadyResponse. */
        interface $Properties {

            /** ServerReadyResponse ready */
            ready?: (boolean|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ServerReadyResponse. */
        type $Shape = inference.ServerReadyResponse.$Properties;
    }

    /**
     * Properties of a ModelReadyRequest.
     * @deprecated Use inference.ModelReadyRequest.$Properties instead.
     */
    interface IModelReadyRequest extends inference.ModelReadyRequest.$Properties {
    }

    /** Represents a ModelReadyRequest. */
    class ModelReadyRequest {

        /**
         * Constructs a new ModelReadyRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelReadyRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelReadyRequest name. */
        name: string;

        /** ModelReadyRequest version. */
        version: string;

        /**
         * Creates a new ModelReadyRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelReadyRequest instance
         */
        static create(properties: inference.ModelReadyRequest.$Shape): inference.ModelReadyRequest & inference.ModelReadyRequest.$Shape;
        static create(properties?: inference.ModelReadyRequest.$Properties): inference.ModelReadyRequest;

        /**
         * Encodes the specified ModelReadyRequest message. Does not implicitly {@link inference.ModelReadyRequest.verify|verify} messages.
         * @param message ModelReadyRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelReadyRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelReadyRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelReadyRequest & inference.ModelReadyRequest.$Shape} ModelReadyRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelReadyRequest & inference.ModelReadyRequest.$Shape;

        /**
         * Creates a ModelReadyRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelReadyRequest
         */
        static fromObject(object: { [k: string]: any }): inference.ModelReadyRequest;

        /**
         * Creates a plain object from a ModelReadyRequest message. Also converts values to other types if specified.
         * @param message ModelReadyRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelReadyRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelReadyRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelReadyRequest {

        /** Properties of a ModelReadyRequest. */
        interface $Properties {

            /** ModelReadyRequest name */
            name?: (string|null);

            /** ModelReadyRequest version */
            version?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelReadyRequest. */
        type $Shape = inference.ModelReadyRequest.$Properties;
    }

    /**
     * Properties of a ModelReadyResponse.
     * @deprecated Use inference.ModelReadyResponse.$Properties instead.
     */
    interface IModelReadyResponse extends inference.ModelReadyResponse.$Properties {
    }

    /** Represents a ModelReadyResponse. */
    class ModelReadyResponse {

        /**
         * Constructs a new ModelReadyResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelReadyResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelReadyResponse ready. */
        ready: boolean;

        /**
         * Creates a new ModelReadyResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelReadyResponse instance
         */
        static create(properties: inference.ModelReadyResponse.$Shape): inference.ModelReadyResponse & inference.ModelReadyResponse.$Shape;
        static create(properties?: inference.ModelReadyResponse.$Properties): inference.ModelReadyResponse;

        /**
         * Encodes the specified ModelReadyResponse message. Does not implicitly {@link inference.ModelReadyResponse.verify|verify} messages.
         * @param message ModelReadyResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelReadyResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelReadyResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelReadyResponse & inference.ModelReadyResponse.$Shape} ModelReadyResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelReadyResponse & inference.ModelReadyResponse.$Shape;

        /**
         * Creates a ModelReadyResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelReadyResponse
         */
        static fromObject(object: { [k: string]: any }): inference.ModelReadyResponse;

        /**
         * Creates a plain object from a ModelReadyResponse message. Also converts values to other types if specified.
         * @param message ModelReadyResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelReadyResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelReadyResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelReadyResponse {

        /** Properties of a ModelReadyResponse. */
        interface $Properties {

            /** ModelReadyResponse ready */
            ready?: (boolean|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelReadyResponse. */
        type $Shape = inference.ModelReadyResponse.$Properties;
    }

    /**
     * Properties of a ServerMetadataRequest.
     * @deprecated Use inference.ServerMetadataRequest.$Properties instead.
     */
    interface IServerMetadataRequest extends inference.ServerMetadataRequest.$Properties {
    }

    /** Represents a ServerMetadataRequest. */
    class ServerMetadataRequest {

        /**
         * Constructs a new ServerMetadataRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ServerMetadataRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /**
         * Creates a new ServerMetadataRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ServerMetadataRequest instance
         */
        static create(properties: inference.ServerMetadataRequest.$Shape): inference.ServerMetadataRequest & inference.ServerMetadataRequest.$Shape;
        static create(properties?: inference.ServerMetadataRequest.$Properties): inference.ServerMetadataRequest;

        /**
         * Encodes the specified ServerMetadataRequest message. Does not implicitly {@link inference.ServerMetadataRequest.verify|verify} messages.
         * @param message ServerMetadataRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ServerMetadataRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ServerMetadataRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ServerMetadataRequest & inference.ServerMetadataRequest.$Shape} ServerMetadataRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ServerMetadataRequest & inference.ServerMetadataRequest.$Shape;

        /**
         * Creates a ServerMetadataRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ServerMetadataRequest
         */
        static fromObject(object: { [k: string]: any }): inference.ServerMetadataRequest;

        /**
         * Creates a plain object from a ServerMetadataRequest message. Also converts values to other types if specified.
         * @param message ServerMetadataRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ServerMetadataRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ServerMetadataRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ServerMetadataRequest {

        /** Properties of a ServerMetadataRequest. */
        interface $Properties {

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ServerMetadataRequest. */
        type $Shape = inference.ServerMetadataRequest.$Properties;
    }

    /**
     * Properties of a ServerMetadataResponse.
     * @deprecated Use inference.ServerMetadataResponse.$Properties instead.
     */
    interface IServerMetadataResponse extends inference.ServerMetadataResponse.$Properties {
    }

    /** Represents a ServerMetadataResponse. */
    class ServerMetadataResponse {

        /**
         * Constructs a new ServerMetadataResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ServerMetadataResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ServerMetadataResponse name. */
        name: string;

        /** ServerMetadataResponse version. */
        version: string;

        /** ServerMetadataResponse extensions. */
        extensions: string[];

        /**
         * Creates a new ServerMetadataResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ServerMetadataResponse instance
         */
        static create(properties: inference.ServerMetadataResponse.$Shape): inference.ServerMetadataResponse & inference.ServerMetadataResponse.$Shape;
        static create(properties?: inference.ServerMetadataResponse.$Properties): inference.ServerMetadataResponse;

        /**
         * Encodes the specified ServerMetadataResponse message. Does not implicitly {@link inference.ServerMetadataResponse.verify|verify} messages.
         * @param message ServerMetadataResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ServerMetadataResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ServerMetadataResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ServerMetadataResponse & inference.ServerMetadataResponse.$Shape} ServerMetadataResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ServerMetadataResponse & inference.ServerMetadataResponse.$Shape;

        /**
         * Creates a ServerMetadataResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ServerMetadataResponse
         */
        static fromObject(object: { [k: string]: any }): inference.ServerMetadataResponse;

        /**
         * Creates a plain object from a ServerMetadataResponse message. Also converts values to other types if specified.
         * @param message ServerMetadataResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ServerMetadataResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ServerMetadataResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ServerMetadataResponse {

        /** Properties of a ServerMetadataResponse. */
        interface $Properties {

            /** ServerMetadataResponse name */
            name?: (string|null);

            /** ServerMetadataResponse version */
            version?: (string|null);

            /** ServerMetadataResponse extensions */
            extensions?: (string[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ServerMetadataResponse. */
        type $Shape = inference.ServerMetadataResponse.$Properties;
    }

    /**
     * Properties of a ModelMetadataRequest.
     * @deprecated Use inference.ModelMetadataRequest.$Properties instead.
     */
    interface IModelMetadataRequest extends inference.ModelMetadataRequest.$Properties {
    }

    /** Represents a ModelMetadataRequest. */
    class ModelMetadataRequest {

        /**
         * Constructs a new ModelMetadataRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelMetadataRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelMetadataRequest name. */
        name: string;

        /** ModelMetadataRequest version. */
        version: string;

        /**
         * Creates a new ModelMetadataRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelMetadataRequest instance
         */
        static create(properties: inference.ModelMetadataRequest.$Shape): inference.ModelMetadataRequest & inference.ModelMetadataRequest.$Shape;
        static create(properties?: inference.ModelMetadataRequest.$Properties): inference.ModelMetadataRequest;

        /**
         * Encodes the specified ModelMetadataRequest message. Does not implicitly {@link inference.ModelMetadataRequest.verify|verify} messages.
         * @param message ModelMetadataRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelMetadataRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelMetadataRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelMetadataRequest & inference.ModelMetadataRequest.$Shape} ModelMetadataRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelMetadataRequest & inference.ModelMetadataRequest.$Shape;

        /**
         * Creates a ModelMetadataRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelMetadataRequest
         */
        static fromObject(object: { [k: string]: any }): inference.ModelMetadataRequest;

        /**
         * Creates a plain object from a ModelMetadataRequest message. Also converts values to other types if specified.
         * @param message ModelMetadataRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelMetadataRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelMetadataRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelMetadataRequest {

        /** Properties of a ModelMetadataRequest. */
        interface $Properties {

            /** ModelMetadataRequest name */
            name?: (string|null);

            /** ModelMetadataRequest version */
            version?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelMetadataRequest. */
        type $Shape = inference.ModelMetadataRequest.$Properties;
    }

    /**
     * Properties of a ModelMetadataResponse.
     * @deprecated Use inference.ModelMetadataResponse.$Properties instead.
     */
    interface IModelMetadataResponse extends inference.ModelMetadataResponse.$Properties {
    }

    /** Represents a ModelMetadataResponse. */
    class ModelMetadataResponse {

        /**
         * Constructs a new ModelMetadataResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelMetadataResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelMetadataResponse name. */
        name: string;

        /** ModelMetadataResponse versions. */
        versions: string[];

        /** ModelMetadataResponse platform. */
        platform: string;

        /** ModelMetadataResponse inputs. */
        inputs: inference.ModelMetadataResponse.TensorMetadata.$Properties[];

        /** ModelMetadataResponse outputs. */
        outputs: inference.ModelMetadataResponse.TensorMetadata.$Properties[];

        /**
         * Creates a new ModelMetadataResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelMetadataResponse instance
         */
        static create(properties: inference.ModelMetadataResponse.$Shape): inference.ModelMetadataResponse & inference.ModelMetadataResponse.$Shape;
        static create(properties?: inference.ModelMetadataResponse.$Properties): inference.ModelMetadataResponse;

        /**
         * Encodes the specified ModelMetadataResponse message. Does not implicitly {@link inference.ModelMetadataResponse.verify|verify} messages.
         * @param message ModelMetadataResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelMetadataResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelMetadataResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelMetadataResponse & inference.ModelMetadataResponse.$Shape} ModelMetadataResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelMetadataResponse & inference.ModelMetadataResponse.$Shape;

        /**
         * Creates a ModelMetadataResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelMetadataResponse
         */
        static fromObject(object: { [k: string]: any }): inference.ModelMetadataResponse;

        /**
         * Creates a plain object from a ModelMetadataResponse message. Also converts values to other types if specified.
         * @param message ModelMetadataResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelMetadataResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelMetadataResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelMetadataResponse {

        /** Properties of a ModelMetadataResponse. */
        interface $Properties {

            /** ModelMetadataResponse name */
            name?: (string|null);

            /** ModelMetadataResponse versions */
            versions?: (string[]|null);

            /** ModelMetadataResponse platform */
            platform?: (string|null);

            /** ModelMetadataResponse inputs */
            inputs?: (inference.ModelMetadataResponse.TensorMetadata.$Properties[]|null);

            /** ModelMetadataResponse outputs */
            outputs?: (inference.ModelMetadataResponse.TensorMetadata.$Properties[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelMetadataResponse. */
        type $Shape = inference.ModelMetadataResponse.$Properties;

        /**
         * Properties of a TensorMetadata.
         * @deprecated Use inference.ModelMetadataResponse.TensorMetadata.$Properties instead.
         */
        interface ITensorMetadata extends inference.ModelMetadataResponse.TensorMetadata.$Properties {
        }

        /** Represents a TensorMetadata. */
        class TensorMetadata {

            /**
             * Constructs a new TensorMetadata.
             * @param [properties] Properties to set
             */
            constructor(properties?: inference.ModelMetadataResponse.TensorMetadata.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** TensorMetadata name. */
            name: string;

            /** TensorMetadata datatype. */
            datatype: string;

            /** TensorMetadata shape. */
            shape: (number|Long)[];

            /**
             * Creates a new TensorMetadata instance using the specified properties.
             * @param [properties] Properties to set
             * @returns TensorMetadata instance
             */
            static create(properties: inference.ModelMetadataResponse.TensorMetadata.$Shape): inference.ModelMetadataResponse.TensorMetadata & inference.ModelMetadataResponse.TensorMetadata.$Shape;
            static create(properties?: inference.ModelMetadataResponse.TensorMetadata.$Properties): inference.ModelMetadataResponse.TensorMetadata;

            /**
             * Encodes the specified TensorMetadata message. Does not implicitly {@link inference.ModelMetadataResponse.TensorMetadata.verify|verify} messages.
             * @param message TensorMetadata message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: inference.ModelMetadataResponse.TensorMetadata.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a TensorMetadata message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {inference.ModelMetadataResponse.TensorMetadata & inference.ModelMetadataResponse.TensorMetadata.$Shape} TensorMetadata
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelMetadataResponse.TensorMetadata & inference.ModelMetadataResponse.TensorMetadata.$Shape;

            /**
             * Creates a TensorMetadata message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns TensorMetadata
             */
            static fromObject(object: { [k: string]: any }): inference.ModelMetadataResponse.TensorMetadata;

            /**
             * Creates a plain object from a TensorMetadata message. Also converts values to other types if specified.
             * @param message TensorMetadata
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: inference.ModelMetadataResponse.TensorMetadata, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this TensorMetadata to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace TensorMetadata {

            /** Properties of a TensorMetadata. */
            interface $Properties {

                /** TensorMetadata name */
                name?: (string|null);

                /** TensorMetadata datatype */
                datatype?: (string|null);

                /** TensorMetadata shape */
                shape?: ((number|Long)[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a TensorMetadata. */
            type $Shape = inference.ModelMetadataResponse.TensorMetadata.$Properties;
        }
    }

    /**
     * Properties of an InferParameter.
     * @deprecated Use inference.InferParameter.$Properties instead.
     */
    interface IInferParameter extends inference.InferParameter.$Properties {
    }

    /** Represents an InferParameter. */
    class InferParameter {

        /**
         * Constructs a new InferParameter.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.InferParameter.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** InferParameter bool_param. */
        bool_param?: (boolean|null);

        /** InferParameter int64_param. */
        int64_param?: (number|Long|null);

        /** InferParameter string_param. */
        string_param?: (string|null);

        /** InferParameter double_param. */
        double_param?: (number|null);

        /** InferParameter uint64_param. */
        uint64_param?: (number|Long|null);

        /** InferParameter parameter_choice. */
        parameter_choice?: ("bool_param"|"int64_param"|"string_param"|"double_param"|"uint64_param");

        /**
         * Creates a new InferParameter instance using the specified properties.
         * @param [properties] Properties to set
         * @returns InferParameter instance
         */
        static create(properties: inference.InferParameter.$Shape): inference.InferParameter & inference.InferParameter.$Shape;
        static create(properties?: inference.InferParameter.$Properties): inference.InferParameter;

        /**
         * Encodes the specified InferParameter message. Does not implicitly {@link inference.InferParameter.verify|verify} messages.
         * @param message InferParameter message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.InferParameter.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes an InferParameter message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.InferParameter & inference.InferParameter.$Shape} InferParameter
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.InferParameter & inference.InferParameter.$Shape;

        /**
         * Creates an InferParameter message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns InferParameter
         */
        static fromObject(object: { [k: string]: any }): inference.InferParameter;

        /**
         * Creates a plain object from an InferParameter message. Also converts values to other types if specified.
         * @param message InferParameter
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.InferParameter, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this InferParameter to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace InferParameter {

        /** Properties of an InferParameter. */
        interface $Properties {

            /** InferParameter bool_param */
            bool_param?: (boolean|null);

            /** InferParameter int64_param */
            int64_param?: (number|Long|null);

            /** InferParameter string_param */
            string_param?: (string|null);

            /** InferParameter double_param */
            double_param?: (number|null);

            /** InferParameter uint64_param */
            uint64_param?: (number|Long|null);

            /** InferParameter parameter_choice */
            parameter_choice?: ("bool_param"|"int64_param"|"string_param"|"double_param"|"uint64_param");

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Narrowed shape of an InferParameter. */
        type $Shape = {
          bool_param?: boolean|null;
          int64_param?: number|Long|null;
          string_param?: string|null;
          double_param?: number|null;
          uint64_param?: number|Long|null;
          $unknowns?: Uint8Array[];
        } & (
          ({ parameter_choice?: undefined; bool_param?: null; int64_param?: null; string_param?: null; double_param?: null; uint64_param?: null }|{ parameter_choice?: "bool_param"; bool_param: boolean; int64_param?: null; string_param?: null; double_param?: null; uint64_param?: null }|{ parameter_choice?: "int64_param"; bool_param?: null; int64_param: number|Long; string_param?: null; double_param?: null; uint64_param?: null }|{ parameter_choice?: "string_param"; bool_param?: null; int64_param?: null; string_param: string; double_param?: null; uint64_param?: null }|{ parameter_choice?: "double_param"; bool_param?: null; int64_param?: null; string_param?: null; double_param: number; uint64_param?: null }|{ parameter_choice?: "uint64_param"; bool_param?: null; int64_param?: null; string_param?: null; double_param?: null; uint64_param: number|Long })
        );
    }

    /**
     * Properties of an InferTensorContents.
     * @deprecated Use inference.InferTensorContents.$Properties instead.
     */
    interface IInferTensorContents extends inference.InferTensorContents.$Properties {
    }

    /** Represents an InferTensorContents. */
    class InferTensorContents {

        /**
         * Constructs a new InferTensorContents.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.InferTensorContents.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** InferTensorContents bool_contents. */
        bool_contents: boolean[];

        /** InferTensorContents int_contents. */
        int_contents: number[];

        /** InferTensorContents int64_contents. */
        int64_contents: (number|Long)[];

        /** InferTensorContents uint_contents. */
        uint_contents: number[];

        /** InferTensorContents uint64_contents. */
        uint64_contents: (number|Long)[];

        /** InferTensorContents fp32_contents. */
        fp32_contents: number[];

        /** InferTensorContents fp64_contents. */
        fp64_contents: number[];

        /** InferTensorContents bytes_contents. */
        bytes_contents: Uint8Array[];

        /**
         * Creates a new InferTensorContents instance using the specified properties.
         * @param [properties] Properties to set
         * @returns InferTensorContents instance
         */
        static create(properties: inference.InferTensorContents.$Shape): inference.InferTensorContents & inference.InferTensorContents.$Shape;
        static create(properties?: inference.InferTensorContents.$Properties): inference.InferTensorContents;

        /**
         * Encodes the specified InferTensorContents message. Does not implicitly {@link inference.InferTensorContents.verify|verify} messages.
         * @param message InferTensorContents message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.InferTensorContents.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes an InferTensorContents message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.InferTensorContents & inference.InferTensorContents.$Shape} InferTensorContents
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.InferTensorContents & inference.InferTensorContents.$Shape;

        /**
         * Creates an InferTensorContents message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns InferTensorContents
         */
        static fromObject(object: { [k: string]: any }): inference.InferTensorContents;

        /**
         * Creates a plain object from an InferTensorContents message. Also converts values to other types if specified.
         * @param message InferTensorContents
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.InferTensorContents, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this InferTensorContents to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace InferTensorContents {

        /** Properties of an InferTensorContents. */
        interface $Properties {

            /** InferTensorContents bool_contents */
            bool_contents?: (boolean[]|null);

            /** InferTensorContents int_contents */
            int_contents?: (number[]|null);

            /** InferTensorContents int64_contents */
            int64_contents?: ((number|Long)[]|null);

            /** InferTensorContents uint_contents */
            uint_contents?: (number[]|null);

            /** InferTensorContents uint64_contents */
            uint64_contents?: ((number|Long)[]|null);

            /** InferTensorContents fp32_contents */
            fp32_contents?: (number[]|null);

            /** InferTensorContents fp64_contents */
            fp64_contents?: (number[]|null);

            /** InferTensorContents bytes_contents */
            bytes_contents?: (Uint8Array[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of an InferTensorContents. */
        type $Shape = inference.InferTensorContents.$Properties;
    }

    /**
     * Properties of a ModelInferRequest.
     * @deprecated Use inference.ModelInferRequest.$Properties instead.
     */
    interface IModelInferRequest extends inference.ModelInferRequest.$Properties {
    }

    /** Represents a ModelInferRequest. */
    class ModelInferRequest {

        /**
         * Constructs a new ModelInferRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelInferRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelInferRequest model_name. */
        model_name: string;

        /** ModelInferRequest model_version. */
        model_version: string;

        /** ModelInferRequest id. */
        id: string;

        /** ModelInferRequest parameters. */
        parameters: { [k: string]: inference.InferParameter.$Properties };

        /** ModelInferRequest inputs. */
        inputs: inference.ModelInferRequest.InferInputTensor.$Properties[];

        /** ModelInferRequest outputs. */
        outputs: inference.ModelInferRequest.InferRequestedOutputTensor.$Properties[];

        /** ModelInferRequest raw_input_contents. */
        raw_input_contents: Uint8Array[];

        /**
         * Creates a new ModelInferRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelInferRequest instance
         */
        static create(properties: inference.ModelInferRequest.$Shape): inference.ModelInferRequest & inference.ModelInferRequest.$Shape;
        static create(properties?: inference.ModelInferRequest.$Properties): inference.ModelInferRequest;

        /**
         * Encodes the specified ModelInferRequest message. Does not implicitly {@link inference.ModelInferRequest.verify|verify} messages.
         * @param message ModelInferRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelInferRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelInferRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelInferRequest & inference.ModelInferRequest.$Shape} ModelInferRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelInferRequest & inference.ModelInferRequest.$Shape;

        /**
         * Creates a ModelInferRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelInferRequest
         */
        static fromObject(object: { [k: string]: any }): inference.ModelInferRequest;

        /**
         * Creates a plain object from a ModelInferRequest message. Also converts values to other types if specified.
         * @param message ModelInferRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelInferRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelInferRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelInferRequest {

        /** Properties of a ModelInferRequest. */
        interface $Properties {

            /** ModelInferRequest model_name */
            model_name?: (string|null);

            /** ModelInferRequest model_version */
            model_version?: (string|null);

            /** ModelInferRequest id */
            id?: (string|null);

            /** ModelInferRequest parameters */
            parameters?: ({ [k: string]: inference.InferParameter.$Properties }|null);

            /** ModelInferRequest inputs */
            inputs?: (inference.ModelInferRequest.InferInputTensor.$Properties[]|null);

            /** ModelInferRequest outputs */
            outputs?: (inference.ModelInferRequest.InferRequestedOutputTensor.$Properties[]|null);

            /** ModelInferRequest raw_input_contents */
            raw_input_contents?: (Uint8Array[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelInferRequest. */
        type $Shape = {
          model_name?: string|null;
          model_version?: string|null;
          id?: string|null;
          parameters?: { [k: string]: inference.InferParameter.$Shape }|null;
          inputs?: inference.ModelInferRequest.InferInputTensor.$Shape[]|null;
          outputs?: inference.ModelInferRequest.InferRequestedOutputTensor.$Shape[]|null;
          raw_input_contents?: Uint8Array[]|null;
          $unknowns?: Uint8Array[];
        };

        /**
         * Properties of an InferInputTensor.
         * @deprecated Use inference.ModelInferRequest.InferInputTensor.$Properties instead.
         */
        interface IInferInputTensor extends inference.ModelInferRequest.InferInputTensor.$Properties {
        }

        /** Represents an InferInputTensor. */
        class InferInputTensor {

            /**
             * Constructs a new InferInputTensor.
             * @param [properties] Properties to set
             */
            constructor(properties?: inference.ModelInferRequest.InferInputTensor.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** InferInputTensor name. */
            name: string;

            /** InferInputTensor datatype. */
            datatype: string;

            /** InferInputTensor shape. */
            shape: (number|Long)[];

            /** InferInputTensor parameters. */
            parameters: { [k: string]: inference.InferParameter.$Properties };

            /** InferInputTensor contents. */
            contents?: (inference.InferTensorContents.$Properties|null);

            /**
             * Creates a new InferInputTensor instance using the specified properties.
             * @param [properties] Properties to set
             * @returns InferInputTensor instance
             */
            static create(properties: inference.ModelInferRequest.InferInputTensor.$Shape): inference.ModelInferRequest.InferInputTensor & inference.ModelInferRequest.InferInputTensor.$Shape;
            static create(properties?: inference.ModelInferRequest.InferInputTensor.$Properties): inference.ModelInferRequest.InferInputTensor;

            /**
             * Encodes the specified InferInputTensor message. Does not implicitly {@link inference.ModelInferRequest.InferInputTensor.verify|verify} messages.
             * @param message InferInputTensor message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: inference.ModelInferRequest.InferInputTensor.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an InferInputTensor message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {inference.ModelInferRequest.InferInputTensor & inference.ModelInferRequest.InferInputTensor.$Shape} InferInputTensor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelInferRequest.InferInputTensor & inference.ModelInferRequest.InferInputTensor.$Shape;

            /**
             * Creates an InferInputTensor message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns InferInputTensor
             */
            static fromObject(object: { [k: string]: any }): inference.ModelInferRequest.InferInputTensor;

            /**
             * Creates a plain object from an InferInputTensor message. Also converts values to other types if specified.
             * @param message InferInputTensor
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: inference.ModelInferRequest.InferInputTensor, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this InferInputTensor to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace InferInputTensor {

            /** Properties of an InferInputTensor. */
            interface $Properties {

                /** InferInputTensor name */
                name?: (string|null);

                /** InferInputTensor datatype */
                datatype?: (string|null);

                /** InferInputTensor shape */
                shape?: ((number|Long)[]|null);

                /** InferInputTensor parameters */
                parameters?: ({ [k: string]: inference.InferParameter.$Properties }|null);

                /** InferInputTensor contents */
                contents?: (inference.InferTensorContents.$Properties|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an InferInputTensor. */
            type $Shape = {
              name?: string|null;
              datatype?: string|null;
              shape?: (number|Long)[]|null;
              parameters?: { [k: string]: inference.InferParameter.$Shape }|null;
              contents?: inference.InferTensorContents.$Shape|null;
              $unknowns?: Uint8Array[];
            };
        }

        /**
         * Properties of an InferRequestedOutputTensor.
         * @deprecated Use inference.ModelInferRequest.InferRequestedOutputTensor.$Properties instead.
         */
        interface IInferRequestedOutputTensor extends inference.ModelInferRequest.InferRequestedOutputTensor.$Properties {
        }

        /** Represents an InferRequestedOutputTensor. */
        class InferRequestedOutputTensor {

            /**
             * Constructs a new InferRequestedOutputTensor.
             * @param [properties] Properties to set
             */
            constructor(properties?: inference.ModelInferRequest.InferRequestedOutputTensor.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** InferRequestedOutputTensor name. */
            name: string;

            /** InferRequestedOutputTensor parameters. */
            parameters: { [k: string]: inference.InferParameter.$Properties };

            /**
             * Creates a new InferRequestedOutputTensor instance using the specified properties.
             * @param [properties] Properties to set
             * @returns InferRequestedOutputTensor instance
             */
            static create(properties: inference.ModelInferRequest.InferRequestedOutputTensor.$Shape): inference.ModelInferRequest.InferRequestedOutputTensor & inference.ModelInferRequest.InferRequestedOutputTensor.$Shape;
            static create(properties?: inference.ModelInferRequest.InferRequestedOutputTensor.$Properties): inference.ModelInferRequest.InferRequestedOutputTensor;

            /**
             * Encodes the specified InferRequestedOutputTensor message. Does not implicitly {@link inference.ModelInferRequest.InferRequestedOutputTensor.verify|verify} messages.
             * @param message InferRequestedOutputTensor message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: inference.ModelInferRequest.InferRequestedOutputTensor.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an InferRequestedOutputTensor message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {inference.ModelInferRequest.InferRequestedOutputTensor & inference.ModelInferRequest.InferRequestedOutputTensor.$Shape} InferRequestedOutputTensor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelInferRequest.InferRequestedOutputTensor & inference.ModelInferRequest.InferRequestedOutputTensor.$Shape;

            /**
             * Creates an InferRequestedOutputTensor message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns InferRequestedOutputTensor
             */
            static fromObject(object: { [k: string]: any }): inference.ModelInferRequest.InferRequestedOutputTensor;

            /**
             * Creates a plain object from an InferRequestedOutputTensor message. Also converts values to other types if specified.
             * @param message InferRequestedOutputTensor
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: inference.ModelInferRequest.InferRequestedOutputTensor, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this InferRequestedOutputTensor to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace InferRequestedOutputTensor {

            /** Properties of an InferRequestedOutputTensor. */
            interface $Properties {

                /** InferRequestedOutputTensor name */
                name?: (string|null);

                /** InferRequestedOutputTensor parameters */
                parameters?: ({ [k: string]: inference.InferParameter.$Properties }|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an InferRequestedOutputTensor. */
            type $Shape = {
              name?: string|null;
              parameters?: { [k: string]: inference.InferParameter.$Shape }|null;
              $unknowns?: Uint8Array[];
            };
        }
    }

    /**
     * Properties of a ModelInferResponse.
     * @deprecated Use inference.ModelInferResponse.$Properties instead.
     */
    interface IModelInferResponse extends inference.ModelInferResponse.$Properties {
    }

    /** Represents a ModelInferResponse. */
    class ModelInferResponse {

        /**
         * Constructs a new ModelInferResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelInferResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelInferResponse model_name. */
        model_name: string;

        /** ModelInferResponse model_version. */
        model_version: string;

        /** ModelInferResponse id. */
        id: string;

        /** ModelInferResponse parameters. */
        parameters: { [k: string]: inference.InferParameter.$Properties };

        /** ModelInferResponse outputs. */
        outputs: inference.ModelInferResponse.InferOutputTensor.$Properties[];

        /** ModelInferResponse raw_output_contents. */
        raw_output_contents: Uint8Array[];

        /**
         * Creates a new ModelInferResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelInferResponse instance
         */
        static create(properties: inference.ModelInferResponse.$Shape): inference.ModelInferResponse & inference.ModelInferResponse.$Shape;
        static create(properties?: inference.ModelInferResponse.$Properties): inference.ModelInferResponse;

        /**
         * Encodes the specified ModelInferResponse message. Does not implicitly {@link inference.ModelInferResponse.verify|verify} messages.
         * @param message ModelInferResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelInferResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelInferResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelInferResponse & inference.ModelInferResponse.$Shape} ModelInferResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelInferResponse & inference.ModelInferResponse.$Shape;

        /**
         * Creates a ModelInferResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelInferResponse
         */
        static fromObject(object: { [k: string]: any }): inference.ModelInferResponse;

        /**
         * Creates a plain object from a ModelInferResponse message. Also converts values to other types if specified.
         * @param message ModelInferResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelInferResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelInferResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelInferResponse {

        /** Properties of a ModelInferResponse. */
        interface $Properties {

            /** ModelInferResponse model_name */
            model_name?: (string|null);

            /** ModelInferResponse model_version */
            model_version?: (string|null);

            /** ModelInferResponse id */
            id?: (string|null);

            /** ModelInferResponse parameters */
            parameters?: ({ [k: string]: inference.InferParameter.$Properties }|null);

            /** ModelInferResponse outputs */
            outputs?: (inference.ModelInferResponse.InferOutputTensor.$Properties[]|null);

            /** ModelInferResponse raw_output_contents */
            raw_output_contents?: (Uint8Array[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelInferResponse. */
        type $Shape = {
          model_name?: string|null;
          model_version?: string|null;
          id?: string|null;
          parameters?: { [k: string]: inference.InferParameter.$Shape }|null;
          outputs?: inference.ModelInferResponse.InferOutputTensor.$Shape[]|null;
          raw_output_contents?: Uint8Array[]|null;
          $unknowns?: Uint8Array[];
        };

        /**
         * Properties of an InferOutputTensor.
         * @deprecated Use inference.ModelInferResponse.InferOutputTensor.$Properties instead.
         */
        interface IInferOutputTensor extends inference.ModelInferResponse.InferOutputTensor.$Properties {
        }

        /** Represents an InferOutputTensor. */
        class InferOutputTensor {

            /**
             * Constructs a new InferOutputTensor.
             * @param [properties] Properties to set
             */
            constructor(properties?: inference.ModelInferResponse.InferOutputTensor.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** InferOutputTensor name. */
            name: string;

            /** InferOutputTensor datatype. */
            datatype: string;

            /** InferOutputTensor shape. */
            shape: (number|Long)[];

            /** InferOutputTensor parameters. */
            parameters: { [k: string]: inference.InferParameter.$Properties };

            /** InferOutputTensor contents. */
            contents?: (inference.InferTensorContents.$Properties|null);

            /**
             * Creates a new InferOutputTensor instance using the specified properties.
             * @param [properties] Properties to set
             * @returns InferOutputTensor instance
             */
            static create(properties: inference.ModelInferResponse.InferOutputTensor.$Shape): inference.ModelInferResponse.InferOutputTensor & inference.ModelInferResponse.InferOutputTensor.$Shape;
            static create(properties?: inference.ModelInferResponse.InferOutputTensor.$Properties): inference.ModelInferResponse.InferOutputTensor;

            /**
             * Encodes the specified InferOutputTensor message. Does not implicitly {@link inference.ModelInferResponse.InferOutputTensor.verify|verify} messages.
             * @param message InferOutputTensor message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: inference.ModelInferResponse.InferOutputTensor.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an InferOutputTensor message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {inference.ModelInferResponse.InferOutputTensor & inference.ModelInferResponse.InferOutputTensor.$Shape} InferOutputTensor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelInferResponse.InferOutputTensor & inference.ModelInferResponse.InferOutputTensor.$Shape;

            /**
             * Creates an InferOutputTensor message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns InferOutputTensor
             */
            static fromObject(object: { [k: string]: any }): inference.ModelInferResponse.InferOutputTensor;

            /**
             * Creates a plain object from an InferOutputTensor message. Also converts values to other types if specified.
             * @param message InferOutputTensor
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: inference.ModelInferResponse.InferOutputTensor, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this InferOutputTensor to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace InferOutputTensor {

            /** Properties of an InferOutputTensor. */
            interface $Properties {

                /** InferOutputTensor name */
                name?: (string|null);

                /** InferOutputTensor datatype */
                datatype?: (string|null);

                /** InferOutputTensor shape */
                shape?: ((number|Long)[]|null);

                /** InferOutputTensor parameters */
                parameters?: ({ [k: string]: inference.InferParameter.$Properties }|null);

                /** InferOutputTensor contents */
                contents?: (inference.InferTensorContents.$Properties|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an InferOutputTensor. */
            type $Shape = {
              name?: string|null;
              datatype?: string|null;
              shape?: (number|Long)[]|null;
              parameters?: { [k: string]: inference.InferParameter.$Shape }|null;
              contents?: inference.InferTensorContents.$Shape|null;
              $unknowns?: Uint8Array[];
            };
        }
    }

    /**
     * Properties of a ModelStreamInferResponse.
     * @deprecated Use inference.ModelStreamInferResponse.$Properties instead.
     */
    interface IModelStreamInferResponse extends inference.ModelStreamInferResponse.$Properties {
    }

    /** Represents a ModelStreamInferResponse. */
    class ModelStreamInferResponse {

        /**
         * Constructs a new ModelStreamInferResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelStreamInferResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelStreamInferResponse error_message. */
        error_message: string;

        /** ModelStreamInferResponse infer_response. */
        infer_response?: (inference.ModelInferResponse.$Properties|null);

        /**
         * Creates a new ModelStreamInferResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelStreamInferResponse instance
         */
        static create(properties: inference.ModelStreamInferResponse.$Shape): inference.ModelStreamInferResponse & inference.ModelStreamInferResponse.$Shape;
        static create(properties?: inference.ModelStreamInferResponse.$Properties): inference.ModelStreamInferResponse;

        /**
         * Encodes the specified ModelStreamInferResponse message. Does not implicitly {@link inference.ModelStreamInferResponse.verify|verify} messages.
         * @param message ModelStreamInferResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelStreamInferResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelStreamInferResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelStreamInferResponse & inference.ModelStreamInferResponse.$Shape} ModelStreamInferResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelStreamInferResponse & inference.ModelStreamInferResponse.$Shape;

        /**
         * Creates a ModelStreamInferResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelStreamInferResponse
         */
        static fromObject(object: { [k: string]: any }): inference.ModelStreamInferResponse;

        /**
         * Creates a plain object from a ModelStreamInferResponse message. Also converts values to other types if specified.
         * @param message ModelStreamInferResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelStreamInferResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelStreamInferResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelStreamInferResponse {

        /** Properties of a ModelStreamInferResponse. */
        interface $Properties {

            /** ModelStreamInferResponse error_message */
            error_message?: (string|null);

            /** ModelStreamInferResponse infer_response */
            infer_response?: (inference.ModelInferResponse.$Properties|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelStreamInferResponse. */
        type $Shape = {
          error_message?: string|null;
          infer_response?: inference.ModelInferResponse.$Shape|null;
          $unknowns?: Uint8Array[];
        };
    }

    /**
     * Properties of a ModelConfigRequest.
     * @deprecated Use inference.ModelConfigRequest.$Properties instead.
     */
    interface IModelConfigRequest extends inference.ModelConfigRequest.$Properties {
    }

    /** Represents a ModelConfigRequest. */
    class ModelConfigRequest {

        /**
         * Constructs a new ModelConfigRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelConfigRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelConfigRequest name. */
        name: string;

        /** ModelConfigRequest version. */
        version: string;

        /**
         * Creates a new ModelConfigRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelConfigRequest instance
         */
        static create(properties: inference.ModelConfigRequest.$Shape): inference.ModelConfigRequest & inference.ModelConfigRequest.$Shape;
        static create(properties?: inference.ModelConfigRequest.$Properties): inference.ModelConfigRequest;

        /**
         * Encodes the specified ModelConfigRequest message. Does not implicitly {@link inference.ModelConfigRequest.verify|verify} messages.
         * @param message ModelConfigRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelConfigRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelConfigRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelConfigRequest & inference.ModelConfigRequest.$Shape} ModelConfigRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelConfigRequest & inference.ModelConfigRequest.$Shape;

        /**
         * Creates a ModelConfigRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelConfigRequest
         */
        static fromObject(object: { [k: string]: any }): inference.ModelConfigRequest;

        /**
         * Creates a plain object from a ModelConfigRequest message. Also converts values to other types if specified.
         * @param message ModelConfigRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelConfigRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelConfigRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelConfigRequest {

        /** Properties of a ModelConfigRequest. */
        interface $Properties {

            /** ModelConfigRequest name */
            name?: (string|null);

            /** ModelConfigRequest version */
            version?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelConfigRequest. */
        type $Shape = inference.ModelConfigRequest.$Properties;
    }

    /**
     * Properties of a ModelConfigResponse.
     * @deprecated Use inference.ModelConfigResponse.$Properties instead.
     */
    interface IModelConfigResponse extends inference.ModelConfigResponse.$Properties {
    }

    /** Represents a ModelConfigResponse. */
    class ModelConfigResponse {

        /**
         * Constructs a new ModelConfigResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelConfigResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelConfigResponse config. */
        config?: (inference.ModelConfig.$Properties|null);

        /**
         * Creates a new ModelConfigResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelConfigResponse instance
         */
        static create(properties: inference.ModelConfigResponse.$Shape): inference.ModelConfigResponse & inference.ModelConfigResponse.$Shape;
        static create(properties?: inference.ModelConfigResponse.$Properties): inference.ModelConfigResponse;

        /**
         * Encodes the specified ModelConfigResponse message. Does not implicitly {@link inference.ModelConfigResponse.verify|verify} messages.
         * @param message ModelConfigResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelConfigResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelConfigResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelConfigResponse & inference.ModelConfigResponse.$Shape} ModelConfigResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelConfigResponse & inference.ModelConfigResponse.$Shape;

        /**
         * Creates a ModelConfigResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelConfigResponse
         */
        static fromObject(object: { [k: string]: any }): inference.ModelConfigResponse;

        /**
         * Creates a plain object from a ModelConfigResponse message. Also converts values to other types if specified.
         * @param message ModelConfigResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelConfigResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelConfigResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelConfigResponse {

        /** Properties of a ModelConfigResponse. */
        interface $Properties {

            /** ModelConfigResponse config */
            config?: (inference.ModelConfig.$Properties|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelConfigResponse. */
        type $Shape = {
          config?: inference.ModelConfig.$Shape|null;
          $unknowns?: Uint8Array[];
        };
    }

    /**
     * Properties of a ModelStatisticsRequest.
     * @deprecated Use inference.ModelStatisticsRequest.$Properties instead.
     */
    interface IModelStatisticsRequest extends inference.ModelStatisticsRequest.$Properties {
    }

    /** Represents a ModelStatisticsRequest. */
    class ModelStatisticsRequest {

        /**
         * Constructs a new ModelStatisticsRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelStatisticsRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelStatisticsRequest name. */
        name: string;

        /** ModelStatisticsRequest version. */
        version: string;

        /**
         * Creates a new ModelStatisticsRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelStatisticsRequest instance
         */
        static create(properties: inference.ModelStatisticsRequest.$Shape): inference.ModelStatisticsRequest & inference.ModelStatisticsRequest.$Shape;
        static create(properties?: inference.ModelStatisticsRequest.$Properties): inference.ModelStatisticsRequest;

        /**
         * Encodes the specified ModelStatisticsRequest message. Does not implicitly {@link inference.ModelStatisticsRequest.verify|verify} messages.
         * @param message ModelStatisticsRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelStatisticsRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelStatisticsRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelStatisticsRequest & inference.ModelStatisticsRequest.$Shape} ModelStatisticsRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelStatisticsRequest & inference.ModelStatisticsRequest.$Shape;

        /**
         * Creates a ModelStatisticsRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelStatisticsRequest
         */
        static fromObject(object: { [k: string]: any }): inference.ModelStatisticsRequest;

        /**
         * Creates a plain object from a ModelStatisticsRequest message. Also converts values to other types if specified.
         * @param message ModelStatisticsRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelStatisticsRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelStatisticsRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelStatisticsRequest {

        /** Properties of a ModelStatisticsRequest. */
        interface $Properties {

            /** ModelStatisticsRequest name */
            name?: (string|null);

            /** ModelStatisticsRequest version */
            version?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelStatisticsRequest. */
        type $Shape = inference.ModelStatisticsRequest.$Properties;
    }

    /**
     * Properties of a StatisticDuration.
     * @deprecated Use inference.StatisticDuration.$Properties instead.
     */
    interface IStatisticDuration extends inference.StatisticDuration.$Properties {
    }

    /** Represents a StatisticDuration. */
    class StatisticDuration {

        /**
         * Constructs a new StatisticDuration.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.StatisticDuration.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** StatisticDuration count. */
        count: (number|Long);

        /** StatisticDuration ns. */
        ns: (number|Long);

        /**
         * Creates a new StatisticDuration instance using the specified properties.
         * @param [properties] Properties to set
         * @returns StatisticDuration instance
         */
        static create(properties: inference.StatisticDuration.$Shape): inference.StatisticDuration & inference.StatisticDuration.$Shape;
        static create(properties?: inference.StatisticDuration.$Properties): inference.StatisticDuration;

        /**
         * Encodes the specified StatisticDuration message. Does not implicitly {@link inference.StatisticDuration.verify|verify} messages.
         * @param message StatisticDuration message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.StatisticDuration.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a StatisticDuration message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.StatisticDuration & inference.StatisticDuration.$Shape} StatisticDuration
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.StatisticDuration & inference.StatisticDuration.$Shape;

        /**
         * Creates a StatisticDuration message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns StatisticDuration
         */
        static fromObject(object: { [k: string]: any }): inference.StatisticDuration;

        /**
         * Creates a plain object from a StatisticDuration message. Also converts values to other types if specified.
         * @param message StatisticDuration
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.StatisticDuration, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this StatisticDuration to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace StatisticDuration {

        /** Properties of a StatisticDuration. */
        interface $Properties {

            /** StatisticDuration count */
            count?: (number|Long|null);

            /** StatisticDuration ns */
            ns?: (number|Long|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a StatisticDuration. */
        type $Shape = inference.StatisticDuration.$Properties;
    }

    /**
     * Properties of an InferStatistics.
     * @deprecated Use inference.InferStatistics.$Properties instead.
     */
    interface IInferStatistics extends inference.InferStatistics.$Properties {
    }

    /** Represents an InferStatistics. */
    class InferStatistics {

        /**
         * Constructs a new InferStatistics.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.InferStatistics.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** InferStatistics success. */
        success?: (inference.StatisticDuration.$Properties|null);

        /** InferStatistics fail. */
        fail?: (inference.StatisticDuration.$Properties|null);

        /** InferStatistics queue. */
        queue?: (inference.StatisticDuration.$Properties|null);

        /** InferStatistics compute_input. */
        compute_input?: (inference.StatisticDuration.$Properties|null);

        /** InferStatistics compute_infer. */
        compute_infer?: (inference.StatisticDuration.$Properties|null);

        /** InferStatistics compute_output. */
        compute_output?: (inference.StatisticDuration.$Properties|null);

        /** InferStatistics cache_hit. */
        cache_hit?: (inference.StatisticDuration.$Properties|null);

        /** InferStatistics cache_miss. */
        cache_miss?: (inference.StatisticDuration.$Properties|null);

        /**
         * Creates a new InferStatistics instance using the specified properties.
         * @param [properties] Properties to set
         * @returns InferStatistics instance
         */
        static create(properties: inference.InferStatistics.$Shape): inference.InferStatistics & inference.InferStatistics.$Shape;
        static create(properties?: inference.InferStatistics.$Properties): inference.InferStatistics;

        /**
         * Encodes the specified InferStatistics message. Does not implicitly {@link inference.InferStatistics.verify|verify} messages.
         * @param message InferStatistics message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.InferStatistics.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes an InferStatistics message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.InferStatistics & inference.InferStatistics.$Shape} InferStatistics
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.InferStatistics & inference.InferStatistics.$Shape;

        /**
         * Creates an InferStatistics message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns InferStatistics
         */
        static fromObject(object: { [k: string]: any }): inference.InferStatistics;

        /**
         * Creates a plain object from an InferStatistics message. Also converts values to other types if specified.
         * @param message InferStatistics
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.InferStatistics, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this InferStatistics to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace InferStatistics {

        /** Properties of an InferStatistics. */
        interface $Properties {

            /** InferStatistics success */
            success?: (inference.StatisticDuration.$Properties|null);

            /** InferStatistics fail */
            fail?: (inference.StatisticDuration.$Properties|null);

            /** InferStatistics queue */
            queue?: (inference.StatisticDuration.$Properties|null);

            /** InferStatistics compute_input */
            compute_input?: (inference.StatisticDuration.$Properties|null);

            /** InferStatistics compute_infer */
            compute_infer?: (inference.StatisticDuration.$Properties|null);

            /** InferStatistics compute_output */
            compute_output?: (inference.StatisticDuration.$Properties|null);

            /** InferStatistics cache_hit */
            cache_hit?: (inference.StatisticDuration.$Properties|null);

            /** InferStatistics cache_miss */
            cache_miss?: (inference.StatisticDuration.$Properties|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of an InferStatistics. */
        type $Shape = inference.InferStatistics.$Properties;
    }

    /**
     * Properties of an InferBatchStatistics.
     * @deprecated Use inference.InferBatchStatistics.$Properties instead.
     */
    interface IInferBatchStatistics extends inference.InferBatchStatistics.$Properties {
    }

    /** Represents an InferBatchStatistics. */
    class InferBatchStatistics {

        /**
         * Constructs a new InferBatchStatistics.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.InferBatchStatistics.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** InferBatchStatistics batch_size. */
        batch_size: (number|Long);

        /** InferBatchStatistics compute_input. */
        compute_input?: (inference.StatisticDuration.$Properties|null);

        /** InferBatchStatistics compute_infer. */
        compute_infer?: (inference.StatisticDuration.$Properties|null);

        /** InferBatchStatistics compute_output. */
        compute_output?: (inference.StatisticDuration.$Properties|null);

        /**
         * Creates a new InferBatchStatistics instance using the specified properties.
         * @param [properties] Properties to set
         * @returns InferBatchStatistics instance
         */
        static create(properties: inference.InferBatchStatistics.$Shape): inference.InferBatchStatistics & inference.InferBatchStatistics.$Shape;
        static create(properties?: inference.InferBatchStatistics.$Properties): inference.InferBatchStatistics;

        /**
         * Encodes the specified InferBatchStatistics message. Does not implicitly {@link inference.InferBatchStatistics.verify|verify} messages.
         * @param message InferBatchStatistics message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.InferBatchStatistics.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes an InferBatchStatistics message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.InferBatchStatistics & inference.InferBatchStatistics.$Shape} InferBatchStatistics
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.InferBatchStatistics & inference.InferBatchStatistics.$Shape;

        /**
         * Creates an InferBatchStatistics message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns InferBatchStatistics
         */
        static fromObject(object: { [k: string]: any }): inference.InferBatchStatistics;

        /**
         * Creates a plain object from an InferBatchStatistics message. Also converts values to other types if specified.
         * @param message InferBatchStatistics
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.InferBatchStatistics, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this InferBatchStatistics to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace InferBatchStatistics {

        /** Properties of an InferBatchStatistics. */
        interface $Properties {

            /** InferBatchStatistics batch_size */
            batch_size?: (number|Long|null);

            /** InferBatchStatistics compute_input */
            compute_input?: (inference.StatisticDuration.$Properties|null);

            /** InferBatchStatistics compute_infer */
            compute_infer?: (inference.StatisticDuration.$Properties|null);

            /** InferBatchStatistics compute_output */
            compute_output?: (inference.StatisticDuration.$Properties|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of an InferBatchStatistics. */
        type $Shape = inference.InferBatchStatistics.$Properties;
    }

    /**
     * Properties of a ModelStatistics.
     * @deprecated Use inference.ModelStatistics.$Properties instead.
     */
    interface IModelStatistics extends inference.ModelStatistics.$Properties {
    }

    /** Represents a ModelStatistics. */
    class ModelStatistics {

        /**
         * Constructs a new ModelStatistics.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelStatistics.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelStatistics name. */
        name: string;

        /** ModelStatistics version. */
        version: string;

        /** ModelStatistics last_inference. */
        last_inference: (number|Long);

        /** ModelStatistics inference_count. */
        inference_count: (number|Long);

        /** ModelStatistics execution_count. */
        execution_count: (number|Long);

        /** ModelStatistics inference_stats. */
        inference_stats?: (inference.InferStatistics.$Properties|null);

        /** ModelStatistics batch_stats. */
        batch_stats: inference.InferBatchStatistics.$Properties[];

        /**
         * Creates a new ModelStatistics instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelStatistics instance
         */
        static create(properties: inference.ModelStatistics.$Shape): inference.ModelStatistics & inference.ModelStatistics.$Shape;
        static create(properties?: inference.ModelStatistics.$Properties): inference.ModelStatistics;

        /**
         * Encodes the specified ModelStatistics message. Does not implicitly {@link inference.ModelStatistics.verify|verify} messages.
         * @param message ModelStatistics message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelStatistics.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelStatistics message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelStatistics & inference.ModelStatistics.$Shape} ModelStatistics
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelStatistics & inference.ModelStatistics.$Shape;

        /**
         * Creates a ModelStatistics message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelStatistics
         */
        static fromObject(object: { [k: string]: any }): inference.ModelStatistics;

        /**
         * Creates a plain object from a ModelStatistics message. Also converts values to other types if specified.
         * @param message ModelStatistics
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelStatistics, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelStatistics to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelStatistics {

        /** Properties of a ModelStatistics. */
        interface $Properties {

            /** ModelStatistics name */
            name?: (string|null);

            /** ModelStatistics version */
            version?: (string|null);

            /** ModelStatistics last_inference */
            last_inference?: (number|Long|null);

            /** ModelStatistics inference_count */
            inference_count?: (number|Long|null);

            /** ModelStatistics execution_count */
            execution_count?: (number|Long|null);

            /** ModelStatistics inference_stats */
            inference_stats?: (inference.InferStatistics.$Properties|null);

            /** ModelStatistics batch_stats */
            batch_stats?: (inference.InferBatchStatistics.$Properties[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelStatistics. */
        type $Shape = inference.ModelStatistics.$Properties;
    }

    /**
     * Properties of a ModelStatisticsResponse.
     * @deprecated Use inference.ModelStatisticsResponse.$Properties instead.
     */
    interface IModelStatisticsResponse extends inference.ModelStatisticsResponse.$Properties {
    }

    /** Represents a ModelStatisticsResponse. */
    class ModelStatisticsResponse {

        /**
         * Constructs a new ModelStatisticsResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelStatisticsResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelStatisticsResponse model_stats. */
        model_stats: inference.ModelStatistics.$Properties[];

        /**
         * Creates a new ModelStatisticsResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelStatisticsResponse instance
         */
        static create(properties: inference.ModelStatisticsResponse.$Shape): inference.ModelStatisticsResponse & inference.ModelStatisticsResponse.$Shape;
        static create(properties?: inference.ModelStatisticsResponse.$Properties): inference.ModelStatisticsResponse;

        /**
         * Encodes the specified ModelStatisticsResponse message. Does not implicitly {@link inference.ModelStatisticsResponse.verify|verify} messages.
         * @param message ModelStatisticsResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelStatisticsResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelStatisticsResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelStatisticsResponse & inference.ModelStatisticsResponse.$Shape} ModelStatisticsResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelStatisticsResponse & inference.ModelStatisticsResponse.$Shape;

        /**
         * Creates a ModelStatisticsResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelStatisticsResponse
         */
        static fromObject(object: { [k: string]: any }): inference.ModelStatisticsResponse;

        /**
         * Creates a plain object from a ModelStatisticsResponse message. Also converts values to other types if specified.
         * @param message ModelStatisticsResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelStatisticsResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelStatisticsResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelStatisticsResponse {

        /** Properties of a ModelStatisticsResponse. */
        interface $Properties {

            /** ModelStatisticsResponse model_stats */
            model_stats?: (inference.ModelStatistics.$Properties[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelStatisticsResponse. */
        type $Shape = inference.ModelStatisticsResponse.$Properties;
    }

    /** DataType enum. */
    enum DataType {

        /** TYPE_INVALID value */
        TYPE_INVALID = 0,

        /** TYPE_BOOL value */
        TYPE_BOOL = 1,

        /** TYPE_UINT8 value */
        TYPE_UINT8 = 2,

        /** TYPE_UINT16 value */
        TYPE_UINT16 = 3,

        /** TYPE_UINT32 value */
        TYPE_UINT32 = 4,

        /** TYPE_UINT64 value */
        TYPE_UINT64 = 5,

        /** TYPE_INT8 value */
        TYPE_INT8 = 6,

        /** TYPE_INT16 value */
        TYPE_INT16 = 7,

        /** TYPE_INT32 value */
        TYPE_INT32 = 8,

        /** TYPE_INT64 value */
        TYPE_INT64 = 9,

        /** TYPE_FP16 value */
        TYPE_FP16 = 10,

        /** TYPE_FP32 value */
        TYPE_FP32 = 11,

        /** TYPE_FP64 value */
        TYPE_FP64 = 12,

        /** TYPE_STRING value */
        TYPE_STRING = 13,

        /** TYPE_BF16 value */
        TYPE_BF16 = 14
    }

    /**
     * Properties of a ModelInstanceGroup.
     * @deprecated Use inference.ModelInstanceGroup.$Properties instead.
     */
    interface IModelInstanceGroup extends inference.ModelInstanceGroup.$Properties {
    }

    /** Represents a ModelInstanceGroup. */
    class ModelInstanceGroup {

        /**
         * Constructs a new ModelInstanceGroup.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelInstanceGroup.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelInstanceGroup name. */
        name: string;

        /** ModelInstanceGroup kind. */
        kind: inference.ModelInstanceGroup.Kind;

        /** ModelInstanceGroup count. */
        count: number;

        /** ModelInstanceGroup gpus. */
        gpus: number[];

        /** ModelInstanceGroup passive. */
        passive: boolean;

        /**
         * Creates a new ModelInstanceGroup instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelInstanceGroup instance
         */
        static create(properties: inference.ModelInstanceGroup.$Shape): inference.ModelInstanceGroup & inference.ModelInstanceGroup.$Shape;
        static create(properties?: inference.ModelInstanceGroup.$Properties): inference.ModelInstanceGroup;

        /**
         * Encodes the specified ModelInstanceGroup message. Does not implicitly {@link inference.ModelInstanceGroup.verify|verify} messages.
         * @param message ModelInstanceGroup message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelInstanceGroup.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelInstanceGroup message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelInstanceGroup & inference.ModelInstanceGroup.$Shape} ModelInstanceGroup
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelInstanceGroup & inference.ModelInstanceGroup.$Shape;

        /**
         * Creates a ModelInstanceGroup message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelInstanceGroup
         */
        static fromObject(object: { [k: string]: any }): inference.ModelInstanceGroup;

        /**
         * Creates a plain object from a ModelInstanceGroup message. Also converts values to other types if specified.
         * @param message ModelInstanceGroup
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelInstanceGroup, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelInstanceGroup to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelInstanceGroup {

        /** Properties of a ModelInstanceGroup. */
        interface $Properties {

            /** ModelInstanceGroup name */
            name?: (string|null);

            /** ModelInstanceGroup kind */
            kind?: (inference.ModelInstanceGroup.Kind|null);

            /** ModelInstanceGroup count */
            count?: (number|null);

            /** ModelInstanceGroup gpus */
            gpus?: (number[]|null);

            /** ModelInstanceGroup passive */
            passive?: (boolean|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelInstanceGroup. */
        type $Shape = inference.ModelInstanceGroup.$Properties;

        /** Kind enum. */
        enum Kind {

            /** KIND_AUTO value */
            KIND_AUTO = 0,

            /** KIND_GPU value */
            KIND_GPU = 1,

            /** KIND_CPU value */
            KIND_CPU = 2,

            /** KIND_MODEL value */
            KIND_MODEL = 3
        }
    }

    /**
     * Properties of a ModelVersionPolicy.
     * @deprecated Use inference.ModelVersionPolicy.$Properties instead.
     */
    interface IModelVersionPolicy extends inference.ModelVersionPolicy.$Properties {
    }

    /** Represents a ModelVersionPolicy. */
    class ModelVersionPolicy {

        /**
         * Constructs a new ModelVersionPolicy.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelVersionPolicy.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelVersionPolicy latest. */
        latest?: (inference.ModelVersionPolicy.Latest.$Properties|null);

        /** ModelVersionPolicy all. */
        all?: (inference.ModelVersionPolicy.All.$Properties|null);

        /** ModelVersionPolicy specific. */
        specific?: (inference.ModelVersionPolicy.Specific.$Properties|null);

        /** ModelVersionPolicy policy_choice. */
        policy_choice?: ("latest"|"all"|"specific");

        /**
         * Creates a new ModelVersionPolicy instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelVersionPolicy instance
         */
        static create(properties: inference.ModelVersionPolicy.$Shape): inference.ModelVersionPolicy & inference.ModelVersionPolicy.$Shape;
        static create(properties?: inference.ModelVersionPolicy.$Properties): inference.ModelVersionPolicy;

        /**
         * Encodes the specified ModelVersionPolicy message. Does not implicitly {@link inference.ModelVersionPolicy.verify|verify} messages.
         * @param message ModelVersionPolicy message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelVersionPolicy.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelVersionPolicy message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelVersionPolicy & inference.ModelVersionPolicy.$Shape} ModelVersionPolicy
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelVersionPolicy & inference.ModelVersionPolicy.$Shape;

        /**
         * Creates a ModelVersionPolicy message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelVersionPolicy
         */
        static fromObject(object: { [k: string]: any }): inference.ModelVersionPolicy;

        /**
         * Creates a plain object from a ModelVersionPolicy message. Also converts values to other types if specified.
         * @param message ModelVersionPolicy
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelVersionPolicy, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelVersionPolicy to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelVersionPolicy {

        /** Properties of a ModelVersionPolicy. */
        interface $Properties {

            /** ModelVersionPolicy latest */
            latest?: (inference.ModelVersionPolicy.Latest.$Properties|null);

            /** ModelVersionPolicy all */
            all?: (inference.ModelVersionPolicy.All.$Properties|null);

            /** ModelVersionPolicy specific */
            specific?: (inference.ModelVersionPolicy.Specific.$Properties|null);

            /** ModelVersionPolicy policy_choice */
            policy_choice?: ("latest"|"all"|"specific");

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Narrowed shape of a ModelVersionPolicy. */
        type $Shape = {
          latest?: inference.ModelVersionPolicy.Latest.$Shape|null;
          all?: inference.ModelVersionPolicy.All.$Shape|null;
          specific?: inference.ModelVersionPolicy.Specific.$Shape|null;
          $unknowns?: Uint8Array[];
        } & (
          ({ policy_choice?: undefined; latest?: null; all?: null; specific?: null }|{ policy_choice?: "latest"; latest: inference.ModelVersionPolicy.Latest.$Shape; all?: null; specific?: null }|{ policy_choice?: "all"; latest?: null; all: inference.ModelVersionPolicy.All.$Shape; specific?: null }|{ policy_choice?: "specific"; latest?: null; all?: null; specific: inference.ModelVersionPolicy.Specific.$Shape })
        );

        /**
         * Properties of a Latest.
         * @deprecated Use inference.ModelVersionPolicy.Latest.$Properties instead.
         */
        interface ILatest extends inference.ModelVersionPolicy.Latest.$Properties {
        }

        /** Represents a Latest. */
        class Latest {

            /**
             * Constructs a new Latest.
             * @param [properties] Properties to set
             */
            constructor(properties?: inference.ModelVersionPolicy.Latest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Latest num_versions. */
            num_versions: number;

            /**
             * Creates a new Latest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Latest instance
             */
            static create(properties: inference.ModelVersionPolicy.Latest.$Shape): inference.ModelVersionPolicy.Latest & inference.ModelVersionPolicy.Latest.$Shape;
            static create(properties?: inference.ModelVersionPolicy.Latest.$Properties): inference.ModelVersionPolicy.Latest;

            /**
             * Encodes the specified Latest message. Does not implicitly {@link inference.ModelVersionPolicy.Latest.verify|verify} messages.
             * @param message Latest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: inference.ModelVersionPolicy.Latest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Latest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {inference.ModelVersionPolicy.Latest & inference.ModelVersionPolicy.Latest.$Shape} Latest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelVersionPolicy.Latest & inference.ModelVersionPolicy.Latest.$Shape;

            /**
             * Creates a Latest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Latest
             */
            static fromObject(object: { [k: string]: any }): inference.ModelVersionPolicy.Latest;

            /**
             * Creates a plain object from a Latest message. Also converts values to other types if specified.
             * @param message Latest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: inference.ModelVersionPolicy.Latest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Latest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace Latest {

            /** Properties of a Latest. */
            interface $Properties {

                /** Latest num_versions */
                num_versions?: (number|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Latest. */
            type $Shape = inference.ModelVersionPolicy.Latest.$Properties;
        }

        /**
         * Properties of an All.
         * @deprecated Use inference.ModelVersionPolicy.All.$Properties instead.
         */
        interface IAll extends inference.ModelVersionPolicy.All.$Properties {
        }

        /** Represents an All. */
        class All {

            /**
             * Constructs a new All.
             * @param [properties] Properties to set
             */
            constructor(properties?: inference.ModelVersionPolicy.All.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new All instance using the specified properties.
             * @param [properties] Properties to set
             * @returns All instance
             */
            static create(properties: inference.ModelVersionPolicy.All.$Shape): inference.ModelVersionPolicy.All & inference.ModelVersionPolicy.All.$Shape;
            static create(properties?: inference.ModelVersionPolicy.All.$Properties): inference.ModelVersionPolicy.All;

            /**
             * Encodes the specified All message. Does not implicitly {@link inference.ModelVersionPolicy.All.verify|verify} messages.
             * @param message All message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: inference.ModelVersionPolicy.All.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an All message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {inference.ModelVersionPolicy.All & inference.ModelVersionPolicy.All.$Shape} All
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelVersionPolicy.All & inference.ModelVersionPolicy.All.$Shape;

            /**
             * Creates an All message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns All
             */
            static fromObject(object: { [k: string]: any }): inference.ModelVersionPolicy.All;

            /**
             * Creates a plain object from an All message. Also converts values to other types if specified.
             * @param message All
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: inference.ModelVersionPolicy.All, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this All to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace All {

            /** Properties of an All. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an All. */
            type $Shape = inference.ModelVersionPolicy.All.$Properties;
        }

        /**
         * Properties of a Specific.
         * @deprecated Use inference.ModelVersionPolicy.Specific.$Properties instead.
         */
        interface ISpecific extends inference.ModelVersionPolicy.Specific.$Properties {
        }

        /** Represents a Specific. */
        class Specific {

            /**
             * Constructs a new Specific.
             * @param [properties] Properties to set
             */
            constructor(properties?: inference.ModelVersionPolicy.Specific.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Specific versions. */
            versions: (number|Long)[];

            /**
             * Creates a new Specific instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Specific instance
             */
            static create(properties: inference.ModelVersionPolicy.Specific.$Shape): inference.ModelVersionPolicy.Specific & inference.ModelVersionPolicy.Specific.$Shape;
            static create(properties?: inference.ModelVersionPolicy.Specific.$Properties): inference.ModelVersionPolicy.Specific;

            /**
             * Encodes the specified Specific message. Does not implicitly {@link inference.ModelVersionPolicy.Specific.verify|verify} messages.
             * @param message Specific message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: inference.ModelVersionPolicy.Specific.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Specific message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {inference.ModelVersionPolicy.Specific & inference.ModelVersionPolicy.Specific.$Shape} Specific
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelVersionPolicy.Specific & inference.ModelVersionPolicy.Specific.$Shape;

            /**
             * Creates a Specific message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Specific
             */
            static fromObject(object: { [k: string]: any }): inference.ModelVersionPolicy.Specific;

            /**
             * Creates a plain object from a Specific message. Also converts values to other types if specified.
             * @param message Specific
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: inference.ModelVersionPolicy.Specific, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Specific to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace Specific {

            /** Properties of a Specific. */
            interface $Properties {

                /** Specific versions */
                versions?: ((number|Long)[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Specific. */
            type $Shape = inference.ModelVersionPolicy.Specific.$Properties;
        }
    }

    /**
     * Properties of a ModelInput.
     * @deprecated Use inference.ModelInput.$Properties instead.
     */
    interface IModelInput extends inference.ModelInput.$Properties {
    }

    /** Represents a ModelInput. */
    class ModelInput {

        /**
         * Constructs a new ModelInput.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelInput.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelInput name. */
        name: string;

        /** ModelInput data_type. */
        data_type: inference.DataType;

        /** ModelInput format. */
        format: inference.ModelInput.Format;

        /** ModelInput dims. */
        dims: (number|Long)[];

        /** ModelInput is_shape_tensor. */
        is_shape_tensor: boolean;

        /** ModelInput allow_ragged_batch. */
        allow_ragged_batch: boolean;

        /** ModelInput optional. */
        optional: boolean;

        /**
         * Creates a new ModelInput instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelInput instance
         */
        static create(properties: inference.ModelInput.$Shape): inference.ModelInput & inference.ModelInput.$Shape;
        static create(properties?: inference.ModelInput.$Properties): inference.ModelInput;

        /**
         * Encodes the specified ModelInput message. Does not implicitly {@link inference.ModelInput.verify|verify} messages.
         * @param message ModelInput message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelInput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelInput message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelInput & inference.ModelInput.$Shape} ModelInput
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelInput & inference.ModelInput.$Shape;

        /**
         * Creates a ModelInput message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelInput
         */
        static fromObject(object: { [k: string]: any }): inference.ModelInput;

        /**
         * Creates a plain object from a ModelInput message. Also converts values to other types if specified.
         * @param message ModelInput
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelInput, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelInput to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelInput {

        /** Properties of a ModelInput. */
        interface $Properties {

            /** ModelInput name */
            name?: (string|null);

            /** ModelInput data_type */
            data_type?: (inference.DataType|null);

            /** ModelInput format */
            format?: (inference.ModelInput.Format|null);

            /** ModelInput dims */
            dims?: ((number|Long)[]|null);

            /** ModelInput is_shape_tensor */
            is_shape_tensor?: (boolean|null);

            /** ModelInput allow_ragged_batch */
            allow_ragged_batch?: (boolean|null);

            /** ModelInput optional */
            optional?: (boolean|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelInput. */
        type $Shape = inference.ModelInput.$Properties;

        /** Format enum. */
        enum Format {

            /** FORMAT_NONE value */
            FORMAT_NONE = 0,

            /** FORMAT_NHWC value */
            FORMAT_NHWC = 1,

            /** FORMAT_NCHW value */
            FORMAT_NCHW = 2
        }
    }

    /**
     * Properties of a ModelOutput.
     * @deprecated Use inference.ModelOutput.$Properties instead.
     */
    interface IModelOutput extends inference.ModelOutput.$Properties {
    }

    /** Represents a ModelOutput. */
    class ModelOutput {

        /**
         * Constructs a new ModelOutput.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelOutput.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelOutput name. */
        name: string;

        /** ModelOutput data_type. */
        data_type: inference.DataType;

        /** ModelOutput dims. */
        dims: (number|Long)[];

        /** ModelOutput label_filename. */
        label_filename: string;

        /** ModelOutput is_shape_tensor. */
        is_shape_tensor: boolean;

        /**
         * Creates a new ModelOutput instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelOutput instance
         */
        static create(properties: inference.ModelOutput.$Shape): inference.ModelOutput & inference.ModelOutput.$Shape;
        static create(properties?: inference.ModelOutput.$Properties): inference.ModelOutput;

        /**
         * Encodes the specified ModelOutput message. Does not implicitly {@link inference.ModelOutput.verify|verify} messages.
         * @param message ModelOutput message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelOutput message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelOutput & inference.ModelOutput.$Shape} ModelOutput
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelOutput & inference.ModelOutput.$Shape;

        /**
         * Creates a ModelOutput message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelOutput
         */
        static fromObject(object: { [k: string]: any }): inference.ModelOutput;

        /**
         * Creates a plain object from a ModelOutput message. Also converts values to other types if specified.
         * @param message ModelOutput
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelOutput, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelOutput to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelOutput {

        /** Properties of a ModelOutput. */
        interface $Properties {

            /** ModelOutput name */
            name?: (string|null);

            /** ModelOutput data_type */
            data_type?: (inference.DataType|null);

            /** ModelOutput dims */
            dims?: ((number|Long)[]|null);

            /** ModelOutput label_filename */
            label_filename?: (string|null);

            /** ModelOutput is_shape_tensor */
            is_shape_tensor?: (boolean|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelOutput. */
        type $Shape = inference.ModelOutput.$Properties;
    }

    /**
     * Properties of a ModelDynamicBatching.
     * @deprecated Use inference.ModelDynamicBatching.$Properties instead.
     */
    interface IModelDynamicBatching extends inference.ModelDynamicBatching.$Properties {
    }

    /** Represents a ModelDynamicBatching. */
    class ModelDynamicBatching {

        /**
         * Constructs a new ModelDynamicBatching.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelDynamicBatching.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelDynamicBatching preferred_batch_size. */
        preferred_batch_size: number[];

        /** ModelDynamicBatching max_queue_delay_microseconds. */
        max_queue_delay_microseconds: (number|Long);

        /** ModelDynamicBatching preserve_ordering. */
        preserve_ordering: boolean;

        /**
         * Creates a new ModelDynamicBatching instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelDynamicBatching instance
         */
        static create(properties: inference.ModelDynamicBatching.$Shape): inference.ModelDynamicBatching & inference.ModelDynamicBatching.$Shape;
        static create(properties?: inference.ModelDynamicBatching.$Properties): inference.ModelDynamicBatching;

        /**
         * Encodes the specified ModelDynamicBatching message. Does not implicitly {@link inference.ModelDynamicBatching.verify|verify} messages.
         * @param message ModelDynamicBatching message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelDynamicBatching.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelDynamicBatching message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelDynamicBatching & inference.ModelDynamicBatching.$Shape} ModelDynamicBatching
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelDynamicBatching & inference.ModelDynamicBatching.$Shape;

        /**
         * Creates a ModelDynamicBatching message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelDynamicBatching
         */
        static fromObject(object: { [k: string]: any }): inference.ModelDynamicBatching;

        /**
         * Creates a plain object from a ModelDynamicBatching message. Also converts values to other types if specified.
         * @param message ModelDynamicBatching
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelDynamicBatching, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelDynamicBatching to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelDynamicBatching {

        /** Properties of a ModelDynamicBatching. */
        interface $Properties {

            /** ModelDynamicBatching preferred_batch_size */
            preferred_batch_size?: (number[]|null);

            /** ModelDynamicBatching max_queue_delay_microseconds */
            max_queue_delay_microseconds?: (number|Long|null);

            /** ModelDynamicBatching preserve_ordering */
            preserve_ordering?: (boolean|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ModelDynamicBatching. */
        type $Shape = inference.ModelDynamicBatching.$Properties;
    }

    /**
     * Properties of a ModelConfig.
     * @deprecated Use inference.ModelConfig.$Properties instead.
     */
    interface IModelConfig extends inference.ModelConfig.$Properties {
    }

    /** Represents a ModelConfig. */
    class ModelConfig {

        /**
         * Constructs a new ModelConfig.
         * @param [properties] Properties to set
         */
        constructor(properties?: inference.ModelConfig.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ModelConfig name. */
        name: string;

        /** ModelConfig platform. */
        platform: string;

        /** ModelConfig backend. */
        backend: string;

        /** ModelConfig version_policy. */
        version_policy?: (inference.ModelVersionPolicy.$Properties|null);

        /** ModelConfig max_batch_size. */
        max_batch_size: number;

        /** ModelConfig input. */
        input: inference.ModelInput.$Properties[];

        /** ModelConfig output. */
        output: inference.ModelOutput.$Properties[];

        /** ModelConfig dynamic_batching. */
        dynamic_batching?: (inference.ModelDynamicBatching.$Properties|null);

        /** ModelConfig instance_group. */
        instance_group: inference.ModelInstanceGroup.$Properties[];

        /** ModelConfig scheduling_choice. */
        scheduling_choice?: "dynamic_batching";

        /**
         * Creates a new ModelConfig instance using the specified properties.
         * @param [properties] Properties to set
         * @returns ModelConfig instance
         */
        static create(properties: inference.ModelConfig.$Shape): inference.ModelConfig & inference.ModelConfig.$Shape;
        static create(properties?: inference.ModelConfig.$Properties): inference.ModelConfig;

        /**
         * Encodes the specified ModelConfig message. Does not implicitly {@link inference.ModelConfig.verify|verify} messages.
         * @param message ModelConfig message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: inference.ModelConfig.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ModelConfig message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {inference.ModelConfig & inference.ModelConfig.$Shape} ModelConfig
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): inference.ModelConfig & inference.ModelConfig.$Shape;

        /**
         * Creates a ModelConfig message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns ModelConfig
         */
        static fromObject(object: { [k: string]: any }): inference.ModelConfig;

        /**
         * Creates a plain object from a ModelConfig message. Also converts values to other types if specified.
         * @param message ModelConfig
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: inference.ModelConfig, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this ModelConfig to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace ModelConfig {

        /** Properties of a ModelConfig. */
        interface $Properties {

            /** ModelConfig name */
            name?: (string|null);

            /** ModelConfig platform */
            platform?: (string|null);

            /** ModelConfig backend */
            backend?: (string|null);

            /** ModelConfig version_policy */
            version_policy?: (inference.ModelVersionPolicy.$Properties|null);

            /** ModelConfig max_batch_size */
            max_batch_size?: (number|null);

            /** ModelConfig input */
            input?: (inference.ModelInput.$Properties[]|null);

            /** ModelConfig output */
            output?: (inference.ModelOutput.$Properties[]|null);

            /** ModelConfig dynamic_batching */
            dynamic_batching?: (inference.ModelDynamicBatching.$Properties|null);

            /** ModelConfig instance_group */
            instance_group?: (inference.ModelInstanceGroup.$Properties[]|null);

            /** ModelConfig scheduling_choice */
            scheduling_choice?: "dynamic_batching";

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Narrowed shape of a ModelConfig. */
        type $Shape = {
          name?: string|null;
          platform?: string|null;
          backend?: string|null;
          version_policy?: inference.ModelVersionPolicy.$Shape|null;
          max_batch_size?: number|null;
          input?: inference.ModelInput.$Shape[]|null;
          output?: inference.ModelOutput.$Shape[]|null;
          dynamic_batching?: inference.ModelDynamicBatching.$Shape|null;
          instance_group?: inference.ModelInstanceGroup.$Shape[]|null;
          $unknowns?: Uint8Array[];
        } & (
          ({ scheduling_choice?: undefined; dynamic_batching?: null }|{ scheduling_choice?: "dynamic_batching"; dynamic_batching: inference.ModelDynamicBatching.$Shape })
        );
    }
}
