/*
 * The virt machine: memory map, devices, loader and boot.
 *
 * - The exit trampoline's bytes decode to the intended instructions.
 * - RAM is mapped from 0 around the device pages; bad sizes are refused.
 * - UART output, status, EXIT and the test finisher stop the machine
 *   with the right status.
 * - ET_REL layout (.text at 0x10000, data after it, bss at 0x8000, the
 *   _start entry) and the loader's refusals (relocations, segments
 *   outside RAM or over devices, entry outside code, wrong machine).
 * - Programs run to completion under the JIT and the interpreter:
 *   returning through the trampoline exits with a0, a trap stops the
 *   machine with status 1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/linx/buffers.h"
#include "hw/linx/virt.h"
#include "target/linx/asm-insn.h"
#include "target/linx/disas.h"
#include "tcg/exec.h"
#include "target/linx/exec-target.h"
#include "util/elf-file.h"

#define RAM_SIZE (UINT64_C(16) << 20)

static LinxVirtMachine *new_machine(FILE *out)
{
    char err[256];
    LinxVirtMachine *m = linx_virt_new(RAM_SIZE, err, sizeof(err));

    assert_non_null(m);
    m->uart_out = out;
    m->uart_in_fd = -1;
    m->quiet = true;
    return m;
}

/* ---- A small ELF writer with sections (ET_REL) or segments ---- */

typedef struct Sec {
    const char *name;
    uint32_t type;
    uint64_t flags;
    const void *data;
    uint64_t size;
    uint64_t align;
    uint32_t info; /* RELA: target section */
} Sec;

static void w16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void w32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void w64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* ET_REL with @n sections (+ null, .symtab, .strtab, .shstrtab); one
 * symbol `_start` at @start_off in section @start_sec (0: none). */
static uint8_t *build_rel(const Sec *secs, int n, int start_sec, uint64_t start_off,
                          uint16_t machine, size_t *size)
{
    size_t cap = 8192;
    uint8_t *b = calloc(1, cap);
    size_t off = 64;
    uint64_t sec_off[16];
    char shstr[512] = "";
    size_t shstr_len = 1, name_off[16];
    int total = n + 4;

    for (int i = 0; i < n; i++) {
        off = (off + 15) & ~(size_t)15;
        sec_off[i] = off;
        if (secs[i].type != ELF_SHT_NOBITS && secs[i].data) {
            memcpy(b + off, secs[i].data, secs[i].size);
            off += secs[i].size;
        }
        name_off[i] = shstr_len;
        strcpy(shstr + shstr_len, secs[i].name);
        shstr_len += strlen(secs[i].name) + 1;
    }
    /* .strtab: "\0_start\0" */
    static const char strtab[] = "\0_start";
    size_t strtab_off = off;
    memcpy(b + off, strtab, sizeof(strtab));
    off += sizeof(strtab);
    /* .symtab: null + _start */
    off = (off + 7) & ~(size_t)7;
    size_t symtab_off = off;
    off += 24;
    if (start_sec) {
        uint8_t *s = b + off;
        w32(s, 1);
        s[4] = 0x10; /* STB_GLOBAL, STT_NOTYPE */
        w16(s + 6, (uint16_t)start_sec);
        w64(s + 8, start_off);
    }
    off += 24;
    size_t shstrtab_off = off;
    const char *extra[3] = { ".symtab", ".strtab", ".shstrtab" };
    size_t extra_name[3];
    for (int i = 0; i < 3; i++) {
        extra_name[i] = shstr_len;
        strcpy(shstr + shstr_len, extra[i]);
        shstr_len += strlen(extra[i]) + 1;
    }
    memcpy(b + off, shstr, shstr_len);
    off += shstr_len;
    off = (off + 7) & ~(size_t)7;
    size_t shoff = off;
    off += (size_t)total * 64;
    assert_true(off <= cap);

    memcpy(b, "\177ELF", 4);
    b[4] = 2;
    b[5] = 1;
    b[6] = 1;
    w16(b + 16, ELF_ET_REL);
    w16(b + 18, machine);
    w32(b + 20, 1);
    w64(b + 40, shoff);
    w16(b + 52, 64);
    w16(b + 58, 64);
    w16(b + 60, (uint16_t)total);
    w16(b + 62, (uint16_t)(total - 1));
    for (int i = 0; i < n; i++) {
        uint8_t *sh = b + shoff + (size_t)(i + 1) * 64;
        w32(sh, (uint32_t)name_off[i]);
        w32(sh + 4, secs[i].type);
        w64(sh + 8, secs[i].flags);
        w64(sh + 24, sec_off[i]);
        w64(sh + 32, secs[i].size);
        w32(sh + 44, secs[i].info);
        w64(sh + 48, secs[i].align);
        if (secs[i].type == ELF_SHT_RELA) {
            w64(sh + 56, 24);
        }
    }
    uint8_t *sh = b + shoff + (size_t)(n + 1) * 64; /* .symtab */
    w32(sh, (uint32_t)extra_name[0]);
    w32(sh + 4, ELF_SHT_SYMTAB);
    w64(sh + 24, symtab_off);
    w64(sh + 32, 48);
    w32(sh + 40, (uint32_t)(n + 2));
    w32(sh + 44, 1);
    w64(sh + 56, 24);
    sh += 64; /* .strtab */
    w32(sh, (uint32_t)extra_name[1]);
    w32(sh + 4, ELF_SHT_STRTAB);
    w64(sh + 24, strtab_off);
    w64(sh + 32, sizeof(strtab));
    sh += 64; /* .shstrtab */
    w32(sh, (uint32_t)extra_name[2]);
    w32(sh + 4, ELF_SHT_STRTAB);
    w64(sh + 24, shstrtab_off);
    w64(sh + 32, shstr_len);
    *size = off;
    return b;
}

