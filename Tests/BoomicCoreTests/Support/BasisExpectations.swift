import Testing
@testable import BoomicCore

/// Expects two bases to be equal and, when they are not, says how they differ song by song
/// (the way swift-custom-dump's `expectNoDifference` shows a diff rather than two dumps).
@discardableResult
func expectSame(_ actual: DataBasis, _ expected: DataBasis, _ context: @autoclosure () -> String,
                sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    if actual == expected { return true }
    Issue.record("\(context()): bases differ\n\(difference(actual, expected))", sourceLocation: sourceLocation)
    return false
}

/// The songs that differ between two bases, or which index differs when the songs agree.
func difference(_ actual: DataBasis, _ expected: DataBasis) -> String {
    var lines: [String] = []
    let actualIDs = Set(actual.songs.keys), expectedIDs = Set(expected.songs.keys)
    for id in actualIDs.subtracting(expectedIDs).sorted() { lines.append("  unexpected song \(id) at \(actual[id]!.path)") }
    for id in expectedIDs.subtracting(actualIDs).sorted() { lines.append("  missing song \(id) at \(expected[id]!.path)") }
    for id in actualIDs.intersection(expectedIDs).sorted() where actual[id] != expected[id] {
        let fields = actual[id]!.patch(to: expected[id]!).sorted { $0.key < $1.key }
            .map { "\($0.key.name): actual \($0.value.old), expected \($0.value.new)" }
        lines.append("  song \(id): " + fields.joined(separator: "; "))
    }
    if lines.isEmpty {
        lines.append("  same songs; index problems: actual \(actual.invariantViolations()), expected \(expected.invariantViolations())")
    }
    return lines.prefix(12).joined(separator: "\n")
}

/// Expects a basis's derived indexes to agree with its songs.
@discardableResult
func expectConsistent(_ basis: DataBasis, _ context: @autoclosure () -> String,
                      sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let problems = basis.invariantViolations()
    if problems.isEmpty { return true }
    Issue.record("\(context()): \(problems.joined(separator: "; "))", sourceLocation: sourceLocation)
    return false
}
