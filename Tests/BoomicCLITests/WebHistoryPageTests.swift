import BoomicTestSupport
import Foundation
import Testing

/// The history page in chromium against `boomic serve --http`, with the CLI on the same
/// library between the clicks: the timeline and a change's diff; "Take back this change"
/// shows its preview (nothing changed yet), then Confirm reverts, and `boomic ls` sees it;
/// `boomic undo` from the CLI shows on the page; "Go back to here" (rollback) to the import
/// and the page's "Undo the last change", each previewed, then confirmed.
@Suite(.serialized, .enabled(if: WebBrowser.available, "scripts/setup installs chromium, chromium-driver and python3-selenium"))
struct WebHistoryPageTests {
    /// Python lines giving the script `boomic(*args)` (the CLI on the sandbox's library) and
    /// `genre()`, the genre of the sample "So Modal" as `boomic ls` prints it.
    static func cli(_ box: Sandbox) -> String {
        """
        import subprocess
        EXE, LIB, XDG, ROOT = \(pythonString(box.executable)), \(pythonString(box.library)), \(pythonString(box.root + "/xdg")), \(pythonString(box.root))
        def boomic(*args):
            run = subprocess.run([EXE, "--library", LIB, *args], env=dict(os.environ, XDG_DATA_HOME=XDG), cwd=ROOT,
                                 capture_output=True, text=True, stdin=subprocess.DEVNULL)
            if run.returncode != 0:
                raise RuntimeError("boomic %s: %s" % (" ".join(args), run.stderr))
            return run.stdout
        def genre():
            return boomic("ls", "title:=So Modal", "-f", "$genre").strip()

        """
    }

    static func pythonString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    @Test func takeBackThenUndoFromTheCLIThenGoBackToHere() throws {
        let box = try Sandbox()
        let browser = try WebBrowser(box)
        try box.succeed(["modify", "title:=So Modal", "genre=Webtest", "-y"])
        struct Row: Decodable { var seq: Int; var kind: String }
        let rows = try decodeJSON([Row].self, box.succeed(["history", "--json"]).stdout)
        let edit = try #require(rows.first { $0.kind == "edit" }?.seq)
        let imported = try #require(rows.first { $0.kind == "import" }?.seq)

        let out = try browser.run("history", Self.cli(box) + #"""
        EDIT, IMPORT = \#(edit), \#(imported)
        def tx(seq):
            return 'li.tx[data-seq="%d"]' % seq
        login()
        wait("#user")
        go("history")
        wait(tx(EDIT) + " > .open")
        out["rows"] = [e.get_attribute("data-seq") for e in driver.find_elements(By.CSS_SELECTOR, "li.tx")]
        out["edit-row"] = driver.find_element(By.CSS_SELECTOR, tx(EDIT) + " > .open").text
        shot("timeline")
        driver.find_element(By.CSS_SELECTOR, tx(EDIT) + " > .open").click()
        out["diff"] = wait(tx(EDIT) + " table.diff").text
        shot("diff")

        driver.find_element(By.CSS_SELECTOR, tx(EDIT) + " button.revert").click()
        out["revert-preview"] = wait(tx(EDIT) + ' .preview[data-action="revert"]').text
        out["genre-at-preview"] = genre()
        shot("revert-preview")
        driver.find_element(By.CSS_SELECTOR, tx(EDIT) + " .preview button.confirm").click()
        out["reverted"] = wait("#said .done").text
        out["genre-after-revert"] = genre()
        wait_text("#timeline li.tx:first-child .kind", "revert")
        out["top-after-revert"] = driver.find_element(By.CSS_SELECTOR, "#timeline li.tx:first-child > .open").text
        shot("reverted")

        out["cli-undo"] = boomic("undo", "-y").strip()
        out["genre-after-cli-undo"] = genre()
        driver.find_element(By.ID, "reload").click()
        wait_text("#timeline li.tx:first-child .kind", "undo")
        out["top-after-cli-undo"] = driver.find_element(By.CSS_SELECTOR, "#timeline li.tx:first-child > .open").text
        shot("undone-by-cli")

        wait(tx(IMPORT) + " > .open").click()
        wait(tx(IMPORT) + " button.rollback").click()
        out["rollback-preview"] = wait(tx(IMPORT) + ' .preview[data-action="rollback"]').text
        shot("rollback-preview")
        driver.find_element(By.CSS_SELECTOR, tx(IMPORT) + " .preview button.confirm").click()
        out["rolled-back"] = wait("#said .done").text
        out["genre-after-rollback"] = genre()
        shot("rolled-back")

        driver.find_element(By.ID, "undo").click()
        out["undo-preview"] = wait('#top .preview[data-action="undo"]').text
        shot("undo-preview")
        driver.find_element(By.CSS_SELECTOR, "#top .preview button.confirm").click()
        out["undone"] = wait("#said .done").text
        out["genre-after-page-undo"] = genre()
        out["history"] = boomic("history", "-n", "4")
        phone()
        shot("phone")
        """#)
        #expect((out["rows"] as? [String])?.first == String(edit), "newest first: \(out)")
        #expect((out["edit-row"] as? String)?.contains("modify genre=Webtest (1 song)") == true, "\(out)")
        #expect((out["diff"] as? String)?.contains("genre Jazz Webtest") == true, "\(out["diff"] ?? "")")
        #expect((out["revert-preview"] as? String)?.contains("This would change 1 song") == true, "\(out)")
        #expect(out["genre-at-preview"] as? String == "Webtest", "the preview changes nothing")
        #expect(out["genre-after-revert"] as? String == "Jazz", "\(out)")
        #expect((out["top-after-revert"] as? String)?.contains("by anna via web") == true, "\(out)")
        #expect(out["genre-after-cli-undo"] as? String == "Webtest", "\(out)")
        #expect((out["top-after-cli-undo"] as? String)?.contains("undo") == true, "\(out)")
        #expect((out["rollback-preview"] as? String)?.contains("rollback to \(imported)") == true, "\(out)")
        #expect(out["genre-after-rollback"] as? String == "Jazz", "\(out)")
        #expect(out["genre-after-page-undo"] as? String == "Webtest", "the page's undo takes the rollback back: \(out)")
        #expect((out["history"] as? String)?.contains("undo") == true && (out["history"] as? String)?.contains("by anna via web") == true, "\(out)")
        _ = browser.server.stop()
    }
}
