/*
 * The LinxISA `virt` machine: the bare-metal board of the LinxISA QEMU
 * port (shared/docs/peer-qemu.md), so its test programs run unchanged.
 *
 * Memory map (docs/virt.md):
 *   0x00000000  RAM (-m, default 128 MiB), all of it readable, writable
 *               and executable; programs load at VIRT_LOAD_BASE
 *   0x10000000  UART: +0 data (a store writes the byte to stdout, a load
 *               reads stdin), +4 status on loads (bit 0 TX ready, bit 1
 *               RX ready), EXIT on stores (a 32-bit store ends the run
 *               with that exit status)
 *   0x10009000  test finisher: 0x5555 pass (exit 0), 0x3333 fail (exit 1)
 *   0x18000000  tile buffer windows L1, L0A, L0B, L0C, UB (hw/linx/buffers.h)
 * RAM larger than 256 MiB continues above the device pages (they are
 * holes in it, as in the peer).
 *
 * Boot (peer compatible): pc = the ELF entry in ACR0, a0 = hart id 0,
 * a1 = device tree address (0: linxemu passes none), ra = an exit
 * trampoline at the top of RAM (returning from the program stores a0 to
 * EXIT), sp = 64 KiB below it.
 *
 * Stopping: the EXIT register and the finisher stop the machine after
 * the storing instruction completes (its commit-trace row is written);
 * LINX_INSN_COUNT=<n> is printed on stderr as the peer does.  A trap
 * goes to the guest handler at EVBASE of the ring that handles it
 * (target/linx/trap.h); with none (EVBASE 0), or when the handler traps
 * before it returns with ACRE, it stops the machine with a report and
 * exit status 1.
 *
 * Usage (hw/linx/virt-main.c, linx-system):
 *   LinxVirtMachine *m = linx_virt_new(ram_size, err, sizeof(err));
 *   linx_virt_load(m, path, err, sizeof(err));
 *   linx_virt_boot(m, env);                  // registers, env->mem
 *   linx_exec_attach_cpu(ec, env);
 *   status = linx_virt_run(m, env);
 *   linx_virt_free(m);
 */
#ifndef LINX_HW_VIRT_H
#define LINX_HW_VIRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "target/linx/profile.h"
#include "hw/core/guest-memory.h"
#include "target/linx/cpu.h"

struct ElfFile;

#define VIRT_RAM_BASE UINT64_C(0)
#define VIRT_LOAD_BASE UINT64_C(0x10000)
#define VIRT_RAM_DEFAULT (UINT64_C(128) << 20)
#define VIRT_RAM_MIN (UINT64_C(1) << 20)
#define VIRT_RAM_MAX (UINT64_C(64) << 30)
/* ET_REL objects: zero-initialised sections go below the load base when
 * they fit (the peer's layout, in reach of 17-bit PC-relative offsets). */
#define VIRT_BSS_BASE UINT64_C(0x8000)

#define VIRT_UART_BASE UINT64_C(0x10000000)
#define VIRT_UART_DATA 0x0
#define VIRT_UART_STATUS 0x4 /* loads */
#define VIRT_EXIT 0x4        /* stores */
#define VIRT_UART_TX_READY 0x1
#define VIRT_UART_RX_READY 0x2
#define VIRT_FINISHER_BASE UINT64_C(0x10009000)
#define VIRT_FINISHER_PASS 0x5555
#define VIRT_FINISHER_FAIL 0x3333
#define VIRT_FINISHER_RESET 0x7777
#define VIRT_DEVICE_SIZE GUEST_PAGE_SIZE

/* Device regions (holes in RAM); linx_virt_device_regions lists them. */
typedef struct LinxVirtRegion {
    uint64_t base;
    uint64_t size;
    const char *name;
} LinxVirtRegion;
#define VIRT_NUM_DEVICE_REGIONS 3
extern const LinxVirtRegion linx_virt_device_regions[VIRT_NUM_DEVICE_REGIONS];

/* Boot: the exit trampoline sits at (ram_size - 8) & ~15 and the stack
 * starts VIRT_STACK_GAP below it (the peer's choice). */
#define VIRT_TRAMP_BYTES 16
#define VIRT_STACK_GAP UINT64_C(0x10000)

/* Exit status when a trap stops the machine. */
#define VIRT_EXIT_TRAP 1

typedef enum LinxVirtStop {
    VIRT_RUNNING = 0,
    VIRT_STOP_EXIT,     /* EXIT register */
    VIRT_STOP_FINISHER, /* test finisher */
    VIRT_STOP_TRAP,     /* unhandled trap */
    VIRT_STOP_ERROR,    /* the CPU could not run */
    VIRT_STOP_EXTERNAL, /* *external_stop became non-zero (timeout, SIGTERM) */
} LinxVirtStop;

struct LinxBuffers;
struct LinxTileState;

