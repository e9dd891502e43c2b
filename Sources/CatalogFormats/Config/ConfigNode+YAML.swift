import CatalogCore
import Foundation
import Yams

extension ConfigNode {
    /// Parses a YAML config into a tree. Scalars are never resolved by Yams (`Resolver.basic`): keys are their
    /// source text (`NO` is Norway, `1234` is the product "1234") and values keep their text and quoting, so the
    /// validator applies the YAML 1.2 core rules it needs itself.
    ///
    /// `data` is UTF-8 from `TextEncoding.utf8`. Returns nil for a stream without a document (empty, or only
    /// comments). YAML syntax errors, several documents, duplicate keys, non-scalar keys, tags and alias bombs
    /// are errors with line and column.
    static func parseYAML(_ data: Data, path: String) throws(CatalogReadError) -> ConfigNode? {
        let text = String(decoding: data, as: UTF8.self)
        if text.utf8.contains(UInt8(ascii: "*")) {
            try YAMLLoading.rejectComplexKeys(text, path: path)
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, Resolver.basic, Constructor.default, .utf8)
        } catch let error as YamlError {
            throw YAMLLoading.translate(error, text: text, path: path)
        } catch {
            throw CatalogReadError("invalid YAML: \(error)", at: SourceLocation(path: path))
        }
        guard let root else { return nil }
        var converter = YAMLConverter(path: path, budget: YAMLLoading.nodeBudget(forByteCount: data.count),
                                      byteOrderMarks: LeadingByteOrderMarks(text: text))
        return try converter.convert(root, path: ConfigPath())
    }
}

/// Turns Yams nodes into `ConfigNode`s, counting nodes so that aliases cannot expand a small file into
/// billions of nodes.
private struct YAMLConverter {
    let path: String
    var budget: Int
    let byteOrderMarks: LeadingByteOrderMarks

    mutating func convert(_ node: Node, path keyPath: ConfigPath) throws(CatalogReadError) -> ConfigNode {
        budget -= 1
        let location = location(of: node.mark)
        if budget < 0 {
            throw CatalogReadError(
                "\(keyPath.orRoot): the document expands to too many values (are aliases nested too deeply?)",
                at: location)
        }
        switch node {
        case .scalar(let scalar):
            let tag = scalar.tag.rawValue
            let kind: ConfigScalar.Kind
            if tag == Tag.Name.str.rawValue || tag == Tag.Name.nonSpecific.rawValue {
                kind = .string
            } else if tag.isEmpty {
                kind = scalar.style == .plain || scalar.style == .any ? .plain : .string
            } else {
                throw CatalogReadError("\(keyPath.orRoot): YAML tags are not supported (found \"\(tag)\")",
                                       at: location)
            }
            return ConfigNode(value: .scalar(ConfigScalar(kind: kind, text: byteOrderMarks.string(of: scalar))),
                              location: location)
        case .sequence(let sequence):
            try checkCollectionTag(sequence.tag, allowed: Tag.Name.seq, keyPath: keyPath, location: location)
            var elements: [ConfigNode] = []
            elements.reserveCapacity(sequence.count)
            for (index, element) in sequence.enumerated() {
                elements.append(try convert(element, path: keyPath.appending(index: index)))
            }
            return ConfigNode(value: .sequence(elements), location: location)
        case .mapping(let mapping):
            try checkCollectionTag(mapping.tag, allowed: Tag.Name.map, keyPath: keyPath, location: location)
            var entries: [ConfigEntry] = []
            entries.reserveCapacity(mapping.count)
            // Yams already rejects repeated keys with the same tag; keys are compared here as text too, so that
            // no spelling of a key can slip through.
            var seen: Set<String> = []
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw CatalogReadError("\(keyPath.orRoot): a key must be a plain string, not \(describe(key))",
                                           at: self.location(of: key.mark))
                }
                let keyTag = keyScalar.tag.rawValue
                if !keyTag.isEmpty, keyTag != Tag.Name.str.rawValue, keyTag != Tag.Name.nonSpecific.rawValue {
                    throw CatalogReadError("\(keyPath.orRoot): YAML tags are not supported (found \"\(keyTag)\")",
                                           at: self.location(of: key.mark))
                }
                let keyText = byteOrderMarks.string(of: keyScalar)
                guard seen.insert(keyText).inserted else {
                    throw CatalogReadError("\(keyPath.appending(key: keyText)): duplicate key",
                                           at: self.location(of: keyScalar.mark))
                }
                let converted = try convert(value, path: keyPath.appending(key: keyText))
                entries.append(ConfigEntry(key: keyText, keyLocation: self.location(of: keyScalar.mark),
                                           value: converted))
            }
            return ConfigNode(value: .mapping(entries), location: location)
        case .alias:
            // `Yams.compose` resolves aliases to the anchored node; an alias node never reaches here.
            throw CatalogReadError("\(keyPath.orRoot): unresolved YAML alias", at: location)
        }
    }

    private func checkCollectionTag(_ tag: Tag, allowed: Tag.Name, keyPath: ConfigPath,
                                    location: SourceLocation) throws(CatalogReadError) {
        let name = tag.rawValue
        guard name.isEmpty || name == allowed.rawValue || name == Tag.Name.nonSpecific.rawValue else {
            throw CatalogReadError("\(keyPath.orRoot): YAML tags are not supported (found \"\(name)\")", at: location)
        }
    }

    private func describe(_ node: Node) -> String {
        switch node {
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .scalar, .alias: "a value"
        }
    }

    private func location(of mark: Mark?) -> SourceLocation {
        SourceLocation(path: path, line: mark?.line, column: mark?.column)
    }
}

