/*
 * gdb "monitor" commands (the qRcmd packet): introspection gdb's register
 * and memory views do not cover.  Output goes to gdb as 'O' packets (gdb
 * prints it); the final reply is "OK", or an error after a message for a
 * bad command.
 *
 *   (gdb) monitor help
 *   (gdb) monitor dis main 6          Linx disassembly (gdb's x/i decodes RISC-V)
 *   (gdb) monitor bt                  Linx frames from the FENTRY templates (frames.c)
 *   (gdb) monitor info blocks         the blocks from the stopped one on
 *   (gdb) monitor info tb             the translations covering pc
 *   (gdb) monitor info tlb            the CPU's TLB
 *   (gdb) monitor trace on t.jsonl    commit trace from here (trace off stops it)
 *   (gdb) monitor tile t#1            tile t#1 through its layout (hw/linx/tile-dump.h)
 *   (gdb) monitor tile acc hex full   the accumulator, element bits, whole matrix
 *   (gdb) monitor tiles               one header line per written tile
 *   (gdb) monitor regs                every register of the target description
 *   (gdb) monitor ssr 0x1f03          any SSR by number (manager SSRs too)
 *   (gdb) monitor ssr 0 0x1000        write one
 *   (gdb) monitor tb-flush            drop all translations
 *   (gdb) monitor stats               exec-layer counters
 *
 * Addresses are numbers, register names (pc, bpc, sp, ...) or program
 * symbols, optionally +/- a number ("main+8").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/gdbstub-internal.h"
#include "gdbstub/regs.h"
#include "hw/core/guest-memory.h"
#include "hw/linx/tile-dump.h"
#include "target/linx/disas.h"
#include "target/linx/translate-gen.h" /* linx_form_is_marker */
#include "tcg/exec.h"
#include "tcg/softmmu.h"

#define MONITOR_ERR "E16" /* EINVAL: unknown command or bad arguments */
#define MAX_WORDS 8
#define REGS_PER_LINE 4
#define DEFAULT_COUNT 8
#define MAX_DIS_COUNT 4096
/* info blocks: instructions scanned looking for the blocks asked for. */
#define MAX_BLOCK_SCAN 65536
#define MAX_INSN_BYTES 8
/* Bytes of output per 'O' packet ('O' + two hex digits per byte). */
#define OUTPUT_CHUNK ((GDB_MAX_PACKET - 1) / 2)

/* Manager SSRs 0xnFxx: ring n in bits 15:12, index in bits 7:0. */
#define SSR_MGR_INDEX_MASK 0xffu
#define SSR_ACR_MASK 0xfu
/* SSR 0x0002 is linxemu's FCSR (target/linx/helper_sys.c). */
#define SSR_FCSR 0x0002u

/* User SSRs the register table already describes. */
static const struct {
    uint32_t id;
    const char *reg;
} ssr_regs[] = {
    { LINX_SSR_TP, "tp" },          { LINX_SSR_GP, "gp" },
    { SSR_FCSR, "fcsr" },           { LINX_SSR_TIME, "cycle" },
    { LINX_SSR_CYCLE, "cycle" },    { LINX_SSR_CSTATE, "cstate" },
    { LINX_SSR_LCFR_EN, "lcfr_en" }, { LINX_SSR_LB0, "lb0" },
    { LINX_SSR_LB0 + 1, "lb1" },    { LINX_SSR_LB0 + 2, "lb2" },
    { LINX_SSR_LC0, "lc0" },        { LINX_SSR_LC0 + 1, "lc1" },
    { LINX_SSR_LC2, "lc2" },
};

static void send_output(GdbStub *s, const char *text, size_t len)
{
    for (size_t off = 0; off < len; off += OUTPUT_CHUNK) {
        size_t n = MIN(OUTPUT_CHUNK, len - off);
        g_string_assign(s->reply, "O");
        gdb_hex_append(s->reply, (const uint8_t *)text + off, n);
        gdb_send_reply(s);
    }
}

static bool parse_u64(const char *w, uint64_t *v)
{
    char *end;

    errno = 0;
    *v = strtoull(w, &end, 0);
    return w[0] != '-' && *end == 0 && end != w && errno == 0;
}

