/// The page's API: every route of `BASE/api/`, one line per feature. A feature's routes are a
/// static list in a file of their own (`LibraryAPI.routes`); adding a feature is one line here.
/// A method and path appear once.
public enum WebAPI {
    public static let all: [WebRoute] = [
        SessionAPI.routes,
        LibraryAPI.routes,
        HistoryAPI.routes,
        TaglistsAPI.routes,
        RoomsAPI.routes,
    ].flatMap { $0 }
}