typedef struct Image {
    uint8_t *buf;
    size_t size;
} Image;

static Image rel_image(const Sec *secs, int n, int start_sec, uint64_t start_off,
                       uint16_t machine);
static Image exec_image(uint64_t vaddr, uint64_t memsz, uint32_t flags, uint64_t entry);

static bool load_image(LinxVirtMachine *m, Image im, char *err, size_t errlen)
{
    uint8_t *buf = im.buf;
    size_t size = im.size;
    ElfFile ef;
    bool ok = false;

    if (elf_file_parse(&ef, buf, size, "prog", err, errlen)) {
        ok = linx_virt_load_elf(m->mem, m->ram_size, &ef, "prog", &m->entry, &m->image_end, err,
                                errlen);
        elf_file_close(&ef);
    }
    if (!ok && getenv("LINX_TEST_VERBOSE")) {
        fprintf(stderr, "load: %s\n", err);
    }
    free(buf);
    return ok;
}

/* Assemble lines with the one-instruction assembler (no symbols). */
static size_t assemble(const char *const *lines, uint64_t pc, uint8_t *out)
{
    size_t n = 0;

    for (int i = 0; lines[i]; i++) {
        LinxAsmEnv env = { .pc = pc + n, .final = true };
        LinxAsmResult r;
        LinxAsmError e;
        if (!linx_asm_insn(lines[i], &env, &r, &e)) {
            fail_msg("cannot assemble '%s': %s", lines[i], e.msg);
        }
        memcpy(out + n, r.bytes, r.len);
        n += r.len;
    }
    return n;
}

/* ---- Tests ---- */

