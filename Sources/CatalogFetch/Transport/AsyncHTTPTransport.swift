import AsyncHTTPClient
import Foundation

/// `HTTPTransport` on AsyncHTTPClient: no redirects (a redirect could carry the bearer token to another host),
/// bodies up to 512 MiB (a big app's price pages are tens of MB at most).
public final class AsyncHTTPTransport: HTTPTransport {
    private let client: HTTPClient

    /// Creates a transport with its own client; call `shutdown()` when done.
    public init() {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(15))
        // A refused connection is answered at once; the retry policy, not the pool, decides what comes next.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the client's connections.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Sends `request` and reads its whole body, all within `timeout` (DESIGN.md §2b): AsyncHTTPClient's own
    /// deadline ends with the response head, so a server that sends its headers and then trickles the body
    /// (a byte a second keeps any idle timeout quiet) would hold the run for as long as it likes. The attempt
    /// therefore races a timer, and the loser is cancelled.
    public func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportFailure) -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = request.method == "POST" ? .POST : .GET
        for header in request.headers {
            outgoing.headers.add(name: header.name, value: header.value)
        }
        if let body = request.body {
            outgoing.body = .bytes(Array(body))
        }
        let client = client
        let prepared = outgoing
        do {
            return try await Self.within(timeout) {
                let response = try await client.execute(prepared, timeout: .nanoseconds(timeout.nanoseconds))
                let body = try await response.body.collect(upTo: 512 << 20)
                var headers: [String: String] = [:]
                for header in response.headers {
                    headers[header.name.lowercased()] = header.value
                }
                return HTTPResponse(status: Int(response.status.code), headers: headers,
                                    body: Data(body.readableBytesView))
            }
        } catch {
            throw TransportFailure(Self.describe(error, timeout: timeout))
        }
    }

    /// Runs `work` and returns its result, or throws `HTTPClientError.deadlineExceeded` once `limit` has
    /// passed, without waiting for `work` to notice its cancellation.
    static func within<Value: Sendable>(_ limit: Duration,
                                        _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let race = Race<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation, work: work, limit: limit)
            }
        } onCancel: {
            race.cancel()
        }
    }

    /// A few words for a transport error, never the request.
    static func describe(_ error: any Error, timeout: Duration) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                return "no complete answer within \(timeout.spoken)"
            case .connectTimeout:
                return "connect timed out"
            case .remoteConnectionClosed:
                return "the server closed the connection"
            default:
                break
            }
        }
        let text = String(describing: error)
        if text.localizedCaseInsensitiveContains("connection refused") { return "connection refused" }
        return text
    }
}

/// One attempt racing its timer: whichever ends first resumes the continuation, once, and cancels the other.
private final class Race<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var tasks: [Task<Void, Never>] = []
    private var cancelled = false

    func start(_ continuation: CheckedContinuation<Value, any Error>,
               work: @escaping @Sendable () async throws -> Value, limit: Duration) {
        let alreadyCancelled = lock.withLock {
            self.continuation = continuation
            return cancelled
        }
        guard !alreadyCancelled else { return finish(.failure(CancellationError())) }
        let worker = Task {
            do {
                self.finish(.success(try await work()))
            } catch {
                self.finish(.failure(error))
            }
        }
        let timer = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self.finish(.failure(HTTPClientError.deadlineExceeded))
        }
        let finished = lock.withLock {
            tasks = [worker, timer]
            return self.continuation == nil
        }
        if finished {
            worker.cancel()
            timer.cancel()
        }
    }

    func cancel() {
        lock.withLock { cancelled = true }
        finish(.failure(CancellationError()))
    }

    private func finish(_ result: Result<Value, any Error>) {
        let (continuation, tasks) = lock.withLock {
            let pending = (self.continuation, self.tasks)
            self.continuation = nil
            return pending
        }
        guard let continuation else { return }
        for task in tasks { task.cancel() }
        continuation.resume(with: result)
    }
}

extension Duration {
    /// `60 s`, or `250 ms` under a second (tests shorten the attempt timeout).
    var spoken: String {
        let milliseconds = nanoseconds / 1_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }

    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }
}
