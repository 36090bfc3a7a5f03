import BoomicSystem

/// Checking and rewriting the snapshot images: the checkpoints that are images, and the image
/// file beside the log (`verify`, storage.md "Where it lives").
extension Transactor {
    /// Every block of every stored checkpoint that is a snapshot image, and of the image file,
    /// checked against its checksum and its kind's structure (`SnapshotImage.damagedBlocks`):
    /// one line for each damaged block (or image that does not open), naming it.
    ///
    /// A checkpoint whose whole-blob checksum fails is named by `storedCheckpoint(at:)` already;
    /// here its damaged blocks are named too. An image file that is missing or holds another
    /// checkpoint than the newest is no damage (the next open replaces it); one that does not
    /// open, or has a damaged block, is.
    public func imageDamage() throws -> [String] {
        var lines: [String] = []
        try reader.withLock { r in
            try r.log.connection.transaction(immediate: false) {
                let stmt = try r.log.connection.statement("SELECT seq, data FROM checkpoints ORDER BY seq")
                defer { stmt.reset() }
                while try stmt.step() {
                    let seq = stmt.int(0)
                    let damage = stmt.withBytes(1) { raw -> [String] in
                        guard raw.count >= ImageLayout.headerSize, raw.prefix(8).elementsEqual(ImageLayout.magic) else { return [] }
                        return Self.damage(of: ImageBytes(copying: raw))
                    }
                    lines += damage.map { "checkpoint \(seq): \($0)" }
                }
            }
        }
        if let imageFile, let mapped = try? MappedFile(path: imageFile.path) {
            let name = imageFile.path.split(separator: "/").last.map(String.init) ?? imageFile.path
            lines += Self.damage(of: ImageBytes(mapping: mapped)).map { "\(name): \($0)" }
        }
        return lines
    }

    /// What is wrong with an image: why it does not open, or each damaged block (its reason
    /// names the block).
    static func damage(of bytes: ImageBytes) -> [String] {
        do {
            return try SnapshotImage(bytes).damagedBlocks().map(\.reason)
        } catch {
            return [SnapshotImage.reason(error)]
        }
    }

    /// Replaces the image file with the newest checkpoint of this codec's format, whatever it
    /// holds (`verify --repair`; opening replaces only a file whose header differs).
    ///
    /// - Returns: the seq written; nil when the codec writes no images or there is no checkpoint.
    @discardableResult
    public func rewriteImageFile() throws -> Int? {
        guard let codec, imageFile != nil else { return nil }
        if let readOnlyBecause { throw readOnlyBecause }
        return try writer.withLock { w in try writeImageFile(w, format: codec.format) }
    }

    /// Writes the newest checkpoint of `format` (checksum checked) as the image file.
    /// Returns its seq; nil when there is none.
    func writeImageFile(_ w: WriteSide, format: Int) throws -> Int? {
        guard let imageFile else { return nil }
        let newest = try w.log.latestCheckpointSeq(atOrBefore: .max, format: format)
        guard newest > 0 else { return nil }
        let written = try w.log.checkpoint(at: newest, format: format) { imageFile.write($0, logPath: path) }
        guard case .success(true)? = written else {
            throw StoreError.badEncoding("cannot write \(imageFile.path) from checkpoint \(newest)")
        }
        return newest
    }
}
