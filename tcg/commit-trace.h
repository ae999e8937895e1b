/*
 * Commit trace: one JSON object per retired instruction (JSON Lines), with
 * the LinxISA QEMU peer's schema 1.0 fields in the peer's order
 * (../shared/docs/peer-qemu.md section 2.1), so existing LinxISA model-diff
 * tools read our traces unchanged:
 *
 *   cycle pc insn len wb_valid wb_rd wb_data src0_valid src0_reg src0_data
 *   src1_valid src1_reg src1_data dst_valid dst_reg dst_data mem_valid
 *   mem_is_store mem_addr mem_wdata mem_rdata mem_size trap_valid
 *   trap_cause block_kind lane_id tile_meta tile_ref_src tile_ref_dst
 *   trapno_full traparg0 next_pc
 *
 * All integers are decimal; block_kind and tile_meta are strings; cycle is
 * the running commit index (0, 1, ...), filled in by the writer.  The
 * first record alone carries one more key at its end, "isa_profile" (the
 * ISA profile the run used, e.g. "linx-toolchain"), when the front end
 * names one; readers that take the peer's keys by name ignore it.  Unlike
 * the peer (fprintf + fflush per line) the writer formats into a 64 KiB
 * buffer and writes it when full, on flush and on close.
 *
 * The front end fills a LinxCommitRecord in its trace helper and calls
 * linx_commit_trace_write(env->engine.trace, &rec); the exec layer opens the
 * writer for -trace-commit FILE / LINX_COMMIT_TRACE and sets env->engine.trace.
 *
 * Usage:
 *   char err[256];
 *   LinxCommitTrace *t = linx_commit_trace_open("qemu.jsonl", err, sizeof(err));
 *   LinxCommitRecord r = { .pc = pc, .insn = raw, .len = 4, .block_kind = "scalar",
 *                          .lane_id = -1, .next_pc = pc + 4 };
 *   linx_commit_trace_write(t, &r);
 *   linx_commit_trace_close(t);
 */
#ifndef LINX_TCG_COMMIT_TRACE_H
#define LINX_TCG_COMMIT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct LinxCommitRecord {
    const char *isa_profile; /* written with the first record only (NULL: none) */
    uint64_t pc;
    uint64_t insn;
    uint32_t len;
    bool wb_valid;
    uint32_t wb_rd;
    uint64_t wb_data;
    bool src0_valid;
    uint32_t src0_reg;
    uint64_t src0_data;
    bool src1_valid;
    uint32_t src1_reg;
    uint64_t src1_data;
    bool dst_valid;
    uint32_t dst_reg;
    uint64_t dst_data;
    bool mem_valid;
    bool mem_is_store;
    uint64_t mem_addr;
    uint64_t mem_wdata;
    uint64_t mem_rdata;
    uint32_t mem_size;
    bool trap_valid;
    uint64_t trap_cause;    /* low 16 bits: cause << 8 | trapnum */
    const char *block_kind; /* scalar|vpar|vseq|tma|cube|tepl|call|ret|sys; NULL = "scalar" */
    int64_t lane_id;        /* -1 for scalar */
    const char *tile_meta;  /* NULL = "" */
    uint64_t tile_ref_src;
    uint64_t tile_ref_dst;
    uint64_t trapno_full;
    uint64_t traparg0;
    uint64_t next_pc;
} LinxCommitRecord;

typedef struct LinxCommitTrace LinxCommitTrace;

/* Open (truncate) @path; NULL with a message in @err on failure. */
LinxCommitTrace *linx_commit_trace_open(const char *path, char *err, size_t errlen);
/* Write into an already open stream (not closed by close: flushed only). */
LinxCommitTrace *linx_commit_trace_open_fd(int fd);
void linx_commit_trace_write(LinxCommitTrace *t, const LinxCommitRecord *r);
/* Push buffered lines to the file; false after a write error. */
bool linx_commit_trace_flush(LinxCommitTrace *t);
/* Flush and close; false if any write failed.  NULL is fine. */
bool linx_commit_trace_close(LinxCommitTrace *t);
/* Records written so far (the next record's cycle). */
uint64_t linx_commit_trace_count(const LinxCommitTrace *t);
/* Write only @n more records and drop the rest: the peer's "stop after
 * commit" (the virt machine's EXIT store is the last traced instruction). */
void linx_commit_trace_stop_after(LinxCommitTrace *t, uint64_t n);

#endif /* LINX_TCG_COMMIT_TRACE_H */
