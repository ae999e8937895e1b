/*
 * Write a tool's output file the way GNU as and QEMU's tools do, without
 * ever replacing something that is not a regular file.
 *
 * A regular file (or a path that does not exist yet) is written to a
 * temporary file in the same directory and renamed over the path, so a
 * reader never sees a half-written output and an error leaves no partial
 * file.  Anything else is written in place: a character device such as
 * /dev/null, a FIFO, a socket, and a symbolic link (followed, so its target
 * is written; the link stays).  lstat() decides before anything is
 * created, so "-o /dev/null" run as root keeps the device.
 *
 *   char err[256];
 *   if (!linx_file_write(path, buf, len, 0644, err, sizeof(err)))
 *       fprintf(stderr, "linx-as: %s\n", err);
 */
#ifndef LINX_UTIL_FILE_WRITE_H
#define LINX_UTIL_FILE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Write LEN bytes of BUF to PATH (mode MODE when the file is created or
 * replaced).  On failure returns false with "cannot write 'PATH': reason"
 * in ERR; a temporary file is removed again. */
bool linx_file_write(const char *path, const void *buf, size_t len, mode_t mode, char *err,
                     size_t errlen);

#endif
