/*
 * JIT code memory.  Never writable and executable at once: the buffer is
 * one memfd mapped twice, a read-write view the backend writes through and
 * a read-execute view the CPU runs (W^X by double mapping).  Code is
 * emitted at the RW view and the same offset is executed at the RX view.
 *
 * Emission follows Blink's builder discipline: begin, append (every append
 * checks space), then commit or abandon.  When the buffer is full the TB
 * being built is abandoned and the exec layer flushes all translations and
 * starts again.
 */
#ifndef LINX_TCG_CODE_BUFFER_H
#define LINX_TCG_CODE_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct CodeBuffer {
    uint8_t *rw;      /* writable view */
    const uint8_t *rx; /* executable view (same offsets) */
    size_t size;
    size_t used;      /* committed bytes */
    size_t reserved;  /* start of the code after the prologue (kept on flush) */
    int fd;
} CodeBuffer;

bool code_buffer_init(CodeBuffer *cb, size_t size);
void code_buffer_destroy(CodeBuffer *cb);

/* Executable address of RW-view pointer @p, and back. */
static inline const void *code_buffer_rx(const CodeBuffer *cb, const uint8_t *p)
{
    return cb->rx + (p - cb->rw);
}

static inline uint8_t *code_buffer_rw(const CodeBuffer *cb, const void *rx)
{
    return cb->rw + ((const uint8_t *)rx - cb->rx);
}

/* Drop all code after the prologue. */
void code_buffer_reset(CodeBuffer *cb);

#endif /* LINX_TCG_CODE_BUFFER_H */
