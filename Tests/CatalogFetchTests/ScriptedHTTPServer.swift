import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 (an ephemeral port), on plain sockets so that it can misbehave as no
/// server framework lets one: accept a request and never answer, or send its headers or body a byte at a
/// time. It answers each request as `reply` says for the request target (path and query), one request per
/// connection, and records the targets in order.
final class ScriptedHTTPServer: @unchecked Sendable {
    /// What to do with one request.
    enum Reply: Sendable {
        /// A whole answer, at once.
        case answer(status: Int, headers: [String: String] = [:], body: String)
        /// Read the request, then hold the connection open without a byte until the server stops.
        case silence
        /// `head` (status line and headers, `\r\n`-terminated) and `body`, one byte every `every`, until all is
        /// sent or the server stops.
        case trickle(head: String, body: String, every: Duration)
    }

    /// `http://127.0.0.1:PORT`.
    let baseURL: String
    private let listener: Int32
    private let reply: @Sendable (String) -> Reply
    private let lock = NSLock()
    private var targets: [String] = []
    private var connections: [Int32] = []
    private var stopped = false

    /// Starts listening; `reply` decides each answer from the request target.
    init(reply: @escaping @Sendable (String) -> Reply) throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw Failure("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socketFD, address, length) == 0 && listen(socketFD, 16) == 0
                    && getsockname(socketFD, address, &length) == 0
            }
        }
        guard bound else {
            close(socketFD)
            throw Failure("bind/listen: \(errno)")
        }
        listener = socketFD
        baseURL = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        self.reply = reply
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// The request targets received so far (`/v1/apps/1/inAppPurchasesV2?limit=200`), in order.
    var requests: [String] {
        lock.withLock { targets }
    }

    /// Stops listening and ends every connection (a silent or trickling one at once). Only `shutdown` here:
    /// each descriptor is closed by the thread that owns it, under the lock, so no descriptor number that the
    /// process has since reused for another socket (the fake store server's, say) is ever touched.
    func stop() {
        lock.withLock {
            stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    private var isStopped: Bool {
        lock.withLock { stopped }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let accepted = lock.withLock {
                guard !stopped else { return false }
                connections.append(connection)
                return true
            }
            guard accepted else {
                close(connection)
                break
            }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        defer {
            lock.withLock {
                connections.removeAll { $0 == connection }
                close(connection)
            }
        }
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            request += buffer[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        let target = parts.count > 1 ? String(parts[1]) : ""
        lock.withLock { targets.append(target) }
        switch reply(target) {
        case let .answer(status, headers, body):
            var head = "HTTP/1.1 \(status) Scripted\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            _ = sendAll(connection, Array((head + "\r\n" + body).utf8))
        case .silence:
            while !isStopped { usleep(20_000) }
        case let .trickle(head, body, every):
            for byte in Array((head + body).utf8) {
                guard !isStopped, sendAll(connection, [byte]) else { return }
                Thread.sleep(forTimeInterval: Double(every.components.attoseconds) / 1e18
                    + Double(every.components.seconds))
            }
        }
    }

    /// Writes all of `bytes`; false once the peer is gone (no SIGPIPE: `MSG_NOSIGNAL`).
    private func sendAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension [UInt8] {
    /// Whether the bytes hold the blank line that ends an HTTP request head.
    fileprivate var containsHeaderEnd: Bool {
        count >= 4 && indices.dropLast(3).contains { self[$0...$0 + 3].elementsEqual([13, 10, 13, 10]) }
    }
}
