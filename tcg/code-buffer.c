/*
 * JIT code memory with W^X by double mapping (code-buffer.h).
 *
 * One anonymous memfd is mapped twice: PROT_READ|PROT_WRITE (the view the
 * backend writes) and PROT_READ|PROT_EXEC (the view the CPU runs).  No
 * page is ever writable and executable in the same mapping.  x86-64 keeps
 * instruction fetch coherent with stores through another mapping of the
 * same page, so no cache maintenance is needed there; other hosts would
 * add it in code_buffer_commit.
 */
#include "tcg/code-buffer.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 1u
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14 */
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

bool code_buffer_init(CodeBuffer *cb, size_t size)
{
    long hps = sysconf(_SC_PAGESIZE);
    size_t page = hps > 0 ? (size_t)hps : 4096;
    void *rw, *rx;
    int fd;

    memset(cb, 0, sizeof(*cb));
    cb->fd = -1;
    if (size == 0) {
        size = CODE_BUFFER_DEFAULT_SIZE;
    }
    size = (size + page - 1) & ~(page - 1);
    fd = memfd_create("linxemu-jit", MFD_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    if (ftruncate(fd, (off_t)size) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return false;
    }
    rw = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (rw == MAP_FAILED) {
        int e = errno;
        close(fd);
        errno = e;
        return false;
    }
    rx = mmap(NULL, size, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
    if (rx == MAP_FAILED) {
        int e = errno;
        munmap(rw, size);
        close(fd);
        errno = e;
        return false;
    }
    cb->rw = rw;
    cb->rx = rx;
    cb->size = size;
    cb->fd = fd;
    return true;
}

void code_buffer_destroy(CodeBuffer *cb)
{
    if (cb->rw) {
        munmap(cb->rw, cb->size);
        munmap((void *)cb->rx, cb->size);
    }
    if (cb->fd >= 0) {
        close(cb->fd);
    }
    memset(cb, 0, sizeof(*cb));
    cb->fd = -1;
}

void code_buffer_populate(CodeBuffer *cb, size_t upto)
{
    size_t step = cb->populated, end;

    if (upto <= cb->populated || !cb->rw) {
        return;
    }
    step = step < CODE_BUFFER_POPULATE_MIN   ? CODE_BUFFER_POPULATE_MIN
           : step > CODE_BUFFER_POPULATE_MAX ? CODE_BUFFER_POPULATE_MAX
                                             : step;
    end = cb->populated + step;
    if (end < upto) {
        end = (upto + CODE_BUFFER_POPULATE_MIN - 1) / CODE_BUFFER_POPULATE_MIN *
              CODE_BUFFER_POPULATE_MIN;
    }
    if (end > cb->size) {
        end = cb->size;
    }
    /* Errors (an old kernel: EINVAL) leave the pages to fault in. */
    (void)madvise(cb->rw + cb->populated, end - cb->populated, MADV_POPULATE_WRITE);
    (void)madvise((void *)(cb->rx + cb->populated), end - cb->populated, MADV_POPULATE_READ);
    cb->populated = end;
}

void code_buffer_reset(CodeBuffer *cb)
{
    cb->used = cb->reserved;
    cb->start = cb->cur = cb->used;
    cb->overflow = false;
}

void code_buffer_set_reserved(CodeBuffer *cb)
{
    cb->reserved = cb->used;
}

uint8_t *code_buffer_begin(CodeBuffer *cb)
{
    cb->start = cb->cur = cb->used;
    cb->overflow = false;
    return cb->rw + cb->start;
}

bool code_buffer_emit(CodeBuffer *cb, const void *bytes, size_t n)
{
    if (n > cb->size - cb->cur) {
        cb->overflow = true;
        return false;
    }
    memcpy(cb->rw + cb->cur, bytes, n);
    cb->cur += n;
    return true;
}

const void *code_buffer_commit(CodeBuffer *cb)
{
    size_t next;

    if (cb->overflow) {
        code_buffer_abandon(cb);
        return NULL;
    }
    next = (cb->cur + CODE_BUFFER_ALIGN - 1) & ~(size_t)(CODE_BUFFER_ALIGN - 1);
    cb->used = next < cb->size ? next : cb->size;
    return cb->rx + cb->start;
}

void code_buffer_abandon(CodeBuffer *cb)
{
    cb->cur = cb->start = cb->used;
    cb->overflow = false;
}
