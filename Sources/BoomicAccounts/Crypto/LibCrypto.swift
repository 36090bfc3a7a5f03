#if canImport(Glibc)
import Glibc
#endif

/// The system's libcrypto (OpenSSL 3), opened the first time an account is used rather than at
/// every start: linked, its symbols were 2.1 M of the 30 M instructions of `boomic --version`,
/// paid by every command for what only `serve --http` and `boomic user` need.
///
/// The functions are OpenSSL 3's stable ABI, declared here by hand from its headers (`evp.h`,
/// `hmac.h`); the known-answer tests call each of them.
struct LibCrypto: Sendable {
    typealias Digest = @convention(c) () -> OpaquePointer?
    typealias EVPDigest = @convention(c) (UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?,
                                          UnsafeMutablePointer<UInt32>?, OpaquePointer?, OpaquePointer?) -> Int32
    typealias HMACOneShot = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int32, UnsafePointer<UInt8>?, Int,
                                            UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> UnsafeMutablePointer<UInt8>?
    typealias CipherNew = @convention(c) () -> OpaquePointer?
    typealias CipherFree = @convention(c) (OpaquePointer?) -> Void
    typealias CipherInit = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?,
                                           UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) -> Int32
    typealias CipherUpdate = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?,
                                             UnsafePointer<UInt8>?, Int32) -> Int32
    typealias CipherFinal = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?) -> Int32
    typealias CipherControl = @convention(c) (OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32

    /// `EVP_CTRL_GCM_GET_TAG` and `EVP_CTRL_GCM_SET_TAG` (`evp.h`).
    static let gcmGetTag: Int32 = 0x10, gcmSetTag: Int32 = 0x11

    let md5: Digest, sha256: Digest, digest: EVPDigest, hmac: HMACOneShot
    let aes256GCM: Digest
    let cipherNew: CipherNew, cipherFree: CipherFree, cipherControl: CipherControl
    let encryptInit: CipherInit, encryptUpdate: CipherUpdate, encryptFinal: CipherFinal
    let decryptInit: CipherInit, decryptUpdate: CipherUpdate, decryptFinal: CipherFinal

    /// The library, opened once.
    static let opened = open()

    /// Throws, with the package to install, when the library cannot be used: what every account
    /// operation asks first (`Accounts.change`, `authenticator`), so that a system without it
    /// gets one line when `boomic user` or `serve --http` starts rather than a stop at a login.
    static func require() throws(AccountError) {
        if case .failure(let failure) = opened { throw .cryptoMissing(failure.description) }
    }

    /// The opened library. Reached only after `require()` succeeded: every path to a digest or a
    /// seal goes through an account operation that asks it first.
    static var shared: LibCrypto {
        switch opened {
        case .success(let lib): return lib
        case .failure(let failure): preconditionFailure("libcrypto used without LibCrypto.require(): \(failure)")
        }
    }

    enum Failure: Error { case missing(String) }

    static func open() -> Result<LibCrypto, Failure> {
        guard let handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) else {
            return .failure(.missing("libcrypto.so.3 cannot be opened; on Debian: apt install libssl3"))
        }
        func symbol<F>(_ name: String, as _: F.Type) throws(Failure) -> F {
            guard let p = dlsym(handle, name) else { throw .missing("libcrypto.so.3 has no \(name)") }
            return unsafeBitCast(p, to: F.self)
        }
        do throws(Failure) {
            return .success(LibCrypto(
                md5: try symbol("EVP_md5", as: Digest.self), sha256: try symbol("EVP_sha256", as: Digest.self),
                digest: try symbol("EVP_Digest", as: EVPDigest.self), hmac: try symbol("HMAC", as: HMACOneShot.self),
                aes256GCM: try symbol("EVP_aes_256_gcm", as: Digest.self),
                cipherNew: try symbol("EVP_CIPHER_CTX_new", as: CipherNew.self),
                cipherFree: try symbol("EVP_CIPHER_CTX_free", as: CipherFree.self),
                cipherControl: try symbol("EVP_CIPHER_CTX_ctrl", as: CipherControl.self),
                encryptInit: try symbol("EVP_EncryptInit_ex", as: CipherInit.self),
                encryptUpdate: try symbol("EVP_EncryptUpdate", as: CipherUpdate.self),
                encryptFinal: try symbol("EVP_EncryptFinal_ex", as: CipherFinal.self),
                decryptInit: try symbol("EVP_DecryptInit_ex", as: CipherInit.self),
                decryptUpdate: try symbol("EVP_DecryptUpdate", as: CipherUpdate.self),
                decryptFinal: try symbol("EVP_DecryptFinal_ex", as: CipherFinal.self)))
        } catch {
            return .failure(error)
        }
    }
}

extension LibCrypto.Failure: CustomStringConvertible {
    var description: String {
        switch self { case .missing(let message): message }
    }
}