static void test_trampoline_decodes(void **state)
{
    static const char *const expect[] = {
        "C.BSTART.STD", "lui 65536, ->t", "swi a0, [t#1, 4]", "C.BSTOP",
        "C.BSTART DIRECT", "C.BSTOP",
    };
    LinxVirtMachine *m = new_machine(NULL);
    CPULinxState *env = calloc(1, sizeof(*env));
    uint8_t code[VIRT_TRAMP_BYTES];
    size_t off = 0;

    (void)state;
    m->entry = VIRT_LOAD_BASE;
    linx_virt_boot(m, env);
    assert_int_equal(env->gpr[LINX_REG_RA], m->tramp);
    assert_int_equal(m->tramp, RAM_SIZE - 16);
    assert_int_equal(env->gpr[LINX_REG_SP], m->tramp - 0x10000);
    assert_int_equal(env->pc, VIRT_LOAD_BASE);
    assert_int_equal(env->acr, 0);
    assert_int_equal(guest_mem_debug_rw(m->mem, m->tramp, code, sizeof(code), false), GM_OK);
    for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
        char text[LINX_DISAS_MAX], clean[LINX_DISAS_MAX];
        unsigned len;
        assert_int_equal(linx_disas_bytes(code + off, sizeof(code) - off, m->tramp + off, NULL,
                                          text, sizeof(text), &len),
                         LINX_DECODE_OK);
        /* Compare with tabs as spaces, collapsed, no trailing space. */
        linx_disas_squeeze(text);
        size_t k = strlen(text);
        while (k && text[k - 1] == ' ') {
            k--;
        }
        memcpy(clean, text, k);
        clean[k] = 0;
        if (strncmp(clean, expect[i], strlen(expect[i])) != 0) {
            fail_msg("trampoline insn %zu: '%s', expected '%s'", i, clean, expect[i]);
        }
        off += len;
    }
    assert_int_equal(off, VIRT_TRAMP_BYTES);
    free(env);
    linx_virt_free(m);
}

static void test_memory_map(void **state)
{
    char err[256];
    LinxVirtMachine *m = new_machine(NULL);

    (void)state;
    assert_int_equal(guest_mem_prot(m->mem, 0), GM_PROT_ALL);
    assert_int_equal(guest_mem_prot(m->mem, RAM_SIZE - 1), GM_PROT_ALL);
    assert_int_equal(guest_mem_prot(m->mem, RAM_SIZE), -1);
    /* Device pages report read/write (MMIO). */
    assert_int_equal(guest_mem_prot(m->mem, VIRT_UART_BASE), GM_PROT_READ | GM_PROT_WRITE);
    assert_int_equal(guest_mem_prot(m->mem, VIRT_FINISHER_BASE), GM_PROT_READ | GM_PROT_WRITE);
    assert_int_equal(guest_mem_prot(m->mem, LINX_BUFFERS_DEFAULT_BASE),
                     GM_PROT_READ | GM_PROT_WRITE);
    linx_virt_free(m);

    /* 512 MiB: RAM continues above the device pages, which stay devices. */
    m = linx_virt_new(UINT64_C(512) << 20, err, sizeof(err));
    assert_non_null(m);
    assert_int_equal(guest_mem_prot(m->mem, VIRT_UART_BASE - 1), GM_PROT_ALL);
    assert_int_equal(guest_mem_prot(m->mem, VIRT_UART_BASE + VIRT_DEVICE_SIZE), GM_PROT_ALL);
    uint64_t v = 0;
    assert_int_equal(guest_mem_debug_rw(m->mem, VIRT_UART_BASE, &v, 4, false), GM_FAULT_MMIO);
    assert_int_equal(guest_mem_prot(m->mem, (UINT64_C(512) << 20) - 1), GM_PROT_ALL);
    assert_false(linx_virt_is_ram(m->ram_size, VIRT_FINISHER_BASE - 8, 16));
    assert_true(linx_virt_is_ram(m->ram_size, VIRT_FINISHER_BASE + VIRT_DEVICE_SIZE, 16));
    linx_virt_free(m);

    assert_null(linx_virt_new(0, err, sizeof(err)));
    assert_null(linx_virt_new(RAM_SIZE + 1, err, sizeof(err)));
    assert_null(linx_virt_new(UINT64_C(1) << 40, err, sizeof(err)));
    assert_non_null(strstr(err, "not supported"));
}