typedef struct LinxVirtMachine {
    GuestMemory *mem;
    CPULinxState *cpu; /* set by linx_virt_boot */
    struct LinxBuffers *buffers;  /* tile buffer windows */
    struct LinxTileState *tiles;  /* the CPU's tile register file */
    uint64_t ram_size;
    uint64_t entry;
    uint64_t image_end;
    uint64_t tramp;
    uint64_t initial_sp;
    FILE *uart_out;  /* stdout unless changed */
    int uart_in_fd;  /* stdin unless changed; -1: no input */
    LinxVirtStop stop;
    int exit_code;
    uint64_t stop_value; /* value written to EXIT / the finisher */
    bool quiet;          /* no LINX_INSN_COUNT line (tests) */
    /* The gdb stub that runs the CPU (-s/-gdb; NULL: none): the run loop
     * calls gdb_stub_cpu_exec() instead of cpu_exec() (gdbstub/gdbstub.h). */
    struct GdbStub *gdb;
    /* Non-zero (read atomically) when the run must end from outside: the
     * -timeout / SIGINT / SIGTERM watcher's flag (tcg/exec-stop.h); it
     * also sets env->exit_request.  NULL: none. */
    const int *external_stop;
    /* Tile/kernel block engine behind the machine's hook: the tile
     * engine (target/linx/tile-engine.h) by default; NULL makes tile and
     * kernel headers raise ILLEGAL_INST.  The opaque state is owned by
     * the machine (freed with it). */
    LinxBlockEngineHook tile_engine;
    void *tile_engine_opaque;
    /* The last trap the CPU's trap hook could not deliver to a guest
     * handler (a LinxTrapDelivery, target/linx/trap.h) and its handling
     * ring, for the report. */
    int trap_refusal;
    unsigned trap_ring;
    /* The loaded program's code, counted for -cpu auto (profile.h). */
    LinxProfileVote profile_vote;
} LinxVirtMachine;

/* ---- hw/linx/virt.c ---- */
/* RAM of @ram_size bytes (VIRT_RAM_MIN..VIRT_RAM_MAX, page multiple) and
 * the devices.  NULL with a message in @err. */
LinxVirtMachine *linx_virt_new(uint64_t ram_size, char *err, size_t errlen);
void linx_virt_free(LinxVirtMachine *m);
/* Load the program file (see virt-loader.c). */
bool linx_virt_load(LinxVirtMachine *m, const char *path, char *err, size_t errlen);
/* The same from an ELF image already read (@what names it in messages). */
bool linx_virt_load_image(LinxVirtMachine *m, const struct ElfFile *ef, const char *what,
                          char *err, size_t errlen);
/* Reuse (many programs one after another on one machine, linx-optest's
 * workers): the tile buffers, the tile register file, the tile engine and
 * the stop state as linx_virt_new left them.  RAM is the caller's (dirty
 * tracking and snapshots, hw/core/guest-memory.h); the CPU is booted
 * again with linx_virt_boot. */
void linx_virt_reset_devices(LinxVirtMachine *m);
/* Reset @env for the boot (registers above, ACR0) and put the exit
 * trampoline in RAM. */
void linx_virt_boot(LinxVirtMachine *m, CPULinxState *env);
/* -append: put @cmdline (NUL-terminated) below the boot stack, move sp
 * under it and pass its address in a2 (after linx_virt_boot).  False when
 * it does not fit. */
bool linx_virt_set_cmdline(LinxVirtMachine *m, CPULinxState *env, const char *cmdline);
/* Run until the machine stops; returns the exit status. */
int linx_virt_run(LinxVirtMachine *m, CPULinxState *env);

/* ---- hw/linx/virt-devices.c ---- */
/* Map the UART/EXIT page, the test finisher and the tile buffer windows. */
bool linx_virt_map_devices(LinxVirtMachine *m);
/* Stop the machine (devices and traps); the exec loop returns at the next
 * block boundary. */
void linx_virt_request_stop(LinxVirtMachine *m, LinxVirtStop why, int exit_code);

/* ---- hw/linx/virt-loader.c ---- */
/* Load an EM_LINXISA ELF into RAM [0, ram_size) of @gm: ET_REL puts .text
 * at VIRT_LOAD_BASE (then the other allocated sections; relocations are
 * not applied, so an object that has any is refused), ET_EXEC and ET_DYN
 * load by segments at their addresses.  The entry is e_entry, or for
 * ET_REL the `_start` symbol (else the start of .text).  Every byte must
 * land in RAM, outside the device pages. */
bool linx_virt_load_elf(GuestMemory *gm, uint64_t ram_size, const struct ElfFile *ef,
                        const char *what, uint64_t *entry, uint64_t *image_end, char *err,
                        size_t errlen);
/* Is [addr, addr + len) RAM of a machine with @ram_size bytes? */
bool linx_virt_is_ram(uint64_t ram_size, uint64_t addr, uint64_t len);

#endif /* LINX_HW_VIRT_H */
