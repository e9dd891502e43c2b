import Foundation

/// One HTTP request as the store clients build it. `headers` may hold an `Authorization` value: nothing that
/// prints a request may show it (see `FetchError`, which names only the method and URL).
public struct HTTPRequest: Sendable {
    /// `GET` or `POST`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header names and values, in order.
    public var headers: [(name: String, value: String)]
    /// The body of a `POST`.
    public var body: Data?

    /// Creates a request.
    public init(method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A response, its body read whole.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header values by lowercased name (the last one where a name repeats).
    public var headers: [String: String]
    /// The body bytes, unchanged.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }
}

/// Sends one request and waits for the whole response, or throws `TransportFailure`. A protocol so that
/// retrying and paging (`APISession`) are tested without a network.
public protocol HTTPTransport: Sendable {
    /// Sends `request`; gives up after `timeout`.
    func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportFailure) -> HTTPResponse
}

/// A request that got no HTTP response (refused, reset, timed out), said in a few words for the user.
public struct TransportFailure: Error, Sendable, Equatable {
    /// "connection refused", "timed out after 30 s", ….
    public var reason: String

    /// Creates a failure.
    public init(_ reason: String) {
        self.reason = reason
    }
}
