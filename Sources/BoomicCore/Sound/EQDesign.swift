import Foundation

/// An `EQSpec` made concrete for one sample rate: the biquads to run, in order, and one plain gain
/// (the preamp, and a fitted curve's level). What `SoundProcessor` runs; designed once per
/// spec and rate, off the audio path.
public struct EQDesign: Hashable, Sendable {
    public let sampleRate: Double
    public var sections: [Biquad]
    /// dB, applied once; with the automatic preamp it keeps `response` at or below 0 dB.
    public var gain: Double

    public init(sampleRate: Double, sections: [Biquad] = [], gain: Double = 0) {
        (self.sampleRate, self.sections, self.gain) = (sampleRate, sections, gain)
    }

    public var linearGain: Double { pow(10, gain / 20) }

    /// Nothing to run: the engine may pass samples through untouched.
    public var isIdentity: Bool { sections.isEmpty && gain == 0 }

    /// The whole chain's steady-state gain at `frequency`, dB, preamp included.
    public func response(at frequency: Double) -> Double {
        gain + sectionsResponse(at: frequency)
    }

    func sectionsResponse(at frequency: Double) -> Double {
        sections.reduce(0) { $0 + 20 * log10($1.magnitude(at: frequency, sampleRate: sampleRate)) }
    }

    /// The highest the sections reach, dB: a 1/96-octave grid from 10 Hz to Nyquist plus the
    /// frequencies named, then each local maximum refined by golden-section search, so that the
    /// automatic preamp takes back the true top of the curve, not the top of a grid point.
    func peakResponse(including frequencies: [Double]) -> Double {
        let nyquist = sampleRate / 2
        var grid = frequencies.filter { $0 < nyquist }
        var f = 10.0
        while f < nyquist { grid.append(f); f *= pow(2, 1.0 / 96) }
        grid.sort()
        let values = grid.map(sectionsResponse(at:))
        var best = values.max() ?? 0
        for i in grid.indices where (i == 0 || values[i] >= values[i - 1]) && (i == grid.count - 1 || values[i] >= values[i + 1]) {
            var lo = log(grid[max(i - 1, 0)]), hi = log(grid[min(i + 1, grid.count - 1)])
            let ratio = (sqrt(5.0) - 1) / 2
            for _ in 0..<30 {
                let a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo)
                if sectionsResponse(at: exp(a)) > sectionsResponse(at: exp(b)) { hi = b } else { lo = a }
            }
            best = max(best, sectionsResponse(at: exp((lo + hi) / 2)))
        }
        return best
    }
}

extension EQSpec {
    /// Bands at or above this share of the sample rate are left out: the bilinear transform
    /// squeezes them against Nyquist (and a 15 kHz band cannot exist at 22.05 kHz at all).
    public static let highestBandShare = 0.45

    /// The chain for `sampleRate`: the graphic sliders compensated for their overlap, the
    /// parametric bands as given, the `GraphicEQ:` curve as a fitted filter bank, and a gain of
    /// minus the largest boost (never more than a file's `Preamp:`), so that no sine clips.
    public func design(sampleRate: Double) -> EQDesign {
        let top = sampleRate * Self.highestBandShare
        var sections: [Biquad] = []
        var level = 0.0
        var centres: [Double] = []
        if graphic.contains(where: { $0 != 0 }) {
            let used = Self.graphicFrequencies.indices.filter { Self.graphicFrequencies[$0] < top }
            let fit = GainFit(
                sampleRate: sampleRate,
                frequencies: used.map { Self.graphicFrequencies[$0] },
                bands: used.map { Self.graphicFrequencies[$0] },
                qs: used.map { _ in Self.graphicQ }
            )
            let gains = fit.solve(targets: used.map { graphic[$0] }, offset: false, damping: 0, iterations: 12).gains
            sections += zip(used, gains).map { .peaking(frequency: Self.graphicFrequencies[$0.0], gain: $0.1, q: Self.graphicQ, sampleRate: sampleRate) }
            centres += used.map { Self.graphicFrequencies[$0] }
        }
        for band in bands where band.gain != 0 && band.frequency < top {
            sections.append(band.biquad(sampleRate: sampleRate))
            centres.append(band.frequency)
        }
        if !curve.isEmpty {
            let (bank, offset) = Self.fitCurve(curve, sampleRate: sampleRate)
            sections += bank
            level = offset
        }
        var design = EQDesign(sampleRate: sampleRate, sections: sections, gain: 0)
        let headroom = -(design.peakResponse(including: centres) + level)
        design.gain = level + min(preamp ?? 0, headroom)
        if abs(design.gain) < 1e-12 { design.gain = 0 }
        return design
    }

