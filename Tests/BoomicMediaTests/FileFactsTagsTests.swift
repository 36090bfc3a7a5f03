import BoomicCore
import BoomicMedia
import Testing

@Suite struct FileFactsTagsTests {
    func facts(_ tags: [String: [String]]) -> FileFacts {
        var f = FileFacts(path: "/m/a.flac", size: 1, mtime: 2)
        f.apply(tags: tags)
        return f
    }

    @Test func everyField() {
        let f = facts([
            "TITLE": ["So Modal"], "ARTIST": ["Miles", "Bill"], "ALBUM": ["Blue"],
            "ALBUMARTIST": ["Miles Quartet"], "TRACKNUMBER": ["3/12"], "DISCNUMBER": ["1/2"],
            "DATE": ["1969-09-26"], "GENRE": ["Jazz"], "COMPOSER": ["M. D."], "COMPILATION": ["1"],
            "COMMENT": ["take 2"], "REPLAYGAIN_TRACK_GAIN": ["-6.50 dB"], "REPLAYGAIN_TRACK_PEAK": ["0.98"],
            "REPLAYGAIN_ALBUM_GAIN": ["+1.2 dB"], "REPLAYGAIN_ALBUM_PEAK": ["1.0"],
            "MUSICBRAINZ_TRACKID": ["t"], "MUSICBRAINZ_ALBUMID": ["a"], "MUSICBRAINZ_ARTISTID": ["ar"],
            "MUSICBRAINZ_ALBUMARTISTID": ["aa"], "MUSICBRAINZ_RELEASEGROUPID": ["rg"],
        ])
        var expected = FileFacts(path: "/m/a.flac", size: 1, mtime: 2)
        expected.title = "So Modal"
        expected.artists = ["Miles", "Bill"]
        expected.album = "Blue"
        expected.albumartist = "Miles Quartet"
        expected.track = 3
        expected.tracktotal = 12
        expected.disc = 1
        expected.disctotal = 2
        expected.year = 1969
        expected.date = "1969-09-26"
        expected.genre = "Jazz"
        expected.composer = "M. D."
        expected.compilation = true
        expected.comment = "take 2"
        expected.replaygainTrackGain = -6.5
        expected.replaygainTrackPeak = 0.98
        expected.replaygainAlbumGain = 1.2
        expected.replaygainAlbumPeak = 1.0
        expected.mbTrackID = "t"
        expected.mbAlbumID = "a"
        expected.mbArtistID = "ar"
        expected.mbAlbumArtistID = "aa"
        expected.mbReleaseGroupID = "rg"
        #expect(f == expected)
    }

    @Test func flacStyleTotals() {
        let f = facts(["TRACKNUMBER": ["03"], "TRACKTOTAL": ["12"], "DISCNUMBER": ["2"], "DISCTOTAL": ["3"]])
        #expect(f.track == 3 && f.tracktotal == 12 && f.disc == 2 && f.disctotal == 3)
        let g = facts(["TRACKNUMBER": ["4"], "TOTALTRACKS": ["9"], "DISCNUMBER": ["1"], "TOTALDISCS": ["2"]])
        #expect(g.track == 4 && g.tracktotal == 9 && g.disc == 1 && g.disctotal == 2)
    }

    @Test func slashTotalWinsOverTotalKey() {
        let f = facts(["TRACKNUMBER": ["3/12"], "TRACKTOTAL": ["11"]])
        #expect(f.tracktotal == 12)
    }

    @Test func yearOnlyDateHasNoDate() {
        let f = facts(["DATE": ["1971"]])
        #expect(f.year == 1971 && f.date == nil)
        let g = facts(["YEAR": ["1985"]])
        #expect(g.year == 1985 && g.date == nil)
    }

    @Test func multiValuedArtistKeepsEachValueAndDropsEmpties() {
        let f = facts(["ARTIST": ["A; B", "", "  ", "C / D"]])
        #expect(f.artists == ["A; B", "C / D"])
    }

