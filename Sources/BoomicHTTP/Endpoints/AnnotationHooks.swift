import BoomicCore
import BoomicLibrary

/// What the media endpoints tell the annotation side: a `stream` of a song from its start.
enum AnnotationHooks {
    /// A stream of `song` from position 0 to `caller`: a play pending until that client
    /// scrobbles it, or counted once the song's length has passed if that client never scrobbles
    /// (`Listening.streamed`, `ListeningLedger`). Committed on the front's commit queue; the
    /// stream goes on whatever happens here (a failure is one line on serve's stderr).
    static func streamed(song: SongID, caller: Caller, front: HTTPContext) async {
        let context = front.annotations
        let time = context.now()
        do { _ = try await context.run { _ = try context.listening.streamed(song, by: caller, at: time) } } catch {
            front.warn("cannot record the stream of \(CatalogID.song(song)) to \(caller.user): \(error.localizedDescription)")
        }
    }
}