/// Gives back the U+FEFF a scalar starts with. Yams builds scalar strings with Foundation's UTF-8 decoding,
/// which takes a leading U+FEFF for a byte order mark and drops it, so `"\uFEFFx"` would read as `x`. The
/// scalar's source text says whether it began with one: a literal U+FEFF, or in double quotes its escape.
struct LeadingByteOrderMarks {
    /// The lines of the document as libyaml counts them, or nil when no scalar can start with U+FEFF.
    private let lines: [[Unicode.Scalar]]?

    /// Prepares for the scalars of `text`; a text that holds no U+FEFF and no escape of one costs one pass.
    init(text: String) {
        guard LeadingByteOrderMarks.mayHoldOne(text) else {
            lines = nil
            return
        }
        var result: [[Unicode.Scalar]] = [[]]
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where previous == "\r":
                break
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                result.append([])
            default:
                result[result.count - 1].append(scalar)
            }
            previous = scalar
        }
        lines = result
    }

    /// Whether the text holds a U+FEFF or an escape that may be one (`\u` or `\U`, then `FEFF` or `0000FEFF`
    /// in any case), scalar by scalar: Foundation's searches would stop at a combining character after it.
    private static func mayHoldOne(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\u{FEFF}" { return true }
            guard scalar == "\\", index + 1 < scalars.count, scalars[index + 1] == "u" || scalars[index + 1] == "U"
            else { continue }
            if startsWithEscapedMark(scalars[(index + 2)...]) { return true }
        }
        return false
    }

    /// Whether hex digits (after `\u` or `\U`) spell U+FEFF: `FEFF` or `0000FEFF`, in any case.
    private static func startsWithEscapedMark(_ digits: ArraySlice<Unicode.Scalar>) -> Bool {
        let lower = digits.prefix(8).map { $0.properties.lowercaseMapping.unicodeScalars.first ?? $0 }
        return lower.starts(with: "feff".unicodeScalars) || lower.starts(with: "0000feff".unicodeScalars)
    }

    /// The scalar's string, with the leading U+FEFF its source holds and Yams dropped.
    func string(of scalar: Node.Scalar) -> String {
        let string = scalar.string
        guard let lines, string.unicodeScalars.first != "\u{FEFF}", let mark = scalar.mark,
              mark.line >= 1, mark.line <= lines.count else { return string }
        let line = lines[mark.line - 1]
        var index = mark.column - 1
        guard index >= 0, index < line.count else { return string }
        switch scalar.style {
        case .doubleQuoted:
            guard line[index] == "\"" else { return string }
            index += 1
            // Compared scalar by scalar: a combining character after the escape would defeat `hasPrefix`.
            let rest = line[index...]
            let escapeLetter = rest.first == "\\" ? rest.dropFirst().first : nil
            let escaped = rest.first == "\u{FEFF}"
                || ((escapeLetter == "u" || escapeLetter == "U")
                    && LeadingByteOrderMarks.startsWithEscapedMark(rest.dropFirst(2)))
            return escaped ? "\u{FEFF}" + string : string
        case .singleQuoted:
            guard line[index] == "'", index + 1 < line.count, line[index + 1] == "\u{FEFF}" else { return string }
            return "\u{FEFF}" + string
        case .plain, .any:
            return line[index] == "\u{FEFF}" ? "\u{FEFF}" + string : string
        case .literal, .folded:
            return string
        }
    }
}