    /// Picard and beets: one credit in ARTIST, the artists one by one in ARTISTS (issue 9, 2.14).
    @Test func artistsKeyHoldsTheList() {
        #expect(facts(["ARTISTS": ["A", "B"]]).artists == ["A", "B"])
        #expect(facts(["ARTIST": ["A & B"], "ARTISTS": ["A", "B"]]).artists == ["A", "B"])
        #expect(facts(["ARTIST": ["A & B"], "ARTISTS": ["", " "]]).artists == ["A & B"])
    }

    /// Beside ARTISTS, ARTIST is the credit people read ("A feat. B"); kept only when it says
    /// something else than the list joined.
    @Test func artistBesideArtistsIsTheCredit() {
        #expect(facts(["ARTIST": ["A feat. B"], "ARTISTS": ["A", "B"]]).artistCredit == "A feat. B")
        #expect(facts(["ARTIST": ["A; B"], "ARTISTS": ["A", "B"]]).artistCredit == nil)
        #expect(facts(["ARTISTS": ["A", "B"]]).artistCredit == nil)
        #expect(facts(["ARTIST": ["A", "B"]]).artistCredit == nil)
        #expect(facts(["ARTIST": ["A feat. B"], "ARTISTS": [" "]]).artistCredit == nil)
    }

    @Test func listsJoinAndSinglesTakeTheFirst() {
        let f = facts(["GENRE": ["Rock", "Pop"], "TITLE": ["One", "Two"], "COMPOSER": ["X", "Y"],
                       "ALBUMARTIST": ["P", "Q"]])
        #expect(f.genre == "Rock; Pop")
        #expect(f.composer == "X; Y")
        #expect(f.albumartist == "P; Q")
        #expect(f.title == "One")
    }

    @Test func sortNamesAreKept() {
        let f = facts(["ARTISTSORT": ["Beatles, The"], "ALBUMARTISTSORT": ["Beatles, The", "Martin, George"],
                       "ALBUMSORT": ["White Album, The", "Other"]])
        #expect(f.artistSort == "Beatles, The")
        #expect(f.albumartistSort == "Beatles, The; Martin, George")
        #expect(f.albumSort == "White Album, The")
    }

    @Test func performersConductorsLabelAndOriginalDate() {
        let f = facts(["PERFORMER": ["A (piano)", "B (drums)"], "CONDUCTOR": ["C"], "LABEL": ["L1", "L2"], "ORIGINALDATE": ["1971-02"]])
        #expect(f.performer == "A (piano); B (drums)" && f.conductor == "C")
        #expect(f.label == "L1" && f.originalDate == "1971-02")
    }

    /// Classical tags: Vorbis says MOVEMENT and MOVEMENTTOTAL, TagLib's ID3 and MP4 names say
    /// MOVEMENTNUMBER (`3/4`, or with MOVEMENTCOUNT); several composer sort names and work ids
    /// are joined as composers are.
    @Test func worksMovementsAndGrouping() {
        let vorbis = facts(["WORK": ["Symphony No. 5"], "MOVEMENTNAME": ["Allegro"], "MOVEMENT": ["1"], "MOVEMENTTOTAL": ["4"],
                            "GROUPING": ["G"], "COMPOSERSORT": ["B, L", "M, W"], "MUSICBRAINZ_WORKID": ["w1", "w2"],
                            "MUSICBRAINZ_RELEASETRACKID": ["rt"]])
        #expect(vorbis.work == "Symphony No. 5" && vorbis.movement == "Allegro" && vorbis.grouping == "G")
        #expect(vorbis.movementNumber == 1 && vorbis.movementTotal == 4)
        #expect(vorbis.composerSort == "B, L; M, W" && vorbis.mbWorkID == "w1; w2" && vorbis.mbReleaseTrackID == "rt")
        let id3 = facts(["MOVEMENTNUMBER": ["3/4"]])
        #expect(id3.movementNumber == 3 && id3.movementTotal == 4)
        let mp4 = facts(["MOVEMENTNUMBER": ["2"], "MOVEMENTCOUNT": ["5"]])
        #expect(mp4.movementNumber == 2 && mp4.movementTotal == 5)
        #expect(facts(["MOVEMENT": ["I. Allegro"]]).movementNumber == nil)
    }

