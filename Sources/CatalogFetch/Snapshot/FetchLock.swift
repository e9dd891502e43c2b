import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One fetch at a time per output folder: an exclusive `flock(2)` on the hidden file `.<name>.fetch-lock` beside
/// the target, held from opening the snapshot until the process ends or the lock is released. A second fetch into
/// the same `--output` stops at once (exit 2) instead of writing pages into the first one's temporary folder.
/// The file is removed on release; a fetch that locked a file another one had just removed locks again. The lock
/// file is never followed through a symbolic link (`O_NOFOLLOW`): a link there could make fetch create or lock a
/// file elsewhere, so it stops, naming it.
final class FetchLock: @unchecked Sendable {
    /// The lock file's path.
    let path: String
    private var descriptor: Int32

    /// Takes the lock for the target `name` in `parent`, or throws naming the target.
    init(parent: String, name: String, target: String) throws(FetchError) {
        path = (parent == "/" ? "" : parent) + "/." + name + ".fetch-lock"
        while true {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else {
                var info = stat()
                if errno == ELOOP || (lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK) {
                    throw FetchError.output(path: target, reason: "the lock file \(path) is a symbolic link, which "
                                            + "fetch never follows; remove it")
                }
                throw FetchError.output(path: target, reason: "cannot create the lock file \(path): "
                                        + String(cString: strerror(errno)))
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let busy = errno == EWOULDBLOCK
                let reason = String(cString: strerror(errno))
                close(fd)
                throw FetchError.output(path: target, reason: busy
                    ? "another fetch into this folder is running (it holds \(path)); wait for it to end"
                    : "cannot lock \(path): \(reason)")
            }
            // The holder before us may have removed the file after we opened it: lock the file that is there now.
            var held = stat()
            var current = stat()
            if fstat(fd, &held) == 0, lstat(path, &current) == 0, held.st_ino == current.st_ino,
               held.st_dev == current.st_dev {
                descriptor = fd
                return
            }
            close(fd)
        }
    }

    /// Removes the lock file and releases the lock (at most once).
    func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