/* "t#1".."n#8" (also "t1"), "acc", or a tile id 0..32. */
static bool parse_tile(const char *w, unsigned *id)
{
    static const char hands[] = "tumn";
    const char *h = w[0] ? strchr(hands, g_ascii_tolower(w[0])) : NULL;
    uint64_t v;

    if (!strcmp(w, "acc") || !strcmp(w, "ACC")) {
        *id = LINX_TILE_ACC_ID;
        return true;
    }
    if (h) {
        const char *k = w + 1 + (w[1] == '#');
        if (parse_u64(k, &v) && v >= 1 && v <= LINX_TILE_DEPTH) {
            *id = linx_tile_id((LinxTileHand)(h - hands), (unsigned)v);
            return true;
        }
        return false;
    }
    if (parse_u64(w, &v) && v <= LINX_TILE_ACC_ID) {
        *id = (unsigned)v;
        return true;
    }
    return false;
}

static bool cmd_tile(CPULinxState *env, FILE *out, char **w, unsigned n)
{
    LinxTileDumpOpts opts = { 0 };
    unsigned id;

    if (n < 2 || !parse_tile(w[1], &id)) {
        fprintf(out, "usage: monitor tile t#1..n#8|acc|ID [hex] [full]\n");
        return false;
    }
    for (unsigned i = 2; i < n; i++) {
        if (!strcmp(w[i], "hex")) {
            opts.flags |= LINX_TILE_DUMP_HEX;
        } else if (!strcmp(w[i], "full")) {
            opts.flags |= LINX_TILE_DUMP_FULL;
        } else {
            fprintf(out, "tile: unknown option '%s' (hex, full)\n", w[i]);
            return false;
        }
    }
    if (!env->tiles) {
        fprintf(out, "this machine has no tile register file\n");
        return false;
    }
    linx_tile_dump(out, env->tiles, id, &opts);
    return true;
}

/* The slot of manager SSR @id (any ring: the debugger sees them all). */
static uint64_t *mgr_ssr(CPULinxState *env, uint64_t id)
{
    unsigned ring = (unsigned)(id >> LINX_SSR_ACR_SHIFT) & SSR_ACR_MASK;

    if (id > UINT16_MAX || (id & LINX_SSR_MGR_MASK) != LINX_SSR_MGR_BASE ||
        ring >= LINX_NUM_ACRS) {
        return NULL;
    }
    return &env->mgr_ssr[ring][id & SSR_MGR_INDEX_MASK];
}

static bool cmd_ssr(CPULinxState *env, FILE *out, char **w, unsigned n)
{
    uint64_t id, v = 0;
    uint64_t *slot;
    int reg = -1;

    if ((n != 2 && n != 3) || !parse_u64(w[1], &id) || (n == 3 && !parse_u64(w[2], &v))) {
        fprintf(out, "usage: monitor ssr ID [VALUE]\n");
        return false;
    }
    for (size_t i = 0; i < sizeof(ssr_regs) / sizeof(ssr_regs[0]); i++) {
        if (ssr_regs[i].id == id) {
            reg = gdb_reg_lookup(ssr_regs[i].reg);
        }
    }
    slot = mgr_ssr(env, id);
    if (reg < 0 && !slot && id != LINX_SSR_LXLCID) {
        fprintf(out, "ssr 0x%" PRIx64 ": not an SSR linxemu models\n", id);
        return false;
    }
    if (n == 3) {
        bool ok = slot ? (*slot = v, true) : reg >= 0 && gdb_reg_write(env, (unsigned)reg, v);
        if (!ok) {
            fprintf(out, "ssr 0x%" PRIx64 " is read-only\n", id);
            return false;
        }
    }
    v = slot ? *slot : reg >= 0 ? gdb_reg_read(env, (unsigned)reg) : env->engine.cpu_index;
    fprintf(out, "ssr 0x%04" PRIx64 " = 0x%016" PRIx64 "\n", id, v);
    return true;
}

/* Every register of the Linx description (no side effects, unlike a -d
 * cpu dump, which re-syncs the block state over values gdb may have
 * written). */
static void cmd_regs(CPULinxState *env, FILE *out)
{
    unsigned n = gdb_reg_count(GDB_TDESC_LINX);

    for (unsigned i = 0; i < n; i++) {
        fprintf(out, "%-8s %016" PRIx64 "%s", gdb_reg_name(i), gdb_reg_read(env, i),
                i % REGS_PER_LINE == REGS_PER_LINE - 1 || i + 1 == n ? "\n" : "  ");
    }
}

