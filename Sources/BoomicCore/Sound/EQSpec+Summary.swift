extension EQSpec {
    /// One line for listings and history: what is set, in the order the chain applies it
    /// (`sliders +3 +1 0 0 −1 +2; 2 bands; GraphicEQ of 127 points; preamp −4.5 dB`).
    public var summary: String {
        func db(_ v: Double) -> String {
            let r = (v * 10).rounded() / 10
            let text = r == r.rounded() ? String(Int(r)) : String(r)
            return r > 0 ? "+" + text : text
        }
        var parts: [String] = []
        if graphic.contains(where: { $0 != 0 }) { parts.append("sliders " + graphic.map(db).joined(separator: " ")) }
        if !bands.isEmpty { parts.append("\(bands.count) band\(bands.count == 1 ? "" : "s")") }
        if !curve.isEmpty { parts.append("GraphicEQ of \(curve.count) points") }
        if let preamp { parts.append("preamp \(db(preamp)) dB") }
        return parts.isEmpty ? "flat" : parts.joined(separator: "; ")
    }

    /// What kind of EQ it mostly is, for `eq ls`: graphic, parametric or a GraphicEQ curve.
    public var kindName: String {
        !curve.isEmpty ? "GraphicEQ" : !bands.isEmpty ? "parametric" : "graphic"
    }
}
