/// Upper-case ASCII letter codes (ISO 3166-1 alpha-2 and alpha-3, ISO 4217) as small integers, so the
/// tables behind `Territory` and `CurrencyCode` are arrays indexed by code instead of dictionaries keyed by
/// `String`: looking a code up reads its bytes once and hashes nothing.
enum LetterCode {
    /// Calls `body` with the UTF-8 bytes of `text` (in place for a native string or substring, else copied)
    /// and returns the position it finds. The one generic step, so that reading the bytes is not a generic call
    /// per byte; its result type is concrete because a generic one costs a metadata lookup per call.
    static func position(in text: some StringProtocol,
                         _ body: (UnsafeBufferPointer<UInt8>) -> UInt16?) -> UInt16? {
        if let position = text.utf8.withContiguousStorageIfAvailable(body) { return position }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// The code as a base-26 number (`A` = 0 … `Z` = 25, first letter most significant), in
    /// `0..<slots(length:)`; nil unless the bytes are exactly `length` letters `A`…`Z`.
    static func key(_ bytes: UnsafeBufferPointer<UInt8>, length: Int) -> Int? {
        guard bytes.count == length else { return nil }
        var key = 0
        for byte in bytes {
            guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) else { return nil }
            key = key * 26 + Int(byte - UInt8(ascii: "A"))
        }
        return key
    }

    /// How many keys codes of `length` letters have: 26 to the power `length`.
    static func slots(length: Int) -> Int {
        (0..<length).reduce(1) { product, _ in product * 26 }
    }

    /// A table from key to the position of each code in `codes`, plus one (0: no such code), for codes of
    /// `length` letters. Codes of another shape are not in the table.
    static func positionTable(of codes: [String], length: Int) -> [UInt16] {
        var table = [UInt16](repeating: 0, count: slots(length: length))
        for (position, code) in codes.enumerated() {
            if let key = Array(code.utf8).withUnsafeBufferPointer({ key($0, length: length) }) {
                table[key] = UInt16(position + 1)
            }
        }
        return table
    }

    /// The position `table` (from `positionTable(of:length:)`) gives a code of `length` letters; nil when
    /// the bytes are no such code.
    static func position(of bytes: UnsafeBufferPointer<UInt8>, length: Int, in table: [UInt16]) -> UInt16? {
        guard let key = key(bytes, length: length) else { return nil }
        let stored = table[key]
        return stored == 0 ? nil : stored - 1
    }
}
