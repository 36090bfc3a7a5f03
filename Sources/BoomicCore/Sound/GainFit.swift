import Foundation

/// Gains for a row of peaking filters such that the chain's response (the sum of their dB
/// responses, plus an optional level) meets targets at given frequencies: Gauss–Newton on the
/// interaction matrix (each filter's slope in dB per dB at each frequency, re-measured at the
/// current gains, since a peaking filter's skirt does not grow linearly with its gain), damped
/// when there are more points than filters. The graphic EQ uses it square (six centres, six
/// gains), so each slider is met exactly even when neighbours overlap; `GraphicEQ:` curves use it
/// as a least-squares fit.
struct GainFit {
    let sampleRate: Double
    let frequencies: [Double]
    let bands: [Double]
    /// One Q per band.
    let qs: [Double]

    func solve(targets: [Double], offset useOffset: Bool, damping: Double, iterations: Int) -> (gains: [Double], offset: Double) {
        let rows = frequencies.count, n = bands.count, columns = n + (useOffset ? 1 : 0)
        var gains = bands.map { _ in 0.0 }, offset = 0.0
        var response = [Double](repeating: 0, count: rows * n)
        var jacobian = [Double](repeating: 0, count: rows * columns)
        let step = 0.01
        for _ in 0..<iterations {
            for (i, band) in bands.enumerated() {
                let here = Biquad.peaking(frequency: band, gain: gains[i], q: qs[i], sampleRate: sampleRate)
                let there = Biquad.peaking(frequency: band, gain: gains[i] + step, q: qs[i], sampleRate: sampleRate)
                for (p, f) in frequencies.enumerated() {
                    let a = 20 * log10(here.magnitude(at: f, sampleRate: sampleRate))
                    let b = 20 * log10(there.magnitude(at: f, sampleRate: sampleRate))
                    response[p * n + i] = a
                    jacobian[p * columns + i] = (b - a) / step
                }
            }
            var residual = [Double](repeating: 0, count: rows)
            for p in 0..<rows {
                var total = offset
                for i in 0..<n { total += response[p * n + i] }
                residual[p] = targets[p] - total
                if useOffset { jacobian[p * columns + n] = 1 }
            }
            if residual.allSatisfy({ abs($0) < 1e-6 }) { break }
            guard let delta = LinearSolver.leastSquares(jacobian, rows: rows, columns: columns, residual, damping: damping) else { break }
            for i in 0..<n { gains[i] += delta[i] }
            if useOffset { offset += delta[n] }
        }
        return (gains, offset)
    }
}
