@testable import BoomicMPD
import NIOCore

/// An MPD connection (`MPDConnection`) over a NIO channel, for the tests: on an
/// `EmbeddedChannel` a test reads and writes what the client would, runs the loop when it
/// chooses, and turns the channel's writability in the middle of the connection's own writes
/// (outbound handlers in front of this one), as the server's socket (`SocketConnection`) may.
final class ChannelConnection: ChannelInboundHandler, ConnectionIO {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let server: ServerContext
    private let client: ClientState
    private var connection: MPDConnection?
    private var context: ChannelHandlerContext!

    init(server: ServerContext, client: ClientState) {
        self.server = server
        self.client = client
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        connection = MPDConnection(server: server, client: client, io: self)
    }

    func channelActive(context: ChannelHandlerContext) {
        connection?.started()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection?.ended()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection?.read(unwrapInboundIn(data))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        connection?.readComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        connection?.writabilityChanged()
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .inputClosed? = event as? ChannelEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        connection?.inputClosed()
    }

    // MARK: ConnectionIO

    var isWritable: Bool { context.channel.isWritable }
    var isActive: Bool { context.channel.isActive }

    func setReading(_ reading: Bool) {
        context.channel.setOption(ChannelOptions.autoRead, value: reading).whenComplete { _ in }
    }

    func write(_ bytes: ByteBuffer, sent: (@Sendable () -> Void)?) {
        guard let sent else {
            context.write(NIOAny(bytes), promise: nil)
            return
        }
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { _ in sent() }
        context.write(NIOAny(bytes), promise: promise)
    }

    func flush() { context.flush() }

    func writeAndFlush(_ bytes: ByteBuffer) { context.writeAndFlush(NIOAny(bytes), promise: nil) }

    /// Writes complete in order, so an empty write after the answers completes once they are
    /// written, or failed when the client went: then the channel closes.
    func closeWhenSent() {
        let written = context.eventLoop.makePromise(of: Void.self)
        let context = NIOLoopBound(context!, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in context.value.close(promise: nil) }
        context.value.writeAndFlush(NIOAny(ByteBuffer()), promise: written)
    }

    var loop: any ConnectionLoop { ChannelLoop(eventLoop: context.eventLoop) }
}

/// A channel's event loop as the connection's loop.
struct ChannelLoop: ConnectionLoop {
    let eventLoop: any EventLoop
    func execute(_ task: @escaping @Sendable () -> Void) { eventLoop.execute(task) }
}