    /// ID3's genre codes for a remix and a cover, which TagLib leaves as they are.
    @Test func genreWordsAreSpelledOut() {
        #expect(facts(["GENRE": ["RX", "Rock"]]).genre == "Remix; Rock")
        #expect(facts(["GENRE": ["CR"]]).genre == "Cover")
        #expect(facts(["GENRE": ["RXB"]]).genre == "RXB")
    }

    @Test func emptyValuesAreAbsent() {
        let f = facts(["TITLE": [""], "ALBUM": ["   "], "GENRE": [], "ARTIST": [""]])
        #expect(f.title == nil && f.album == nil && f.genre == nil && f.artists.isEmpty)
    }

    @Test func garbageNumbersBecomeNil() {
        let f = facts([
            "TRACKNUMBER": ["x/y"], "DISCNUMBER": ["-1"], "DATE": ["someday"], "COMPILATION": ["maybe"],
            "REPLAYGAIN_TRACK_GAIN": ["loud"], "REPLAYGAIN_TRACK_PEAK": ["nan"],
            "TRACKTOTAL": ["∞"], "DISCTOTAL": ["99999999999999999999"],
        ])
        #expect(f.track == nil && f.tracktotal == nil && f.disc == nil && f.disctotal == nil)
        #expect(f.year == nil && f.date == nil && f.compilation == false)
        #expect(f.replaygainTrackGain == nil && f.replaygainTrackPeak == nil)
    }

    /// Opus's R128 gains (1/256 dB to -23 LUFS) as ReplayGain (-18 LUFS), as MPD reads them;
    /// ReplayGain's own tags first.
    @Test func r128GainsAreReplayGainFiveDecibelsLouder() {
        let f = facts(["R128_TRACK_GAIN": ["-2560"], "R128_ALBUM_GAIN": [" 384 "]])
        #expect(f.replaygainTrackGain == -5 && f.replaygainAlbumGain == 6.5 && f.replaygainTrackPeak == nil)
        #expect(facts(["R128_TRACK_GAIN": ["-2560"], "REPLAYGAIN_TRACK_GAIN": ["-7.00 dB"]]).replaygainTrackGain == -7)
        for bad in ["-10 dB", "1.5", "40000", "", "nan"] {
            #expect(facts(["R128_TRACK_GAIN": [bad]]).replaygainTrackGain == nil, "\(bad)")
        }
    }

    @Test func keysAreCaseInsensitive() {
        #expect(facts(["title": ["t"]]).title == "t")
    }

    @Test func commentFallsBackToDescription() {
        #expect(facts(["DESCRIPTION": ["d"]]).comment == "d")
    }

    @Test func audioZerosBecomeNil() {
        var f = FileFacts(path: "/a.mp3", size: 1, mtime: 1)
        f.apply(audio: AudioProperties(lengthMilliseconds: 2038, sampleRate: 44100, channels: 2,
                                       bitrateKbps: 194, bitsPerSample: 0), format: .mp3)
        #expect(f.duration == 2.038 && f.samplerate == 44100 && f.channels == 2 && f.bitrate == 194)
        #expect(f.bitdepth == nil && f.format == "mp3")
        f.apply(audio: AudioProperties(lengthMilliseconds: 0, sampleRate: 0, channels: 0,
                                       bitrateKbps: 0, bitsPerSample: 24), format: .flac)
        #expect(f.duration == nil && f.samplerate == nil && f.channels == nil && f.bitrate == nil)
        #expect(f.bitdepth == 24 && f.format == "flac")
    }
}
