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

    public func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportFailure) -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = request.method == "POST" ? .POST : .GET
        for header in request.headers {
            outgoing.headers.add(name: header.name, value: header.value)
        }
        if let body = request.body {
            outgoing.body = .bytes(Array(body))
        }
        do {
            let response = try await client.execute(outgoing, timeout: .nanoseconds(timeout.nanoseconds))
            let body = try await response.body.collect(upTo: 512 << 20)
            let bytes = Data(body.readableBytesView)
            var headers: [String: String] = [:]
            for header in response.headers {
                headers[header.name.lowercased()] = header.value
            }
            return HTTPResponse(status: Int(response.status.code), headers: headers, body: bytes)
        } catch {
            throw TransportFailure(Self.describe(error, timeout: timeout))
        }
    }

    /// A few words for a transport error, never the request.
    static func describe(_ error: any Error, timeout: Duration) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                return "timed out after \(timeout.components.seconds) s"
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

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }
}