/* An address: a number, a register name ("pc" or "$pc"), or a program
 * symbol, with an optional "+N" or "-N". */
static bool parse_addr(GdbStub *s, CPULinxState *env, const char *w, uint64_t *addr)
{
    const char *op;

    if (w[0] == '$' && w[1]) {
        w++; /* gdb's spelling of a register ($pc) */
    }
    op = strpbrk(w + 1, "+-");
    char *base = g_strndup(w, op ? (size_t)(op - w) : strlen(w));
    uint64_t off = 0, v;
    const GdbSym *sym;
    int reg;
    bool ok = true;

    if (op && !parse_u64(op + 1, &off)) {
        ok = false;
    } else if (parse_u64(base, &v)) {
        *addr = v;
    } else if ((reg = gdb_reg_lookup(base)) >= 0 && !gdb_reg_is_padding((unsigned)reg)) {
        *addr = gdb_reg_read(env, (unsigned)reg);
    } else if ((sym = gdb_symbol_named(s, base))) {
        *addr = sym->addr;
    } else {
        ok = false;
    }
    if (ok && op) {
        *addr = *op == '+' ? *addr + off : *addr - off;
    }
    g_free(base);
    return ok;
}

/* [ADDR [N]] operands: @addr and @count keep their defaults when absent. */
static bool parse_addr_count(GdbStub *s, CPULinxState *env, FILE *out, char **w, unsigned n,
                             unsigned first, uint64_t *addr, uint64_t *count, const char *usage)
{
    if (n > first + 2 || (n > first && !parse_addr(s, env, w[first], addr)) ||
        (n > first + 1 && (!parse_u64(w[first + 1], count) || *count == 0))) {
        fprintf(out, "usage: monitor %s\n", usage);
        return false;
    }
    return true;
}

static const char *symbol_lookup(void *opaque, uint64_t addr, uint64_t *offset)
{
    const GdbSym *sym = gdb_symbol_at(opaque, addr, false);

    if (!sym) {
        return NULL;
    }
    *offset = addr - sym->addr;
    return sym->name;
}

/* Read up to MAX_INSN_BYTES at @pc; the bytes readable. */
static size_t read_code(CPULinxState *env, uint64_t pc, uint8_t *buf)
{
    size_t n = 0;

    while (n < MAX_INSN_BYTES && env->engine.mem &&
           guest_mem_debug_rw(env->engine.mem, pc + n, buf + n, 2, false) == GM_OK) {
        n += 2;
    }
    return n;
}

/* One disassembled line: "0xADDR <sym+off>: hex  text"; returns the
 * instruction's length (0 when nothing can be read there). */
static unsigned dis_line(GdbStub *s, CPULinxState *env, FILE *out, uint64_t pc, bool *marker)
{
    LinxDisasEnv de = { .flags = LINX_DISAS_F_FUSED_CALL, .lookup = symbol_lookup,
                        .opaque = s, .profile = env->profile };
    char text[LINX_DISAS_MAX], hex[64];
    uint8_t buf[MAX_INSN_BYTES];
    size_t avail = read_code(env, pc, buf);
    unsigned len = 0;
    LinxInsn insn;
    const GdbSym *sym = gdb_symbol_at(s, pc, false);

    if (avail == 0) {
        fprintf(out, "0x%016" PRIx64 ": cannot read memory\n", pc);
        return 0;
    }
    linx_disas_bytes(buf, avail, pc, &de, text, sizeof(text), &len);
    if (len == 0 || len > avail) {
        fprintf(out, "0x%016" PRIx64 ": %s\n", pc, text);
        return 0;
    }
    linx_disas_squeeze(text);
    linx_disas_hex(buf, len, hex, sizeof(hex));
    if (marker) {
        *marker = linx_decode(buf, avail, &insn) == LINX_DECODE_OK &&
                  linx_form_is_marker(insn.form);
    }
    if (sym && sym->addr == pc) {
        fprintf(out, "%s:\n", sym->name);
    }
    fprintf(out, "%s0x%016" PRIx64 ": %-18s %s\n", pc == env->pc ? "=> " : "   ", pc, hex, text);
    return len;
}

