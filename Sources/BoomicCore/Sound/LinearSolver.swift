/// Gaussian elimination with partial pivoting for the small dense systems the EQ design solves
/// (6 unknowns for the graphic sliders, about 60 for a GraphicEQ fit), once per design and never
/// on the audio path. Written here rather than linking LAPACK: the systems are tiny, well
/// conditioned by the fit's damping, and Foundation on Linux has no linear algebra.
enum LinearSolver {
    /// x with a·x = b, `a` row-major n×n; nil when `a` is singular.
    static func solve(_ a: [Double], _ b: [Double]) -> [Double]? {
        let n = b.count
        precondition(a.count == n * n)
        var m = a, x = b
        for col in 0..<n {
            let pivot = (col..<n).max { abs(m[$0 * n + col]) < abs(m[$1 * n + col]) }!
            guard abs(m[pivot * n + col]) > 1e-300 else { return nil }
            if pivot != col {
                for k in 0..<n { m.swapAt(pivot * n + k, col * n + k) }
                x.swapAt(pivot, col)
            }
            let p = m[col * n + col]
            for row in (col + 1)..<n {
                let f = m[row * n + col] / p
                if f == 0 { continue }
                for k in col..<n { m[row * n + k] -= f * m[col * n + k] }
                x[row] -= f * x[col]
            }
        }
        for row in stride(from: n - 1, through: 0, by: -1) {
            var s = x[row]
            for k in (row + 1)..<n { s -= m[row * n + k] * x[k] }
            x[row] = s / m[row * n + row]
        }
        return x
    }

    /// The least-squares solution of J·x ≈ r (J row-major, rows × n), with Tikhonov damping λ:
    /// (JᵀJ + λI)·x = Jᵀr.
    static func leastSquares(_ j: [Double], rows: Int, columns n: Int, _ r: [Double], damping: Double) -> [Double]? {
        var ata = [Double](repeating: 0, count: n * n), atr = [Double](repeating: 0, count: n)
        for row in 0..<rows {
            let base = row * n
            for a in 0..<n where j[base + a] != 0 {
                let ja = j[base + a]
                atr[a] += ja * r[row]
                for b in a..<n { ata[a * n + b] += ja * j[base + b] }
            }
        }
        for a in 0..<n {
            ata[a * n + a] += damping
            for b in 0..<a { ata[a * n + b] = ata[b * n + a] }
        }
        return solve(ata, atr)
    }
}
