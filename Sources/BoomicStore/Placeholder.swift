// BoomicStore: the generic Transactor and its SQLite log (being written).