static bool cmd_dis(GdbStub *s, CPULinxState *env, FILE *out, char **w, unsigned n)
{
    uint64_t pc = env->pc, count = DEFAULT_COUNT;

    if (!parse_addr_count(s, env, out, w, n, 1, &pc, &count, "dis [ADDR [COUNT]]")) {
        return false;
    }
    if (count > MAX_DIS_COUNT) {
        count = MAX_DIS_COUNT;
    }
    fprintf(out, "# ISA profile %s\n", env->profile ? env->profile->name : "linx-toolchain");
    for (uint64_t i = 0; i < count; i++) {
        unsigned len = dis_line(s, env, out, pc, NULL);
        if (len == 0) {
            break;
        }
        pc += len;
    }
    return true;
}

static const char *const br_kind_names[] = { "none", "fall", "direct", "cond",
                                             "call", "ind",  "icall",  "ret" };
static const char *const blk_type_names[] = { "std",  "sys",  "fp",   "mpar", "mseq",
                                              "vpar", "vseq", "tma",  "cube", "tepl",
                                              "fixp", "template" };

static const char *name_of(const char *const *names, size_t n, uint64_t v)
{
    return v < n ? names[v] : "?";
}

/* info blocks [ADDR [N]]: the block state, then N blocks from ADDR (the
 * stopped block's start by default), each from its marker (or from the
 * instruction after a BSTOP) with its instruction count. */
static bool cmd_info_blocks(GdbStub *s, CPULinxState *env, FILE *out, char **w, unsigned n)
{
    uint64_t pc = env->bpc ? env->bpc : env->pc, count = DEFAULT_COUNT, seen = 0;
    uint64_t insns = 0;
    bool marker = false, stopped = false;

    if (!parse_addr_count(s, env, out, w, n, 2, &pc, &count, "info blocks [ADDR [COUNT]]")) {
        return false;
    }
    fprintf(out,
            "stopped at pc 0x%" PRIx64 " in the %s block at bpc 0x%" PRIx64
            " (branch kind %s, target 0x%" PRIx64 ")\n",
            env->pc, name_of(blk_type_names, sizeof(blk_type_names) / sizeof(*blk_type_names),
                             env->blk_type),
            env->bpc, name_of(br_kind_names, sizeof(br_kind_names) / sizeof(*br_kind_names),
                              env->br_kind),
            env->hdr_target);
    for (uint64_t i = 0; i < MAX_BLOCK_SCAN; i++) {
        uint8_t buf[MAX_INSN_BYTES];
        size_t avail = read_code(env, pc, buf);
        LinxInsn insn;
        if (avail == 0 || linx_decode(buf, avail, &insn) != LINX_DECODE_OK) {
            break;
        }
        /* A block starts at a marker, or after a BSTOP ended the last. */
        marker = linx_form_is_marker(insn.form) || stopped;
        stopped = insn.form == LINX_F_BSTOP || insn.form == LINX_F_C_BSTOP;
        if (marker || i == 0) {
            if (i > 0) {
                fprintf(out, "      (%" PRIu64 " instruction%s)\n", insns, insns == 1 ? "" : "s");
                if (++seen == count) {
                    return true;
                }
            }
            insns = 0;
            dis_line(s, env, out, pc, NULL);
        }
        insns++;
        pc += insn.len;
    }
    if (insns) {
        fprintf(out, "      (%" PRIu64 " instruction%s, then no decodable code)\n", insns,
                insns == 1 ? "" : "s");
    }
    return true;
}

typedef struct TbInfo {
    FILE *out;
    uint64_t addr;
    unsigned total, shown;
    uint64_t guest_bytes, host_bytes;
} TbInfo;

static void tb_visit(void *opaque, const TranslationBlock *tb)
{
    TbInfo *t = opaque;

    t->total++;
    t->guest_bytes += tb->size;
    t->host_bytes += tb->host_size;
    if (t->addr >= tb->pc && t->addr - tb->pc < (tb->size ? tb->size : 1)) {
        fprintf(t->out,
                "  TB 0x%016" PRIx64 "-0x%016" PRIx64 " %u insn%s, host code %u bytes, flags%s%s%s%s%s\n",
                tb->pc, tb->pc + tb->size, tb->icount, tb->icount == 1 ? "" : "s", tb->host_size,
                tb->flags & TB_F_RESUME ? " resume" : "", tb->flags & TB_F_ONE_INSN ? " one-insn" : "",
                tb->flags & TB_F_TRACE ? " trace" : "", tb->flags & TB_F_BODY ? " body" : "",
                tb->flags & TB_F_EXIT_CHECK ? " exit-check" : "");
        t->shown++;
    }
}

