/// A piece of an HTML document, built by value and escaped when rendered: element and attribute names are
/// compile-time constants (`StaticString`), and every text node and attribute value goes through
/// `HTMLEscaper`, so catalog text can only ever become text. The one raw piece is a `<style>` sheet, which
/// is a `StaticString` too: no value computed at run time can reach it.
///
/// ```swift
/// HTMLNode("td", .class("product")) {
///     HTMLNode("code") { finding.productID ?? "" }
/// }
/// ```
struct HTMLNode: Sendable {
    fileprivate enum Content: Sendable {
        case element(name: StaticString, attributes: [HTMLAttribute], children: [HTMLNode])
        case text(String)
        case styleSheet(StaticString)
    }

    fileprivate let content: Content

    private init(content: Content) {
        self.content = content
    }

    /// An element; `children` may mix nodes and strings (strings become escaped text).
    init(_ name: StaticString, _ attributes: HTMLAttribute...,
         @HTMLContentBuilder children: () -> [HTMLNode] = { [] }) {
        content = .element(name: name, attributes: attributes, children: children())
    }

    /// An element with attributes computed at run time (values are still escaped).
    init(_ name: StaticString, attributes: [HTMLAttribute], @HTMLContentBuilder children: () -> [HTMLNode] = { [] }) {
        content = .element(name: name, attributes: attributes, children: children())
    }

    /// A text node: `text` is escaped when rendered.
    static func text(_ text: String) -> HTMLNode {
        HTMLNode(content: .text(text))
    }

    /// `text` with a line-break opportunity (`<wbr>`) after each of `separators` (`.` in product IDs, `/` in
    /// paths): long names wrap at their separators instead of widening a table, and copy as they are.
    static func breakable(_ text: String, after separators: Set<Character>) -> [HTMLNode] {
        var nodes: [HTMLNode] = []
        var piece = ""
        for character in text {
            piece.append(character)
            if separators.contains(character) {
                nodes += [.text(piece), HTMLNode("wbr")]
                piece = ""
            }
        }
        if !piece.isEmpty { nodes.append(.text(piece)) }
        return nodes
    }

    /// A `<style>` element holding `css` as it is. The sheet is a compile-time constant, never catalog text.
    static func styleSheet(_ css: StaticString) -> HTMLNode {
        HTMLNode(content: .styleSheet(css))
    }

    /// A whole document: `<!DOCTYPE html>` and this node (an `html` element), one element a line where the
    /// content allows it, ending with a newline.
    func document() -> String {
        var output = "<!DOCTYPE html>\n"
        render(into: &output, depth: 0)
        output += "\n"
        return output
    }

    /// Elements that take no children and no end tag.
    private static let voidElements: Set<String> = ["meta", "br", "hr", "col", "link", "img", "input", "wbr"]

    /// Elements around which whitespace does not change what is shown, so they may start their own line.
    private static let blockElements: Set<String> = [
        "html", "head", "body", "header", "main", "section", "footer", "nav", "div", "p", "h1", "h2", "h3",
        "ul", "ol", "li", "dl", "dt", "dd", "table", "caption", "colgroup", "col", "thead", "tbody", "tfoot",
        "tr", "th", "td", "meta", "title", "style",
    ]

    private var blockName: String? {
        if case .element(let name, _, _) = content, HTMLNode.blockElements.contains(name.description) {
            return name.description
        }
        if case .styleSheet = content { return "style" }
        return nil
    }

    private func render(into output: inout String, depth: Int) {
        switch content {
        case .text(let text):
            output += HTMLEscaper.escape(text)
        case .styleSheet(let css):
            output += "<style>\n\(css.description)</style>"
        case .element(let name, let attributes, let children):
            let tag = name.description
            output += "<\(tag)"
            for attribute in attributes {
                output += " \(attribute.name.description)=\"\(HTMLEscaper.escape(attribute.value))\""
            }
            output += ">"
            if HTMLNode.voidElements.contains(tag) { return }
            // Children go on lines of their own only when all of them are block elements: between those,
            // the added whitespace is never shown; around text it would be.
            let onLines = !children.isEmpty && children.allSatisfy { $0.blockName != nil }
            for child in children {
                if onLines { output += "\n" + String(repeating: "  ", count: depth + 1) }
                child.render(into: &output, depth: depth + 1)
            }
            if onLines { output += "\n" + String(repeating: "  ", count: depth) }
            output += "</\(tag)>"
        }
    }
}

/// An attribute: a constant name and a value escaped when rendered.
struct HTMLAttribute: Sendable {
    /// The attribute's name.
    let name: StaticString
    /// The value, as it should read (unescaped).
    let value: String

    /// An attribute `name="value"`.
    init(_ name: StaticString, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `class="…"`.
    static func `class`(_ value: String) -> HTMLAttribute {
        HTMLAttribute("class", value)
    }
}

/// Builds the children of an `HTMLNode`: nodes, strings (as escaped text), optionals, conditionals and loops.
@resultBuilder
enum HTMLContentBuilder {
    static func buildExpression(_ node: HTMLNode) -> [HTMLNode] { [node] }
    static func buildExpression(_ nodes: [HTMLNode]) -> [HTMLNode] { nodes }
    static func buildExpression(_ text: String) -> [HTMLNode] { [.text(text)] }
    static func buildBlock(_ parts: [HTMLNode]...) -> [HTMLNode] { parts.flatMap { $0 } }
    static func buildOptional(_ part: [HTMLNode]?) -> [HTMLNode] { part ?? [] }
    static func buildEither(first part: [HTMLNode]) -> [HTMLNode] { part }
    static func buildEither(second part: [HTMLNode]) -> [HTMLNode] { part }
    static func buildArray(_ parts: [[HTMLNode]]) -> [HTMLNode] { parts.flatMap { $0 } }
}
