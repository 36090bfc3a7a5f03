import Foundation
import PackagePlugin

/// Embeds the web page's files (Sources/BoomicHTTP/Web/Assets) in the `boomic` binary: one Swift
/// file listing each file's name, bytes and SHA-256, so that the page ships inside the program
/// with no folder beside it (SwiftPM's resources would need `Bundle.module`'s folder).
///
/// The bytes are written as base64 string literals, decoded once when the server starts: a
/// string literal of 100 kB compiles at once, where an array literal of 100,000 integers keeps
/// the type checker busy for seconds.
///
/// A build command whose inputs are the folder and its files: changing a file, adding or
/// removing one reruns it (the folder's modification time changes with its entries), and an
/// unchanged folder rebuilds nothing. The script reads the folder itself, so a file added since
/// SwiftPM last planned the build is embedded too. Names are restricted to letters, digits, `.`,
/// `_` and `-` (they become URL paths and Swift literals); any other name fails the build.
@main
struct WebAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // The target is in Sources/NAME (the package names no other path for it).
        let folder = context.package.directoryURL.appending(path: "Sources/\(target.name)/Web/Assets")
        let files = ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "WebAssetFiles.swift")
        let script = #"""
            set -eu
            dir="$1"; out="$2"; tmp="$out.tmp.$$"
            {
              printf '// Written by the WebAssets plugin (Plugins/WebAssets) from Sources/BoomicHTTP/Web/Assets.\n'
              printf '/// The web page'"'"'s files as the build found them.\nenum WebAssetFiles {\n'
              printf '    /// Each file: its name, its bytes in base64 and their SHA-256 in hex.\n'
              printf '    static let all: [(name: String, base64: String, sha256: String)] = [\n'
              for f in "$dir"/*; do
                [ -f "$f" ] || continue
                name=${f##*/}
                case "$name" in
                  *[!A-Za-z0-9._-]*) echo "error: $f: a web asset's name may hold only letters, digits, '.', '_' and '-'" >&2; exit 1;;
                esac
                printf '        ("%s", "%s", "%s"),\n' "$name" "$(base64 -w0 "$f")" "$(sha256sum "$f" | cut -c1-64)"
              done
              printf '    ]\n}\n'
            } > "$tmp"
            mv "$tmp" "$out"
            """#
        return [.buildCommand(
            displayName: "Embedding the web page's files",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "webassets", folder.path, output.path],
            inputFiles: [folder] + files,
            outputFiles: [output])]
    }
}
