/*
 * The virt machine's devices: the UART page (data, status, EXIT) and the
 * test finisher (the LinxISA QEMU port's registers, docs/virt.md).
 *
 * Both are GuestMemory MMIO regions of one page.  Accesses of any size
 * are accepted, as the peer does; offsets with no register read as 0 and
 * ignore stores.  Stopping the machine (EXIT, finisher) does not leave the
 * store half done: linx_virt_request_stop() asks the exec loop to return
 * at the next block boundary, so the storing instruction completes and
 * its commit-trace row is written, and is the last row (the peer's "stop
 * after commit": the rest of the block runs untraced).  It also unlinks the chained jumps
 * between translated blocks (linx_exec_unchain) so that no already-chained
 * loop keeps running without coming back to the loop; the translations
 * themselves stay, for the next run of the same program on this machine
 * (linx-optest's workers).
 */
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#include "hw/linx/buffers.h"
#include "hw/linx/buffers-mmio.h"
#include "hw/linx/virt.h"
#include "tcg/exec.h"

#define UART_BYTE_MASK 0xff
#define FINISHER_STATUS_MASK 0xffff

void linx_virt_request_stop(LinxVirtMachine *m, LinxVirtStop why, int exit_code)
{
    if (m->stop != VIRT_RUNNING) {
        return; /* the first reason wins */
    }
    m->stop = why;
    m->exit_code = exit_code;
    if (m->uart_out) {
        fflush(m->uart_out);
    }
    if (m->cpu) {
        m->cpu->engine.exit_request = 1;
        linx_exec_unchain(m->cpu);
        if (m->cpu->engine.trace && (why == VIRT_STOP_EXIT || why == VIRT_STOP_FINISHER)) {
            /* As the peer: the storing instruction is the last one traced
             * (the rest of its block still runs before the loop stops). */
            linx_commit_trace_stop_after(m->cpu->engine.trace, 1);
        }
    }
}

static bool uart_rx_ready(LinxVirtMachine *m)
{
    struct pollfd pfd = { .fd = m->uart_in_fd, .events = POLLIN };

    return m->uart_in_fd >= 0 && poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN);
}

static bool uart_read(void *opaque, uint64_t offset, unsigned size, uint64_t *value)
{
    LinxVirtMachine *m = opaque;
    unsigned char c = 0;

    *value = 0;
    if (offset == VIRT_UART_DATA) {
        if (uart_rx_ready(m) && read(m->uart_in_fd, &c, 1) == 1) {
            *value = c;
        }
    } else if (offset == VIRT_UART_STATUS) {
        *value = VIRT_UART_TX_READY | (uart_rx_ready(m) ? VIRT_UART_RX_READY : 0);
    }
    return true;
}

static bool uart_write(void *opaque, uint64_t offset, unsigned size, uint64_t value)
{
    LinxVirtMachine *m = opaque;

    if (offset == VIRT_UART_DATA) {
        int c = (int)(value & UART_BYTE_MASK);
        if (m->uart_out) {
            fputc(c, m->uart_out);
            if (c == '\n') {
                fflush(m->uart_out);
            }
        }
    } else if (offset == VIRT_EXIT) {
        m->stop_value = value;
        /* The process exit status keeps the low 8 bits. */
        linx_virt_request_stop(m, VIRT_STOP_EXIT, (int)(value & UART_BYTE_MASK));
    }
    return true;
}

static bool finisher_read(void *opaque, uint64_t offset, unsigned size, uint64_t *value)
{
    *value = 0;
    return true;
}

static bool finisher_write(void *opaque, uint64_t offset, unsigned size, uint64_t value)
{
    LinxVirtMachine *m = opaque;
    unsigned status = (unsigned)(value & FINISHER_STATUS_MASK);

    if (offset != 0) {
        return true;
    }
    m->stop_value = value;
    switch (status) {
    case VIRT_FINISHER_PASS:
        linx_virt_request_stop(m, VIRT_STOP_FINISHER, 0);
        break;
    case VIRT_FINISHER_FAIL:
        linx_virt_request_stop(m, VIRT_STOP_FINISHER, 1);
        break;
    case VIRT_FINISHER_RESET:
        fprintf(stderr, "linx-system: test finisher: reset requested (0x7777); linxemu does "
                        "not reset the machine, it stops with status 1\n");
        linx_virt_request_stop(m, VIRT_STOP_FINISHER, 1);
        break;
    default:
        fprintf(stderr, "linx-system: test finisher: ignored value 0x%llx (0x5555 pass, "
                        "0x3333 fail)\n",
                (unsigned long long)value);
        break;
    }
    return true;
}

static const GuestMMIOOps uart_ops = { .read = uart_read, .write = uart_write };
static const GuestMMIOOps finisher_ops = { .read = finisher_read, .write = finisher_write };

const LinxVirtRegion linx_virt_device_regions[VIRT_NUM_DEVICE_REGIONS] = {
    { VIRT_UART_BASE, VIRT_DEVICE_SIZE, "uart" },
    { VIRT_FINISHER_BASE, VIRT_DEVICE_SIZE, "test-finisher" },
    { LINX_BUFFERS_DEFAULT_BASE, LINX_BUFFERS_WINDOW_SPAN, "tile-buffers" },
};

bool linx_virt_map_devices(LinxVirtMachine *m)
{
    return guest_mem_map_mmio(m->mem, VIRT_UART_BASE, VIRT_DEVICE_SIZE, &uart_ops, m) &&
           guest_mem_map_mmio(m->mem, VIRT_FINISHER_BASE, VIRT_DEVICE_SIZE, &finisher_ops, m) &&
           (!m->buffers || linx_buffers_map(m->buffers, m->mem, LINX_BUFFERS_DEFAULT_BASE));
}
