import HashTreeCollections
import Synchronization

/// The entities of a basis beside its songs: taglists, playlists, EQ profiles and annotations.
public struct BasisLists: Sendable, Equatable {
    /// The user's taglists (DESIGN §5), stored entities so their definitions have history.
    public var taglists: TreeDictionary<ListID, Taglist> = [:]
    public var playlists: TreeDictionary<ListID, Playlist> = [:]
    /// Saved equalizer profiles (`boomic eq save`).
    public var eqProfiles: TreeDictionary<ListID, EQProfile> = [:]
    /// Stars and ratings of albums and artists (`Annotation`), by a key that outlives renames.
    public var annotations: TreeDictionary<AnnotationKey, Annotation> = [:]

    public init() {}

    public init(taglists: [ListID: Taglist], playlists: [ListID: Playlist],
                eqProfiles: [ListID: EQProfile], annotations: [AnnotationKey: Annotation]) {
        self.taglists = TreeDictionary(uniqueKeysWithValues: taglists)
        self.playlists = TreeDictionary(uniqueKeysWithValues: playlists)
        self.eqProfiles = TreeDictionary(uniqueKeysWithValues: eqProfiles)
        self.annotations = TreeDictionary(uniqueKeysWithValues: annotations)
    }
}

/// A basis's lists, held as they are or owed by the checkpoint image they are read from.
///
/// An image's lists are decoded when first read, not at the open: the first decode of these
/// types costs a command 4.4 million instructions, a tenth of a small `ls` (the runtime's first
/// look-up of each `Codable` conformance they need scans every conformance in the program), and
/// most commands (`ls`, `modify`, `history`) never read a list.
enum HeldLists: Sendable {
    case ready(BasisLists)
    case owed(OwedLists)

    var value: BasisLists {
        switch self {
        case .ready(let lists): lists
        case .owed(let owed): owed.value
        }
    }
}

/// Lists decoded once, by their first reader; later readers get the same value.
final class OwedLists: Sendable {
    private enum State {
        case pending(@Sendable () -> BasisLists)
        case done(BasisLists)
    }

    private let state: Mutex<State>

    /// `decode` must not fail: the image's bytes were checked against their checksums at the
    /// open, so they are what an encoder of this format wrote.
    init(_ decode: @escaping @Sendable () -> BasisLists) {
        state = Mutex(.pending(decode))
    }

    /// Whether a reader has decoded them (for tests of the lazy path).
    var isDecoded: Bool {
        state.withLock { if case .done = $0 { true } else { false } }
    }

    var value: BasisLists {
        state.withLock { state in
            switch state {
            case .done(let lists):
                return lists
            case .pending(let decode):
                let lists = decode()
                state = .done(lists)
                return lists
            }
        }
    }
}
