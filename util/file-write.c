/*
 * Output files: temp-and-rename for regular files, in place for the rest
 * (util/file-write.h).
 */
#include "util/file-write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool write_all(int fd, const uint8_t *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            if (n == 0) {
                errno = EIO;
            }
            return false;
        }
        p += n;
        len -= (size_t)n;
    }
    return true;
}

/* Not a regular file (device, FIFO, socket, symbolic link): open it as it
 * is and write; a symbolic link is followed.  O_TRUNC only matters where
 * the link leads to a regular file. */
static bool write_in_place(const char *path, const void *buf, size_t len, mode_t mode, char *err,
                           size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, mode);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    if (!write_all(fd, buf, len)) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        close(fd);
        return false;
    }
    if (close(fd) != 0) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    return true;
}

static bool write_by_rename(const char *path, const void *buf, size_t len, mode_t mode, char *err,
                            size_t errlen)
{
    size_t n = strlen(path) + sizeof(".tmpXXXXXX");
    char *tmp = malloc(n);
    int fd;

    if (!tmp) {
        snprintf(err, errlen, "cannot write '%s': out of memory", path);
        return false;
    }
    snprintf(tmp, n, "%s.tmpXXXXXX", path);
    fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create '%s': %s", tmp, strerror(errno));
        free(tmp);
        return false;
    }
    if (!write_all(fd, buf, len) || fchmod(fd, mode) != 0) {
        snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return false;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return false;
    }
    free(tmp);
    return true;
}

bool linx_file_write(const char *path, const void *buf, size_t len, mode_t mode, char *err,
                     size_t errlen)
{
    struct stat st;

    if (lstat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "cannot write '%s': %s", path, strerror(EISDIR));
            return false;
        }
        if (!S_ISREG(st.st_mode)) {
            return write_in_place(path, buf, len, mode, err, errlen);
        }
    } else if (errno != ENOENT) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    return write_by_rename(path, buf, len, mode, err, errlen);
}