static void test_devices(void **state)
{
    FILE *out = tmpfile();
    LinxVirtMachine *m = new_machine(out);
    CPULinxState *env = calloc(1, sizeof(*env));
    uint64_t v;
    char buf[16] = { 0 };

    (void)state;
    m->entry = VIRT_LOAD_BASE;
    linx_virt_boot(m, env);
    for (const char *c = "ok\n"; *c; c++) {
        v = (uint8_t)*c;
        assert_int_equal(guest_mem_write(m->mem, VIRT_UART_BASE, &v, 1, NULL), GM_OK);
    }
    rewind(out);
    assert_int_equal(fread(buf, 1, sizeof(buf), out), 3);
    assert_string_equal(buf, "ok\n");
    assert_int_equal(guest_mem_read(m->mem, VIRT_UART_BASE + VIRT_UART_STATUS, &v, 4,
                                    GM_PROT_READ, NULL),
                     GM_OK);
    assert_int_equal(v & 0xffffffff, VIRT_UART_TX_READY);
    /* A stray finisher value is ignored; the EXIT register stops. */
    v = 0x1234;
    assert_int_equal(guest_mem_write(m->mem, VIRT_FINISHER_BASE, &v, 4, NULL), GM_OK);
    assert_int_equal(m->stop, VIRT_RUNNING);
    v = 0x12a;
    assert_int_equal(guest_mem_write(m->mem, VIRT_UART_BASE + VIRT_EXIT, &v, 4, NULL), GM_OK);
    assert_int_equal(m->stop, VIRT_STOP_EXIT);
    assert_int_equal(m->exit_code, 0x2a);
    assert_int_equal(env->engine.exit_request, 1);
    /* The first reason wins. */
    v = VIRT_FINISHER_FAIL;
    assert_int_equal(guest_mem_write(m->mem, VIRT_FINISHER_BASE, &v, 4, NULL), GM_OK);
    assert_int_equal(m->exit_code, 0x2a);

    /* The finisher: pass and fail. */
    m->stop = VIRT_RUNNING;
    v = VIRT_FINISHER_FAIL;
    guest_mem_write(m->mem, VIRT_FINISHER_BASE, &v, 4, NULL);
    assert_int_equal(m->stop, VIRT_STOP_FINISHER);
    assert_int_equal(m->exit_code, 1);
    m->stop = VIRT_RUNNING;
    v = VIRT_FINISHER_PASS;
    guest_mem_write(m->mem, VIRT_FINISHER_BASE, &v, 4, NULL);
    assert_int_equal(m->exit_code, 0);
    fclose(out);
    free(env);
    linx_virt_free(m);
}

static void test_load_rel_layout(void **state)
{
    static const uint8_t text[0x30] = { 0x00, 0x08 };
    static const uint8_t data[8] = { 9, 8, 7, 6, 5, 4, 3, 2 };
    Sec secs[] = {
        { ".text", ELF_SHT_PROGBITS, ELF_SHF_ALLOC | ELF_SHF_EXECINSTR, text, sizeof(text), 4, 0 },
        { ".data", ELF_SHT_PROGBITS, ELF_SHF_ALLOC | ELF_SHF_WRITE, data, sizeof(data), 64, 0 },
        { ".bss", ELF_SHT_NOBITS, ELF_SHF_ALLOC | ELF_SHF_WRITE, NULL, 0x100, 16, 0 },
        { ".comment", ELF_SHT_PROGBITS, 0, data, sizeof(data), 1, 0 },
    };
    LinxVirtMachine *m = new_machine(NULL);
    char err[256];
    uint8_t back[8];

    (void)state;
    assert_true(load_image(m, rel_image(secs, 4, 1, 0x10, EM_LINXISA), err,
                         sizeof(err)));
    assert_int_equal(m->entry, VIRT_LOAD_BASE + 0x10);
    assert_int_equal(guest_mem_debug_rw(m->mem, VIRT_LOAD_BASE, back, 2, false), GM_OK);
    assert_memory_equal(back, text, 2);
    /* .data after .text at its 64-byte alignment. */
    assert_int_equal(guest_mem_debug_rw(m->mem, VIRT_LOAD_BASE + 0x40, back, 8, false), GM_OK);
    assert_memory_equal(back, data, 8);
    assert_int_equal(m->image_end, VIRT_LOAD_BASE + 0x48);
    linx_virt_free(m);

    /* Without _start the entry is .text itself. */
    m = new_machine(NULL);
    assert_true(load_image(m, rel_image(secs, 1, 0, 0, EM_LINXISA), err,
                         sizeof(err)));
    assert_int_equal(m->entry, VIRT_LOAD_BASE);
    linx_virt_free(m);
}

