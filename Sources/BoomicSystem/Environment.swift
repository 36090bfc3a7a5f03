import Glibc

/// One environment variable, read where it is asked for.
///
/// `ProcessInfo.processInfo.environment` copies the whole environment into a new dictionary on
/// every call: about 350,000 instructions each, where a `boomic` command's own work may be a few
/// million. The variables a command consults on its way (the library's location, test hooks,
/// `NO_COLOR`) are read here, one at a time.
public enum Environment {
    /// The variable's value, or nil when it is not set. An empty value is returned as it is:
    /// what empty means (unset, the current folder) is the caller's to decide.
    public static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }
}
