import Foundation
import PackagePlugin

/// Records the commit `boomic` is built from, so that `boomic --version` can name it.
///
/// A prebuild command, because it must run on every build: a commit changes no source file that
/// SwiftPM could track. The script rewrites `BuildInfo.swift` only when the commit changed, so an
/// unchanged tree relinks nothing. Outside a git checkout (a source tarball) the commit is "unknown".
///
/// SwiftPM runs it only when it plans a build anew, not on an incremental build of an unchanged
/// Package.swift (swiftlang/swift-package-manager#5476): a fresh clone's build and
/// `scripts/install`, which touches Package.swift, name their commit; a developer's
/// incremental build may name an earlier one.
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let generated = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = #"""
            set -eu
            dir="$1"; out="$2/BuildInfo.swift"
            mkdir -p "$2"
            commit=$(git -C "$dir" describe --always --dirty --abbrev=12 --match=NONE 2>/dev/null || echo unknown)
            tmp="$out.tmp.$$"
            printf '/// Written by the BuildInfo plugin on every build (Plugins/BuildInfo).\nenum BuildInfo {\n    /// The commit this binary was built from (`git describe --always --dirty`), or "unknown".\n    static let commit = "%s"\n}\n' "$commit" > "$tmp"
            if cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv "$tmp" "$out"; fi
            """#
        return [.prebuildCommand(
            displayName: "Recording the commit boomic is built from",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "buildinfo", context.package.directoryURL.path, generated.path],
            outputFilesDirectory: generated)]
    }
}