    /// The graphic bands' Q: about an octave and a quarter wide, so that the six bands (1.3 to
    /// 2.6 octaves apart) join into a smooth curve; their overlap is what `GainFit` takes out.
    static let graphicQ = 1.2

    /// A `GraphicEQ:` curve as peaking filters every quarter octave from 20 Hz up to the top
    /// band (each 2/3 octave wide), plus a level, with gains fitted by damped least squares to the
    /// curve (read linearly on a log-frequency axis, as Equalizer APO does) on a 1/24-octave grid
    /// and at the curve's own points: a few dozen biquads instead of the 127 peaks, or of an FIR
    /// long enough to reach 20 Hz.
    static func fitCurve(_ curve: [EQCurvePoint], sampleRate: Double, bandsPerOctave: Double = curveBandsPerOctave, bandwidth: Double = curveBandwidth, damping: Double = 1e-3, iterations: Int = 10) -> (sections: [Biquad], level: Double) {
        let top = min(20000, sampleRate * highestBandShare)
        let lowest = max(curve.first!.frequency, 10), highest = min(curve.last!.frequency, top)
        var grid: [Double] = []
        var f = lowest
        while f <= highest { grid.append(f); f *= pow(2, 1.0 / 24) }
        grid += curve.map(\.frequency).filter { $0 >= lowest && $0 <= highest }
        var centres: [Double] = []
        f = 20
        while f < top { centres.append(f); f *= pow(2, 1.0 / bandsPerOctave) }
        let qs = centres.map { q(octaves: bandwidth, at: $0, sampleRate: sampleRate) }
        let fit = GainFit(sampleRate: sampleRate, frequencies: grid, bands: centres, qs: qs)
        let (gains, level) = fit.solve(targets: grid.map { interpolate(curve, at: $0) }, offset: true, damping: damping, iterations: iterations)
        let sections = centres.indices.compactMap { i in
            abs(gains[i]) < 1e-4 ? nil : Biquad.peaking(frequency: centres[i], gain: gains[i], q: qs[i], sampleRate: sampleRate)
        }
        return (sections, level)
    }

    /// The fitted bank's density and each band's width, in octaves: bands wider than their
    /// spacing overlap enough for the sum to follow a curve between centres. Measured on two
    /// AutoEq curves (`Tests/Fixtures/AutoEq`), from 20 Hz to 16 kHz at 44.1 and 48 kHz:
    /// 3 per octave, 30 sections: 0.42 and 0.72 dB off at worst; 4 per octave, 40 sections:
    /// 0.35 and 0.28 dB; 6 per octave, 60 sections: 0.19 and 0.15 dB.
    static let curveBandsPerOctave = 4.0
    static let curveBandwidth = 2.0 / 3

    /// The Q that gives a peaking biquad `octaves` of bandwidth at `frequency` after the bilinear
    /// transform (the cookbook's BW form): with one Q for all, bands near Nyquist would narrow
    /// and leave gaps between them that no choice of gains can fill.
    static func q(octaves: Double, at frequency: Double, sampleRate: Double) -> Double {
        let w0 = 2 * Double.pi * frequency / sampleRate
        return 1 / (2 * sinh(log(2) / 2 * octaves * w0 / sin(w0)))
    }

    /// The curve's gain at `frequency`: linear in log frequency between points, flat beyond them.
    static func interpolate(_ curve: [EQCurvePoint], at frequency: Double) -> Double {
        guard frequency > curve.first!.frequency else { return curve.first!.gain }
        guard frequency < curve.last!.frequency else { return curve.last!.gain }
        let i = curve.firstIndex { $0.frequency >= frequency }!
        let (a, b) = (curve[i - 1], curve[i])
        let t = log(frequency / a.frequency) / log(b.frequency / a.frequency)
        return a.gain + t * (b.gain - a.gain)
    }
}
