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
 *
 * Layout:  [0, reserved)  prologue/epilogue (kept across resets)
 *          [reserved, used)  committed TB code
 *          [start, cur)   the code being built (start == used)
 *
 * Usage (backend):
 *   uint8_t *p = code_buffer_begin(cb);
 *   code_buffer_emit8(cb, 0xc3);                 // ret
 *   if (code_buffer_overflowed(cb)) { code_buffer_abandon(cb); return false; }
 *   const void *code = code_buffer_commit(cb);   // RX address of p
 *   ... after the prologue: code_buffer_set_reserved(cb);
 */
#ifndef LINX_TCG_CODE_BUFFER_H
#define LINX_TCG_CODE_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Default size (the exec layer's LinxExecOptions.code_buffer_size = 0). */
#define CODE_BUFFER_DEFAULT_SIZE (64u * 1024 * 1024)
/* Committed code starts on this boundary (cache lines). */
#define CODE_BUFFER_ALIGN 16

typedef struct CodeBuffer {
    uint8_t *rw;      /* writable view */
    const uint8_t *rx; /* executable view (same offsets) */
    size_t size;
    size_t used;      /* committed bytes */
    size_t reserved;  /* start of the code after the prologue (kept on flush) */
    int fd;
    /* Builder state. */
    size_t start;     /* offset of the code being built */
    size_t cur;       /* next byte to emit */
    bool overflow;    /* an append did not fit since code_buffer_begin */
    size_t populated; /* [0, populated) is mapped in both views (code_buffer_populate) */
} CodeBuffer;

/* Pages are put into both views in steps that double from
 * CODE_BUFFER_POPULATE_MIN (a program with little code populates little)
 * up to CODE_BUFFER_POPULATE_MAX bytes. */
#define CODE_BUFFER_POPULATE_MIN (32u * 1024)
#define CODE_BUFFER_POPULATE_MAX (256u * 1024)

/* Make sure [0, @upto) (at most the whole buffer) is backed and mapped in
 * both views, a step at a time, with one madvise(MADV_POPULATE_WRITE /
 * MADV_POPULATE_READ) per view and step instead of a page fault per page
 * when the backend first writes a page and again when the CPU first runs
 * it (docs/performance.md, "Translation cost").  Only a hint: where the
 * host refuses, the pages fault in as before. */
void code_buffer_populate(CodeBuffer *cb, size_t upto);

/* Map @size bytes (rounded up to host pages).  False (with errno set and
 * nothing mapped) when memfd or mmap fails. */
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

/* Mark everything committed so far as the prologue (kept by reset). */
void code_buffer_set_reserved(CodeBuffer *cb);

/* ---- Builder ---- */

/* Start building at the first free byte; returns its RW address. */
uint8_t *code_buffer_begin(CodeBuffer *cb);

/* Append @n bytes; false (and the overflow flag) when they do not fit. */
bool code_buffer_emit(CodeBuffer *cb, const void *bytes, size_t n);

static inline bool code_buffer_emit8(CodeBuffer *cb, uint8_t v)
{
    if (cb->cur >= cb->size) {
        cb->overflow = true;
        return false;
    }
    cb->rw[cb->cur++] = v;
    return true;
}

static inline bool code_buffer_emit32(CodeBuffer *cb, uint32_t v)
{
    return code_buffer_emit(cb, &v, sizeof(v));
}

static inline bool code_buffer_emit64(CodeBuffer *cb, uint64_t v)
{
    return code_buffer_emit(cb, &v, sizeof(v));
}

/* RW address of the next byte, and bytes emitted since begin. */
static inline uint8_t *code_buffer_ptr(const CodeBuffer *cb)
{
    return cb->rw + cb->cur;
}

static inline size_t code_buffer_offset(const CodeBuffer *cb)
{
    return cb->cur - cb->start;
}

static inline bool code_buffer_overflowed(const CodeBuffer *cb)
{
    return cb->overflow;
}

/* Bytes still free after the current position. */
static inline size_t code_buffer_room(const CodeBuffer *cb)
{
    return cb->size - cb->cur;
}

/* Keep the code built since begin; returns its RX address, or NULL when
 * an append overflowed (the code is then abandoned). */
const void *code_buffer_commit(CodeBuffer *cb);
/* Forget the code built since begin. */
void code_buffer_abandon(CodeBuffer *cb);

#endif /* LINX_TCG_CODE_BUFFER_H */