static void test_load_rel_refused(void **state)
{
    static const uint8_t text[16] = { 0x00, 0x08 };
    static const uint8_t rela[24] = { 0 };
    Sec with_rela[] = {
        { ".text", ELF_SHT_PROGBITS, ELF_SHF_ALLOC | ELF_SHF_EXECINSTR, text, sizeof(text), 4, 0 },
        { ".rela.text", ELF_SHT_RELA, 0, rela, sizeof(rela), 8, 1 },
    };
    Sec no_text[] = {
        { ".data", ELF_SHT_PROGBITS, ELF_SHF_ALLOC, text, sizeof(text), 4, 0 },
    };
    Sec huge_bss[] = {
        { ".text", ELF_SHT_PROGBITS, ELF_SHF_ALLOC | ELF_SHF_EXECINSTR, text, sizeof(text), 4, 0 },
        { ".bss", ELF_SHT_NOBITS, ELF_SHF_ALLOC, NULL, UINT64_C(1) << 40, 16, 0 },
    };
    LinxVirtMachine *m = new_machine(NULL);
    char err[256];

    (void)state;
    assert_false(load_image(m, rel_image(with_rela, 2, 0, 0, EM_LINXISA), err,
                          sizeof(err)));
    assert_non_null(strstr(err, "relocations (.rela.text) against .text"));
    assert_false(load_image(m, rel_image(no_text, 1, 0, 0, EM_LINXISA), err,
                          sizeof(err)));
    assert_non_null(strstr(err, "no allocated, executable .text"));
    assert_false(load_image(m, rel_image(huge_bss, 2, 0, 0, EM_LINXISA), err,
                          sizeof(err)));
    assert_non_null(strstr(err, "section .bss (0x10000000000 bytes) is larger than RAM"));
    assert_false(load_image(m, rel_image(huge_bss, 1, 0, 0, 62), err, sizeof(err)));
    assert_non_null(strstr(err, "wrong machine 62"));
    /* _start past the end of .text. */
    assert_false(load_image(m, rel_image(huge_bss, 1, 1, 0x100, EM_LINXISA), err,
                          sizeof(err)));
    assert_non_null(strstr(err, "_start"));
    linx_virt_free(m);
}

/* ET_EXEC by segments: in RAM, not over devices, entry in code. */
static uint8_t *build_exec(uint64_t vaddr, uint64_t memsz, uint32_t flags, uint64_t entry,
                           size_t *size)
{
    uint8_t *b = calloc(1, 256);

    memcpy(b, "\177ELF", 4);
    b[4] = 2;
    b[5] = 1;
    b[6] = 1;
    w16(b + 16, ELF_ET_EXEC);
    w16(b + 18, EM_LINXISA);
    w64(b + 24, entry);
    w64(b + 32, 64);
    w16(b + 54, 56);
    w16(b + 56, 1);
    uint8_t *ph = b + 64;
    w32(ph, ELF_PT_LOAD);
    w32(ph + 4, flags);
    w64(ph + 8, 128);
    w64(ph + 16, vaddr);
    w64(ph + 32, 16);
    w64(ph + 40, memsz);
    b[128] = 0x00;
    b[129] = 0x08;
    *size = 256;
    return b;
}

static void test_load_exec(void **state)
{
    LinxVirtMachine *m = new_machine(NULL);
    char err[256];

    (void)state;
    assert_true(load_image(m, exec_image(0x20000, 0x100, ELF_PF_R | ELF_PF_X, 0x20000),
                         err, sizeof(err)));
    assert_int_equal(m->entry, 0x20000);
    assert_int_equal(m->image_end, 0x20100);
    assert_false(load_image(m, exec_image(RAM_SIZE - 8, 0x100, ELF_PF_X, RAM_SIZE - 8),
                          err, sizeof(err)));
    assert_non_null(strstr(err, "not inside RAM"));
    assert_false(load_image(m, exec_image(0x20000, 0x100, ELF_PF_R | ELF_PF_W, 0x20000), err, sizeof(err)));
    assert_non_null(strstr(err, "entry point 0x20000 is not inside an executable segment"));
    linx_virt_free(m);

    char err2[256];
    m = linx_virt_new(UINT64_C(512) << 20, err2, sizeof(err2));
    assert_false(load_image(m, exec_image(VIRT_UART_BASE - 0x100, 0x200, ELF_PF_X,
                                        VIRT_UART_BASE - 0x100), err, sizeof(err)));
    assert_non_null(strstr(err, "device pages"));
    linx_virt_free(m);
}

