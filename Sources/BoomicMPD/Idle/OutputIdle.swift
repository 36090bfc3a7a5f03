import BoomicAudio

/// What `enableoutput`, `disableoutput` and `toggleoutput` tell idle clients, as MPD 0.23 tells
/// them (checked with Debian's mpd): `output`, and `mixer` too for an output that has a mixer,
/// except when `toggleoutput` turns it on. Switching an output to what it already is tells
/// nothing (the caller does not ask).
///
/// | output | enable, disable, toggle off | toggle on |
/// |---|---|---|
/// | `alsa` | `mixer` `output` | `output` |
/// | `null`, `wav:` | `output` | `output` |
public enum OutputIdle {
    /// Whether MPD gives such an output a mixer: its default `mixer_type` is `hardware`, which
    /// only ALSA's plugin has; MPD's `null`, `fifo` and `pipe` outputs (Boomic's `null` and
    /// `wav:`) have none. Boomic's own volume is every room's, mixer or not.
    public static func hasMixer(_ spec: SinkSpec) -> Bool {
        if case .alsa = spec { true } else { false }
    }

    /// The subsystems an output switched to `on` tells; `toggled`: by `toggleoutput`.
    public static func switched(_ spec: SinkSpec, on: Bool, toggled: Bool = false) -> Set<Subsystem> {
        hasMixer(spec) && !(toggled && on) ? [.mixer, .output] : [.output]
    }
}
