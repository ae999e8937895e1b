/*
 * gdb "monitor" commands (the qRcmd packet): introspection gdb's register
 * and memory views do not cover.  Output goes to gdb as 'O' packets (gdb
 * prints it); the final reply is "OK", or an error after a message for a
 * bad command.
 *
 *   (gdb) monitor help
 *   (gdb) monitor tile t#1            tile t#1 through its layout (hw/linx/tile-dump.h)
 *   (gdb) monitor tile acc hex full   the accumulator, element bits, whole matrix
 *   (gdb) monitor tiles               one header line per written tile
 *   (gdb) monitor regs                every register of the target description
 *   (gdb) monitor ssr 0x1f03          any SSR by number (manager SSRs too)
 *   (gdb) monitor ssr 0 0x1000        write one
 *   (gdb) monitor tb-flush            drop all translations
 *   (gdb) monitor stats               exec-layer counters
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/gdbstub-internal.h"
#include "gdbstub/regs.h"
#include "hw/linx/tile-dump.h"
#include "tcg/exec.h"

#define MONITOR_ERR "E16" /* EINVAL: unknown command or bad arguments */
#define MAX_WORDS 8
#define REGS_PER_LINE 4
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
    v = slot ? *slot : reg >= 0 ? gdb_reg_read(env, (unsigned)reg) : env->cpu_index;
    fprintf(out, "ssr 0x%04" PRIx64 " = 0x%016" PRIx64 "\n", id, v);
    return true;
}

/* Every register of the table (no side effects, unlike a -d cpu dump,
 * which re-syncs the block state over values gdb may have written). */
static void cmd_regs(CPULinxState *env, FILE *out)
{
    for (unsigned i = 0; i < gdb_reg_count(); i++) {
        fprintf(out, "%-8s %016" PRIx64 "%s", gdb_reg_name(i), gdb_reg_read(env, i),
                i % REGS_PER_LINE == REGS_PER_LINE - 1 || i + 1 == gdb_reg_count() ? "\n" : "  ");
    }
}

static void cmd_stats(CPULinxState *env, FILE *out)
{
    LinxExecStats st;

    linx_exec_get_stats(env->exec, &st);
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
    fprintf(out, "linxemu monitor commands:\n"
                 "  tile NAME [hex] [full]  dump a tile (t#1..t#8, u#.., m#.., n#.., acc, or 0..32)\n"
                 "  tiles                   one line per written tile\n"
                 "  regs                    every register (as gdb knows them)\n"
                 "  ssr ID [VALUE]          read or write an SSR by number (e.g. 0x1f03)\n"
                 "  tb-flush                drop all translations\n"
                 "  stats                   exec-layer counters\n"
                 "  help                    this text\n");
}

/* Run one command, printing to @out; false for a bad command. */
static bool run_command(CPULinxState *env, FILE *out, char *line)
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
        if (env->exec) {
            linx_tb_flush(env);
        }
        fprintf(out, "translations dropped\n");
        return true;
    }
    if (!strcmp(w[0], "stats") && n == 1 && env->exec) {
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
    ok = run_command(env, out, line);
    fclose(out);
    send_output(s, text, len);
    free(text);
    g_free(line);
    return ok ? "OK" : MONITOR_ERR;
}
