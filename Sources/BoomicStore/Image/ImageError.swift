/// How a snapshot image is refused: one line, naming the block when one is at fault.
extension StoreError {
    public static func image(_ reason: String) -> StoreError { .badEncoding("the snapshot image \(reason)") }
}
