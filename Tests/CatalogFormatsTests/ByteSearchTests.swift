@testable import CatalogFormats
import Testing

/// The byte search the readers use instead of Foundation's and the standard library's generic ones.
@Suite struct ByteSearchTests {
    @Test("the first place of a byte string: after false starts, at either end, in text of any script")
    func firstOffset() {
        #expect(ByteSearch.firstOffset(of: "aab", in: "aaab") == 1)
        #expect(ByteSearch.firstOffset(of: "://", in: "x:/y://h") == 4)
        #expect(ByteSearch.firstOffset(of: "://", in: "é://") == 2)
        #expect(ByteSearch.firstOffset(of: "ab", in: "ab") == 0)
        #expect(ByteSearch.firstOffset(of: "b", in: "aaab") == 3)
        #expect(ByteSearch.firstOffset(of: "", in: "abc") == 0)
        #expect(ByteSearch.firstOffset(of: "abcd", in: "abc") == nil)
        #expect(ByteSearch.firstOffset(of: "x", in: "") == nil)
        #expect(ByteSearch.firstOffset(of: "ba", in: "aaab") == nil)
    }
}