static bool cmd_info_tb(GdbStub *s, CPULinxState *env, FILE *out, char **w, unsigned n)
{
    TbInfo t = { .out = out, .addr = env->pc };

    if (n > 3 || (n == 3 && !parse_addr(s, env, w[2], &t.addr))) {
        fprintf(out, "usage: monitor info tb [ADDR]\n");
        return false;
    }
    if (!env->engine.exec) {
        fprintf(out, "no exec context\n");
        return false;
    }
    fprintf(out, "translations covering 0x%" PRIx64 ":\n", t.addr);
    linx_exec_foreach_tb(env->engine.exec, tb_visit, &t);
    if (!t.shown) {
        fprintf(out, "  none (not translated since the last flush)\n");
    }
    fprintf(out, "%u TBs in the cache: %" PRIu64 " guest bytes, %" PRIu64 " host code bytes\n",
            t.total, t.guest_bytes, t.host_bytes);
    return true;
}

/* One TLB tag's access letter: the page is reachable that way. */
static char tlb_perm(uint64_t tag, uint64_t page, char c)
{
    return tag != LINX_TLB_EMPTY && (tag & GUEST_PAGE_MASK) == page && !(tag & TLB_INVALID) ? c
                                                                                            : '-';
}

static void cmd_info_tlb(CPULinxState *env, FILE *out)
{
    unsigned used = 0;

    fprintf(out, "TLB of cpu %u (%u entries; r/w/x as cached, flags force the slow path):\n",
            env->engine.cpu_index, LINX_TLB_SIZE);
    for (unsigned i = 0; i < LINX_TLB_SIZE; i++) {
        const LinxTLBEntry *e = &env->engine.tlb[i];
        uint64_t tag = e->addr_read != LINX_TLB_EMPTY    ? e->addr_read
                       : e->addr_write != LINX_TLB_EMPTY ? e->addr_write
                                                         : e->addr_code;
        uint64_t page = tag & GUEST_PAGE_MASK;
        uint64_t flags;
        if (tag == LINX_TLB_EMPTY) {
            continue;
        }
        used++;
        flags = (e->addr_read | e->addr_write) & ~GUEST_PAGE_MASK;
        fprintf(out, "  [%3u] 0x%016" PRIx64 " %c%c%c%s%s%s%s\n", i, page,
                tlb_perm(e->addr_read, page, 'r'), tlb_perm(e->addr_write, page, 'w'),
                tlb_perm(e->addr_code, page, 'x'), flags & TLB_MMIO ? " mmio" : "",
                flags & TLB_CODE ? " code" : "", flags & TLB_WATCH ? " watch" : "",
                flags & TLB_NOT_DIRECT ? " not-direct" : "");
    }
    fprintf(out, "%u valid entries\n", used);
}

static bool cmd_info(GdbStub *s, CPULinxState *env, FILE *out, char **w, unsigned n)
{
    if (n >= 2 && !strcmp(w[1], "tlb") && n == 2) {
        cmd_info_tlb(env, out);
        return true;
    }
    if (n >= 2 && !strcmp(w[1], "tb")) {
        return cmd_info_tb(s, env, out, w, n);
    }
    if (n >= 2 && !strcmp(w[1], "blocks")) {
        return cmd_info_blocks(s, env, out, w, n);
    }
    fprintf(out, "usage: monitor info tlb | tb [ADDR] | blocks [ADDR [COUNT]]\n");
    return false;
}

static bool cmd_trace(CPULinxState *env, FILE *out, char **w, unsigned n)
{
    char err[256];
    bool on;

    if (n < 2 || n > 3 || (strcmp(w[1], "on") && strcmp(w[1], "off")) ||
        (n == 3 && !strcmp(w[1], "off"))) {
        fprintf(out, "usage: monitor trace on [FILE] | off\n");
        return false;
    }
    on = !strcmp(w[1], "on");
    if (!env->engine.exec ||
        !linx_exec_set_commit_trace(env->engine.exec, on, n == 3 ? w[2] : NULL, err, sizeof(err))) {
        fprintf(out, "trace: %s\n", env->engine.exec ? err : "no exec context");
        return false;
    }
    fprintf(out, "commit trace %s%s%s\n", on ? "on" : "off", n == 3 ? ": " : "",
            n == 3 ? w[2] : "");
    return true;
}

