import BoomicTestSupport
import Foundation
import Testing

/// The web page in a real browser: Debian's chromium, headless, driven through chromium-driver
/// by python3-selenium (scripts/setup installs the three), against `boomic serve --http` on a
/// sandbox whose samples are imported, with the account anna / sesame (`BoomicSubsonic`).
///
/// A test gives a Python script run after `prelude`, which opens the browser and defines:
/// `BASE` (the server's URL), `login(user, password)` (through the form), `go("album/al-…")`
/// (a page of the router), `wait(css)`, `wait_text(css, text)`, `until(f)` (each up to 20 s),
/// `shot(name)` (a screenshot), `phone()` and `dark()` (the window as a phone's, the system's
/// scheme dark), `api(path)` (a GET of the page's API through the browser's session), and `out`,
/// the dictionary printed as JSON at the end. A script that fails saves `NAME-failed.png`,
/// prints its traceback, the page's address and the browser's console, and the test fails with
/// them. Screenshots go to `WebBrowser.shots` (Documentation/testing.md).
final class WebBrowser {
    static let python = "/usr/bin/python3"
    static let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
        && ((try? ChildProcess.run(python, ["-c", "import selenium"]).succeeded) ?? false)

    /// Where screenshots go: `$BOOMIC_TEST_OUTPUT/web`, else `.build/test-output/web` in the
    /// package.
    static var shots: String {
        let root = ProcessInfo.processInfo.environment["BOOMIC_TEST_OUTPUT"].flatMap { $0.isEmpty ? nil : $0 }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path + "/.build/test-output"
        return root + "/web"
    }

    let box: Sandbox
    let site: BoomicSubsonic
    var base: String { "http://127.0.0.1:\(site.http)" }
    var server: RunningServer { site.server }

    init(_ box: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.box = box
        site = try BoomicSubsonic(box, sourceLocation: sourceLocation)
        try FileManager.default.createDirectory(atPath: Self.shots, withIntermediateDirectories: true)
    }

    /// Runs `script` after the prelude, its screenshots named `name-…`; requires it to succeed
    /// and gives `out` as it printed it.
    func run(_ name: String, _ script: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let path = box.root + "/web-\(name).py"
        try (Self.prelude + "\n" + script + "\n" + Self.epilogue).write(toFile: path, atomically: true, encoding: .utf8)
        let run = try ChildProcess.run(Self.python, [path, base, BoomicSubsonic.user, BoomicSubsonic.password, Self.shots, name,
                                                     box.root + "/chromium-\(name)"])
        try #require(run.succeeded, "\(run)\nserver: \(server.serverLog)", sourceLocation: sourceLocation)
        let last = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], "\(run)", sourceLocation: sourceLocation)
    }

    static let prelude = #"""
    import atexit, json, os, sys, time, traceback
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    BASE, USER, PASSWORD, SHOTS, NAME, PROFILE = sys.argv[1:7]
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
                     "--autoplay-policy=no-user-gesture-required", "--no-first-run", "--user-data-dir=" + PROFILE]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    atexit.register(driver.quit)
    out = {}

    def wait(css, timeout=20):
        return WebDriverWait(driver, timeout).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))
    def wait_text(css, text, timeout=20):
        WebDriverWait(driver, timeout).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))
        return driver.find_element(By.CSS_SELECTOR, css)
    def until(f, timeout=20, what="the condition"):
        return WebDriverWait(driver, timeout).until(lambda d: f(), message=what)
    def shot(name):
        driver.save_screenshot(os.path.join(SHOTS, NAME + "-" + name + ".png"))
    def phone():
        driver.set_window_size(390, 844)
    def dark(on=True):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})
    def login(user=USER, password=PASSWORD):
        driver.get(BASE + "/login")
        wait("#user").send_keys(user)
        driver.find_element(By.ID, "password").send_keys(password)
        driver.find_element(By.ID, "submit").click()
    def go(page):
        driver.get(BASE + "/#/" + page)
    def api(path):
        return driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('api/' + arguments[0]).then(r => r.json()).then(done, e => done({error: String(e)}));", path)

    def failed(kind, value, tb):
        try:
            shot("failed")
            print("page:", driver.current_url, file=sys.stderr)
            for entry in driver.get_log("browser"):
                print("console:", entry.get("level"), entry.get("message"), file=sys.stderr)
        except Exception as e:
            print("(no screenshot: %s)" % e, file=sys.stderr)
        traceback.print_exception(kind, value, tb)
        sys.exit(1)
    sys.excepthook = failed
    """#

    static let epilogue = #"""
    print(json.dumps(out))
    """#
}
