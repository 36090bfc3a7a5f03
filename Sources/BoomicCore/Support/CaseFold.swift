/// Unicode full case folding: what text becomes before a comparison that ignores case, as ICU's
/// `u_strFoldCase` makes it and so as MPD's `search` compares (`STRASSE` finds `Straße`, `ﬁ` is
/// `fi`, a final `ς` is `σ`). Lower-casing alone misses those: `"Straße".lowercased()` keeps
/// its `ß`, which no ASCII word then finds.
///
/// Unlike `Fold.key` it keeps accents and width: MPD's search tells `ö` from `o`.
public enum CaseFold {
    /// `s`, case-folded: lower-cased, then the scalars whose folding goes further replaced
    /// (`beyondLowercase`, generated from Unicode's CaseFolding.txt).
    public static func full(_ s: String) -> String {
        let lower = s.lowercased()
        guard lower.unicodeScalars.contains(where: { $0.value >= 0xB5 && beyondLowercase[$0.value] != nil }) else {
            return lower
        }
        var out = String.UnicodeScalarView()
        for u in lower.unicodeScalars {
            if u.value >= 0xB5, let folded = beyondLowercase[u.value] {
                out.append(contentsOf: folded.unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }
}
