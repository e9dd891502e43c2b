import CatalogCore
import CYAML
import Foundation

/// libyaml's event parser over UTF-8 bytes, one event at a time: no tree is built here, the caller builds what
/// it needs from the events. Syntax errors become located `CatalogReadError`s in the config's wording.
///
/// The bytes must stay alive and unmoved while the stream is used (`withUnsafeBytes` around its whole life).
/// Marks are libyaml's: 0-based lines and columns, columns counting characters (Unicode scalars), a line break
/// being `\n`, `\r\n`, `\r`, NEL, LS or PS.
final class YAMLEventStream {
    /// The deepest nesting of mappings and sequences read: the limit that Yams' libyaml enforced (its
    /// `yaml_set_max_nest_level` default), checked the same way so that the same document fails at the same place.
    static let maximumNesting = 1000

    private let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    private let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
    /// Whether `event` holds an event that must be deleted.
    private var holdsEvent = false
    /// Whether the parser was initialized (and must be deleted).
    private let initialized: Bool
    private let bytes: UnsafeRawBufferPointer
    /// The pages of a mapped file that libyaml has read past (its scalars are copies): given back as it goes.
    /// Kept behind a pointer, as the parser is: a stored `var` of a class is checked for exclusive access at each
    /// change, and it changes with each event (2 % of a config's reading).
    private let pages = UnsafeMutablePointer<PassedPages>.allocate(capacity: 1)
    /// The path shown in locations.
    let path: String

    /// Starts parsing `bytes`, those of `file` (UTF-8, no byte order mark needed), lent for the stream's life.
    init(bytes: UnsafeRawBufferPointer, of file: Data, path: String) {
        self.bytes = bytes
        self.path = path
        pages.initialize(to: PassedPages(releasingAll: file))
        initialized = yaml_parser_initialize(parser) == 1
        guard initialized else { return }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        yaml_parser_set_input_string(parser, start, start == nil ? 0 : bytes.count)
    }

    deinit {
        if holdsEvent { yaml_event_delete(event) }
        if initialized { yaml_parser_delete(parser) }
        pages.deinitialize(count: 1)
        pages.deallocate()
        event.deallocate()
        parser.deallocate()
    }

    /// The next event; valid until the next call. After the stream's end libyaml repeats an empty event.
    @inline(__always)
    func next() throws(CatalogReadError) -> UnsafePointer<yaml_event_t> {
        if holdsEvent {
            yaml_event_delete(event)
            holdsEvent = false
        }
        guard initialized else {
            throw CatalogReadError("invalid YAML: Memory error", at: SourceLocation(path: path))
        }
        guard yaml_parser_parse(parser, event) == 1 else { throw syntaxError() }
        holdsEvent = true
        if let start = bytes.baseAddress, let current = parser.pointee.input.string.current {
            pages.pointee.passed(start.distance(to: UnsafeRawPointer(current)))
        }
        if event.pointee.type == YAML_SEQUENCE_START_EVENT || event.pointee.type == YAML_MAPPING_START_EVENT {
            try checkNesting()
        }
        return UnsafePointer(event)
    }

    /// A location from a libyaml mark (0-based) as the config reports it (1-based).
    func location(of mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(path: path, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    /// Refuses a collection nested deeper than `maximumNesting`, with the test Yams' libyaml applied before it
    /// produced the start event: the scanner's indentation stack plus its flow level. The scanner reads ahead
    /// in flow collections, so a long run of `[` fails at one of its first brackets, as it did.
    private func checkNesting() throws(CatalogReadError) {
        let indents = parser.pointee.indents
        let depth = indents.top.flatMap { top in indents.start.map { top - $0 } } ?? 0
        guard depth >= YAMLEventStream.maximumNesting - Int(parser.pointee.flow_level) else { return }
        // The problem is the collection's own token: the `[` or `{` just before the event's end, or where a block
        // collection starts (an empty token at the end mark).
        var mark = event.pointee.end_mark
        let flow = event.pointee.type == YAML_SEQUENCE_START_EVENT
            ? event.pointee.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
            : event.pointee.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
        if flow, mark.column > 0 { mark.column -= 1 }
        throw CatalogReadError("invalid YAML: nesting deeper than 1000 levels", at: location(of: mark))
    }

    /// libyaml's error, worded as before: the problem, the context with its position, at the problem's mark.
    private func syntaxError() -> CatalogReadError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown problem"
        switch state.error {
        case YAML_READER_ERROR:
            let text = SourceText(path: path, bytes: Data(bytes))
            return CatalogReadError("invalid YAML: \(problem)", at: text.location(ofOffset: state.problem_offset))
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            var message = "invalid YAML: \(problem)"
            if let context = state.context {
                let mark = location(of: state.context_mark)
                message += " (\(String(cString: context)) at line \(mark.line ?? 0), column \(mark.column ?? 0))"
            }
            return CatalogReadError(message, at: location(of: state.problem_mark))
        default:
            return CatalogReadError("invalid YAML: Memory error", at: SourceLocation(path: path))
        }
    }
}