/// YAML helpers: translating Yams errors, and finding where a duplicate key repeats.
enum YAMLLoading {
    /// Rejects a key that is an alias, a list or a mapping before `Yams.compose` sees the document: Yams' duplicate
    /// key check hashes every key, and hashing an alias walks every copy its anchors share, so `[*big : v]` (a
    /// few hundred bytes) hangs inside `Yams.compose`, before the node budget can help (found by `scripts/fuzz
    /// yaml`). Composes a copy in which no `*` starts an alias — nothing is shared, so it is cheap — and throws
    /// for the first such key. An error in the copy is reported as is (same positions): the real compose would
    /// fail too, but may hang before it gets there.
    static func rejectComplexKeys(_ text: String, path: String) throws(CatalogReadError) {
        let marker: Unicode.Scalar = "\u{204E}"  // ⁎ stands for "*": an alias becomes a plain scalar
        let defanged = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "*" ? marker : $0 }))
        let composed: Node?
        do {
            composed = try Yams.compose(yaml: defanged, Resolver.basic, Constructor.default, .utf8)
        } catch let error as YamlError {
            throw translate(error, text: defanged, path: path)
        } catch {
            throw CatalogReadError("invalid YAML: \(error)", at: SourceLocation(path: path))
        }
        guard let root = composed else { return }
        var pending: [(node: Node, path: ConfigPath)] = [(root, ConfigPath())]
        while let (node, keyPath) = pending.popLast() {
            switch node {
            case .scalar, .alias:
                continue
            case .sequence(let sequence):
                for (index, element) in sequence.enumerated() {
                    pending.append((element, keyPath.appending(index: index)))
                }
            case .mapping(let mapping):
                for (key, value) in mapping {
                    let kind: String
                    switch key {
                    case .scalar(let scalar) where scalar.style == .plain && scalar.string.unicodeScalars.first == marker:
                        kind = "an alias"
                    case .scalar:
                        pending.append((value, keyPath.appending(key: key.string ?? "")))
                        continue
                    case .mapping: kind = "a mapping"
                    case .sequence: kind = "a list"
                    case .alias: kind = "an alias"
                    }
                    throw CatalogReadError("\(keyPath.orRoot): a key must be a plain string, not \(kind)",
                                           at: SourceLocation(path: path, line: key.mark?.line, column: key.mark?.column))
                }
            }
        }
    }

    /// How many nodes a document of `byteCount` bytes may expand to through aliases.
    static func nodeBudget(forByteCount byteCount: Int) -> Int {
        100_000 + byteCount.multipliedReportingOverflow(by: 16).partialValue
    }

    /// Turns a Yams error into a located `CatalogReadError`.
    static func translate(_ error: YamlError, text: String, path: String) -> CatalogReadError {
        func at(_ mark: Mark) -> SourceLocation { SourceLocation(path: path, line: mark.line, column: mark.column) }
        func syntax(_ context: YamlError.Context?, _ problem: String, _ mark: Mark) -> CatalogReadError {
            if problem.hasPrefix("Maximum nesting level reached") {
                return CatalogReadError("invalid YAML: nesting deeper than 1000 levels", at: at(mark))
            }
            var message = "invalid YAML: \(problem)"
            if let context {
                message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
            }
            return CatalogReadError(message, at: at(mark))
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _):
            return syntax(context, problem, mark)
        case .composer(let context, let problem, let mark, _):
            if problem == "but found another document" {
                return CatalogReadError("invalid YAML: the file holds several documents; a config is one document",
                                        at: at(mark))
            }
            return syntax(context, problem, mark)
        case .reader(let problem, let offset, _, _):
            return CatalogReadError("invalid YAML: \(problem)", at: location(ofCharacterOffset: offset, in: text,
                                                                              path: path))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? ""
            return duplicateKeyError(key: key, firstMark: context.mark, text: text, path: path)
        case .no, .memory, .writer, .emitter, .representer, .dataCouldNotBeDecoded:
            return CatalogReadError("invalid YAML: \(error)", at: SourceLocation(path: path))
        @unknown default:
            return CatalogReadError("invalid YAML: \(error)", at: SourceLocation(path: path))
        }
    }

    private static func location(ofCharacterOffset offset: Int?, in text: String, path: String) -> SourceLocation {
        guard let offset, let end = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex) else {
            return SourceLocation(path: path)
        }
        var line = 1
        var column = 1
        for scalar in text[..<end].unicodeScalars {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return SourceLocation(path: path, line: line, column: column)
    }

    /// Yams rejects a mapping with a repeated key, naming only where the key FIRST appears. To point at the
    /// repetition (and give the key path), the first occurrence is renamed in a copy of the text and the copy is
    /// parsed again; the renamed key's mapping then holds the repetition. When that does not work out, the
    /// error names the first occurrence.
    private static func duplicateKeyError(key: String, firstMark: Mark, text: String,
                                          path: String) -> CatalogReadError {
        let fallback = CatalogReadError(
            "duplicate key \(ConfigScalar.quote(key)) (a key may appear only once in a mapping)",
            at: SourceLocation(path: path, line: firstMark.line, column: firstMark.column))
        let marker = "\u{E000}"
        guard let insertion = index(ofLine: firstMark.line, column: firstMark.column, in: text) else { return fallback }
        var insertAt = insertion
        switch text.unicodeScalars[insertion] {
        case "\"", "'": insertAt = text.unicodeScalars.index(after: insertion)
        case "?", "!", "&", "*", "|", ">": return fallback
        default: break
        }
        var renamed = text
        renamed.insert(contentsOf: marker, at: insertAt)
        guard let root = try? Yams.compose(yaml: renamed, Resolver.basic, Constructor.default, .utf8) else {
            return fallback
        }
        var budget = nodeBudget(forByteCount: text.utf8.count)
        guard let found = findRepetition(of: key, renamed: marker + key, firstMark: firstMark, in: root,
                                         path: ConfigPath(), budget: &budget) else { return fallback }
        var column = found.mark.column
        if found.mark.line == firstMark.line, column > firstMark.column { column -= 1 }
        return CatalogReadError(
            "\(found.path): duplicate key (first at line \(firstMark.line), column \(firstMark.column))",
            at: SourceLocation(path: path, line: found.mark.line, column: column))
    }

    private static func findRepetition(of key: String, renamed: String, firstMark: Mark, in node: Node,
                                       path: ConfigPath, budget: inout Int) -> (path: ConfigPath, mark: Mark)? {
        budget -= 1
        guard budget >= 0 else { return nil }
        switch node {
        case .mapping(let mapping):
            let isTarget = mapping.contains { pair in
                pair.key.scalar.map { $0.string == renamed && $0.mark?.line == firstMark.line } ?? false
            }
            if isTarget, let repeated = mapping.first(where: { $0.key.scalar?.string == key }),
               let mark = repeated.key.mark {
                return (path.appending(key: key), mark)
            }
            for (childKey, value) in mapping {
                let name = childKey.scalar?.string ?? ""
                if let found = findRepetition(of: key, renamed: renamed, firstMark: firstMark, in: value,
                                              path: path.appending(key: name), budget: &budget) {
                    return found
                }
            }
        case .sequence(let sequence):
            for (index, element) in sequence.enumerated() {
                if let found = findRepetition(of: key, renamed: renamed, firstMark: firstMark, in: element,
                                              path: path.appending(index: index), budget: &budget) {
                    return found
                }
            }
        case .scalar, .alias:
            break
        }
        return nil
    }

    /// The index of a 1-based line and column (columns count Unicode scalars, as libyaml does).
    private static func index(ofLine line: Int, column: Int, in text: String) -> String.Index? {
        var currentLine = 1
        var index = text.unicodeScalars.startIndex
        let scalars = text.unicodeScalars
        while currentLine < line {
            guard let newline = scalars[index...].firstIndex(of: "\n") else { return nil }
            index = scalars.index(after: newline)
            currentLine += 1
        }
        guard let target = scalars.index(index, offsetBy: column - 1, limitedBy: scalars.endIndex),
              target < scalars.endIndex else { return nil }
        return target
    }
}