static void cmd_stats(CPULinxState *env, FILE *out)
{
    LinxExecStats st;

    linx_exec_get_stats(env->engine.exec, &st);
    fprintf(out,
            "TBs translated %" PRIu64 ", executed %" PRIu64 ", chains %" PRIu64
            ", flushes %" PRIu64 ", invalidations %" PRIu64 "\n"
            "jump cache hits %" PRIu64 ", misses %" PRIu64 "; code buffer flushes %" PRIu64
            "\nguest instructions %" PRIu64 "\n",
            st.tbs_translated, st.tbs_executed, st.chains, st.flushes, st.invalidations,
            st.jc_hits, st.jc_misses, st.buffer_full, env->insn_count);
}

static void cmd_help(FILE *out)
{
    fprintf(out, "linxemu monitor commands (ADDR: number, register, symbol, symbol+N):\n"
                 "  dis [ADDR [N]]          disassemble N Linx instructions (default: 8 at pc)\n"
                 "  bt                      Linx frames, from each function's FENTRY template\n"
                 "  info blocks [ADDR [N]]  block state, then N blocks from ADDR (default bpc)\n"
                 "  info tb [ADDR]          translations covering ADDR (default pc)\n"
                 "  info tlb                the CPU's TLB entries\n"
                 "  trace on [FILE] | off   commit trace (JSON lines) on or off\n"
                 "  tile NAME [hex] [full]  dump a tile (t#1..t#8, u#.., m#.., n#.., acc, or 0..32)\n"
                 "  tiles                   one line per written tile\n"
                 "  regs                    every register (as gdb knows them)\n"
                 "  ssr ID [VALUE]          read or write an SSR by number (e.g. 0x1f03)\n"
                 "  tb-flush                drop all translations\n"
                 "  stats                   exec-layer counters\n"
                 "  help                    this text\n");
}

/* Run one command, printing to @out; false for a bad command. */
static bool run_command(GdbStub *s, CPULinxState *env, FILE *out, char *line)
{
    char *w[MAX_WORDS];
    unsigned n = 0;
    char *save = NULL;

    for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == MAX_WORDS) {
            fprintf(out, "too many words\n");
            return false;
        }
        w[n++] = t;
    }
    if (n == 0 || !strcmp(w[0], "help")) {
        cmd_help(out);
        return true;
    }
    if (!strcmp(w[0], "dis") || !strcmp(w[0], "x/i")) {
        return cmd_dis(s, env, out, w, n);
    }
    if (!strcmp(w[0], "bt") && n == 1) {
        gdb_frames_print(s, env, out);
        return true;
    }
    if (!strcmp(w[0], "info")) {
        return cmd_info(s, env, out, w, n);
    }
    if (!strcmp(w[0], "trace")) {
        return cmd_trace(env, out, w, n);
    }
    if (!strcmp(w[0], "tile")) {
        return cmd_tile(env, out, w, n);
    }
    if (!strcmp(w[0], "tiles") && n == 1) {
        if (!env->tiles) {
            fprintf(out, "this machine has no tile register file\n");
            return false;
        }
        linx_tile_dump_summary(out, env->tiles);
        return true;
    }
    if (!strcmp(w[0], "regs") && n == 1) {
        cmd_regs(env, out);
        return true;
    }
    if (!strcmp(w[0], "ssr")) {
        return cmd_ssr(env, out, w, n);
    }
    if (!strcmp(w[0], "tb-flush") && n == 1) {
        if (env->engine.exec) {
            linx_tb_flush(env);
        }
        fprintf(out, "translations dropped\n");
        return true;
    }
    if (!strcmp(w[0], "stats") && n == 1 && env->engine.exec) {
        cmd_stats(env, out);
        return true;
    }
    fprintf(out, "unknown monitor command '%s' (try 'monitor help')\n", w[0]);
    return false;
}

const char *gdb_monitor_command(GdbStub *s, CPULinxState *env, const char *cmd)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    char *line = g_strdup(cmd);
    bool ok;

    if (!out) {
        g_free(line);
        return MONITOR_ERR;
    }
    ok = run_command(s, env, out, line);
    fclose(out);
    send_output(s, text, len);
    free(text);
    g_free(line);
    return ok ? "OK" : MONITOR_ERR;
}
