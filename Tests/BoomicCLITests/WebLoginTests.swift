import BoomicTestSupport
import Foundation
import Testing

/// The web page's login in chromium: a wrong password is refused on the form; the right one
/// opens the page with its header (the pages, the user, log out), which works on a phone's
/// width and in the dark; logging out returns to the form and the page is closed again.
@Suite(.serialized, .enabled(if: WebBrowser.available, "scripts/setup installs chromium, chromium-driver and python3-selenium"))
struct WebLoginTests {
    @Test func logInRefusedThenAcceptedThenOut() throws {
        let box = try Sandbox()
        let browser = try WebBrowser(box)
        let out = try browser.run("login", #"""
        login(USER, "hunter2-web")
        out["refused"] = wait_text(".message", "Wrong").text
        out["refusedAt"] = driver.current_url
        shot("refused")
        login()
        out["user"] = wait_text("#user", USER).text
        out["nav"] = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#nav a")]
        wait("main h1")
        shot("home")
        cookies = driver.get_cookies()
        out["cookie"] = [{k: c.get(k) for k in ("name", "httpOnly", "sameSite", "path", "secure")} for c in cookies]
        out["script-sees-cookie"] = driver.execute_script("return document.cookie")
        phone()
        dark()
        shot("home-phone-dark")
        driver.find_element(By.ID, "logout").click()
        out["out"] = wait_text(".message", "Logged out").text
        go("library")
        until(lambda: "/login" in driver.current_url, what="the page sends to the login")
        out["after"] = driver.current_url
        """#)
        #expect(out["refused"] as? String == "Wrong user name or password.", "\(out)")
        #expect((out["refusedAt"] as? String)?.hasSuffix("/login?failed") == true)
        #expect(out["user"] as? String == "anna")
        #expect(out["nav"] as? [String] == ["Library", "History", "Taglists", "Rooms"], "\(out)")
        let cookie = (out["cookie"] as? [[String: Any]])?.first
        #expect(cookie?["name"] as? String == "boomic_session" && cookie?["httpOnly"] as? Bool == true
                && cookie?["sameSite"] as? String == "Strict" && cookie?["path"] as? String == "/" && cookie?["secure"] as? Bool == false, "\(out)")
        #expect(out["script-sees-cookie"] as? String == "", "HttpOnly: the page's scripts never see it")
        #expect(out["out"] as? String == "Logged out.")
        #expect((out["after"] as? String)?.contains("/login") == true, "\(out)")
        #expect(browser.server.serverLog.contains("failed login of user 'anna' from 127.0.0.1 on the web page"), "\(browser.server.serverLog)")
        #expect(!browser.server.serverLog.contains("hunter2-web"), "never the password")
        _ = browser.server.stop()
    }
}
