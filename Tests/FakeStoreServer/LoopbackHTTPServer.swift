import Dispatch
import NIOCore
import NIOHTTP1
import NIOPosix

/// A request as the fake stores read it: the method, the target as sent (`/v1/…?…`, percent-encoded), the
/// headers and the whole body.
struct FakeRequest: Sendable {
    /// `GET`, `POST`, … as sent.
    let method: String
    let target: String
    let headers: HTTPHeaders
    let body: [UInt8]

    /// The target's path, before any `?`.
    var path: String { String(target.prefix { $0 != "?" }) }
    /// The target's query as sent, after the first `?`; nil without one.
    var query: String? { target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } }

    /// The first value of the header `name` (case-insensitive, as HTTP header names are).
    func header(_ name: String) -> String? { headers.first(name: name) }
}

/// An answer of the fake stores: a status code, headers and a body; `Content-Length` is set when it is sent.
struct FakeResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// HTTP/1.1 on 127.0.0.1 with an ephemeral port, each request answered by `respond`: SwiftNIO's server pipeline
/// (the one the client's SwiftNIO stack talks to), keep-alive as the request asks, one task per connection.
/// What the fake stores need of a server and no more; the HTTP itself is NIO's. Its tasks run on threads of their
/// own (`ServerExecutor`): while the test process's other tests keep Swift's cooperative threads busy, the server
/// still answers within the client's request timeout.
struct LoopbackHTTPServer: Sendable {
    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    /// The port the server listens on.
    let port: Int
    private let task: Task<Void, Never>

    /// Binds 127.0.0.1 on a port the system picks and serves until `stop()`.
    static func start(respond: @escaping @Sendable (FakeRequest) async -> FakeResponse) async throws
        -> LoopbackHTTPServer {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try Connection(wrappingChannelSynchronously: channel)
                }
            }
        let port = listener.channel.localAddress?.port ?? 0
        let task = Task(executorPreference: ServerExecutor.shared) {
            await withTaskGroup(of: Void.self) { group in
                // Cancelled by stop(): the listener's sequence ends, executeThenClose closes it, and the
                // connections' tasks (children of this group) end with it.
                try? await listener.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { try? await serve(connection, respond: respond) }
                    }
                }
                group.cancelAll()
            }
        }
        return LoopbackHTTPServer(port: port, task: task)
    }

    /// Stops listening and closes every connection.
    func stop() async {
        task.cancel()
        await task.value
    }

    /// Answers the requests of one connection in order, until the client closes it or asks to.
    private static func serve(_ connection: Connection,
                              respond: @Sendable (FakeRequest) async -> FakeResponse) async throws {
        try await connection.executeThenClose { parts, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            for try await part in parts {
                switch part {
                case .head(let value):
                    head = value
                    body.clear()
                case .body(var chunk):
                    body.writeBuffer(&chunk)
                case .end:
                    guard let request = head else { continue }
                    let response = await respond(FakeRequest(method: request.method.rawValue, target: request.uri,
                                                             headers: request.headers,
                                                             body: Array(body.readableBytesView)))
                    var headers = response.headers
                    headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
                    if !request.isKeepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
                    try await outbound.write(.head(HTTPResponseHead(
                        version: request.version, status: HTTPResponseStatus(statusCode: response.status),
                        headers: headers)))
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
                    try await outbound.write(.end(nil))
                    if !request.isKeepAlive { return }
                    head = nil
                }
            }
        }
    }
}

/// The executor of the fake stores' tasks: a dispatch queue, whose threads are not the two cooperative threads
/// that the test process's synchronous tests can hold for minutes (SE-0417: the tasks, their children and the
/// default actors they call run here).
final class ServerExecutor: TaskExecutor {
    static let shared = ServerExecutor()
    private let queue = DispatchQueue(label: "FakeStoreServer", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
