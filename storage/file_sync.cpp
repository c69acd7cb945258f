#include "storage/file_sync.hpp"

#include <fcntl.h>
#include <unistd.h>

namespace sparts::storage {

bool sync_path(const std::string& path, bool folder) {
    const int fd = ::open(path.c_str(), (folder ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::fsync(fd) == 0;
    ::close(fd);
    return ok;
}

}  // namespace sparts::storage
