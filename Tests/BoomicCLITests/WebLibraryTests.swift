import BoomicTestSupport
import Foundation
import Testing

/// The library pages in chromium over the samples: albums with their covers, search as the user
/// types finds a song (a title that is markup shows as text), the artists and an artist's albums, an album page shows its songs and cover, a song page shows
/// a field's blame (a `boomic modify` made while the server runs, and the import behind the
/// rest), and the song plays in the page's `<audio>` (its metadata loads: a duration).
@Suite(.serialized, .enabled(if: WebBrowser.available, "scripts/setup installs chromium, chromium-driver and python3-selenium"))
struct WebLibraryTests {
    @Test func albumsSearchAlbumSongBlameAndAudio() throws {
        let box = try Sandbox()
        let browser = try WebBrowser(box)
        try box.succeed("modify", "title:Flamenco", "genre=Flamenco Jazz", "-y")
        // A title that is markup stays text on every page (dom.js never parses data as HTML).
        try box.succeed("modify", "title:So Modal", "title=So <b id=injected>Modal</b><img src=x onerror=alert(1)>", "-y")
        let out = try browser.run("library", #"""
        def loaded(css):
            return driver.execute_script(
                "return [...document.querySelectorAll(arguments[0])].filter(i => i.complete && i.naturalWidth > 0).length", css)
        login()
        go("library")
        wait("#albums .tile")
        until(lambda: loaded("#albums img.cover") > 0, what="a cover shows")
        out["albums"] = len(driver.find_elements(By.CSS_SELECTOR, "#albums .tile"))
        out["covers"] = loaded("#albums img.cover")
        shot("albums")

        search = driver.find_element(By.ID, "search")
        for key in "flamen":
            search.send_keys(key)
        wait_text(".results", "Flamenco Dusk")
        # Each key re-renders the results: read them once the last key's answer is on screen.
        from selenium.common.exceptions import StaleElementReferenceException
        def found():
            try:
                return [a.text for a in driver.find_elements(By.CSS_SELECTOR, ".results table.songs td:nth-child(1) a")]
            except StaleElementReferenceException:
                return None
        out["found"] = until(lambda: driver.current_url.endswith("q=flamen") and found(), what="the results for the whole word")
        out["searchURL"] = driver.current_url
        shot("search")
        search.clear()
        search.send_keys("modal")
        out["markup"] = wait_text(".results", "<b id=injected>").find_element(By.CSS_SELECTOR, "table.songs td a").text
        out["injected"] = driver.execute_script("return document.getElementById('injected') !== null || document.querySelector('.results img:not(.cover)') !== null")
        search.clear()
        search.send_keys("zzzz")
        out["nothing"] = wait_text(".results", "Nothing matches").text

        go("library?tab=artists")
        wait(".list.artists li")
        out["artists"] = [a.text for a in driver.find_elements(By.CSS_SELECTOR, ".list.artists li a")]
        shot("artists")
        driver.find_element(By.LINK_TEXT, "Miles Quartet").click()
        wait_text("h1", "Miles Quartet")
        out["artistAlbums"] = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".grid .tile .name")]
        shot("artist")

        album = api("search?q=" + "Зимняя")["albums"][0]
        go("album/" + album["id"])
        out["albumTitle"] = wait_text("h1", "Зимняя дорога").text
        until(lambda: loaded(".head img.cover") == 1, what="the album's cover shows")
        out["albumSongs"] = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "table.songs tbody td:nth-child(2) a")]
        shot("album")

        song = api("search?q=flamenco")["songs"][0]
        go("song/" + song["id"])
        row = wait("tr[data-field=genre]")
        out["genre"] = row.find_element(By.CSS_SELECTOR, "td.value").text
        out["genreBlame"] = row.find_element(By.CSS_SELECTOR, "td.blame").text
        out["titleBlame"] = driver.find_element(By.CSS_SELECTOR, "tr[data-field=title] td.blame").text
        out["fields"] = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "table.fields th[scope=row]")]
        shot("song")
        driver.find_element(By.ID, "play-song").click()
        until(lambda: driver.execute_script("const a = document.getElementById('audio'); return a && a.readyState >= 1 && a.duration > 0"),
              what="the audio's metadata loads")
        out["audio"] = driver.execute_script(
            "const a = document.getElementById('audio'); return {readyState: a.readyState, duration: a.duration, error: a.error && a.error.code}")
        shot("song-playing")
        phone()
        dark()
        go("album/" + album["id"])
        wait_text("h1", "Зимняя дорога")
        until(lambda: loaded(".head img.cover") == 1, what="the album's cover shows")
        shot("album-phone-dark")
        """#)
        #expect((out["albums"] as? Int ?? 0) >= 6 && (out["covers"] as? Int ?? 0) >= 1, "\(out)")
        #expect(out["found"] as? [String] == ["Flamenco Dusk"], "\(out)")
        #expect((out["searchURL"] as? String)?.hasSuffix("#/library?q=flamen") == true, "\(out)")
        #expect(out["markup"] as? String == "So <b id=injected>Modal</b><img src=x onerror=alert(1)>" && out["injected"] as? Bool == false, "\(out)")
        #expect(out["nothing"] as? String == "Nothing matches “zzzz”.", "\(out)")
        #expect((out["artists"] as? [String])?.contains("Miles Quartet") == true, "\(out)")
        #expect(out["artistAlbums"] as? [String] == ["Blue Sketches"], "\(out)")
        #expect(out["albumSongs"] as? [String] == ["Метель", "Тройка"], "\(out)")
        #expect(out["genre"] as? String == "Flamenco Jazz", "\(out)")
        #expect((out["genreBlame"] as? String)?.contains("genre=Flamenco Jazz") == true, "\(out)")
        #expect((out["titleBlame"] as? String)?.contains("import") == true, "\(out)")
        #expect((out["fields"] as? [String]).map { ["title", "artists", "album", "genre", "path", "added"].allSatisfy($0.contains) } == true, "\(out)")
        let audio = out["audio"] as? [String: Any]
        #expect((audio?["duration"] as? Double ?? 0) > 0 && audio?["error"] is NSNull, "\(out)")
        _ = browser.server.stop()
    }
}