static Image rel_image(const Sec *secs, int n, int start_sec, uint64_t start_off,
                       uint16_t machine)
{
    Image im;

    im.buf = build_rel(secs, n, start_sec, start_off, machine, &im.size);
    return im;
}

static Image exec_image(uint64_t vaddr, uint64_t memsz, uint32_t flags, uint64_t entry)
{
    Image im;

    im.buf = build_exec(vaddr, memsz, flags, entry, &im.size);
    return im;
}

/* Run @lines (at 0x10000) on a machine; returns the exit status. */
static int run_program(const char *const *lines, LinxAccel accel, LinxVirtStop *stop)
{
    LinxVirtMachine *m = new_machine(NULL);
    CPULinxState *env = calloc(1, sizeof(*env));
    LinxExecOptions opts;
    uint8_t code[256];
    char err[256];

    size_t n = assemble(lines, VIRT_LOAD_BASE, code);
    assert_int_equal(guest_mem_debug_rw(m->mem, VIRT_LOAD_BASE, code, n, true), GM_OK);
    m->entry = VIRT_LOAD_BASE;
    linx_exec_options_init(&opts);
    opts.accel = accel;
    opts.trace_commit_path = NULL;
    LinxExecContext *ec = linx_exec_new(&opts, err, sizeof(err));
    assert_non_null(ec);
    linx_virt_boot(m, env);
    linx_exec_attach_cpu(ec, env);
    int status = linx_virt_run(m, env);
    *stop = m->stop;
    linx_exec_detach_cpu(ec, env);
    linx_exec_free(ec);
    linx_virt_free(m);
    free(env);
    return status;
}

static void test_run_return_to_trampoline(void **state)
{
    /* main returns 7 through ra: the trampoline stores it to EXIT. */
    static const char *const prog[] = {
        "C.BSTART.STD RET", "addi zero, 7, ->a0", "c.setc.tgt ra", "C.BSTOP", NULL,
    };
    LinxVirtStop stop;

    (void)state;
    assert_int_equal(run_program(prog, LINX_ACCEL_INTERP, &stop), 7);
    assert_int_equal(stop, VIRT_STOP_EXIT);
    assert_int_equal(run_program(prog, LINX_ACCEL_JIT, &stop), 7);
    assert_int_equal(stop, VIRT_STOP_EXIT);
}

static void test_run_fault_stops(void **state)
{
    /* A load from an address with nothing mapped: trap, status 1. */
    static const char *const prog[] = {
        "C.BSTART.STD", "lui 524288, ->a1", "ldi [a1, 0], ->a0", "C.BSTOP",
        "C.BSTART DIRECT, 0x1000c", "C.BSTOP", NULL,
    };
    LinxVirtStop stop;

    (void)state;
    for (int a = 0; a < 2; a++) {
        assert_int_equal(run_program(prog, a ? LINX_ACCEL_JIT : LINX_ACCEL_INTERP, &stop),
                         VIRT_EXIT_TRAP);
        assert_int_equal(stop, VIRT_STOP_TRAP);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trampoline_decodes),
        cmocka_unit_test(test_memory_map),
        cmocka_unit_test(test_devices),
        cmocka_unit_test(test_load_rel_layout),
        cmocka_unit_test(test_load_rel_refused),
        cmocka_unit_test(test_load_exec),
        cmocka_unit_test(test_run_return_to_trampoline),
        cmocka_unit_test(test_run_fault_stops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
