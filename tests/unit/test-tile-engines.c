/*
 * The buffer engines DataCopy, Mmad and Fixpipe (hw/linx/buffers-*.c):
 * DataCopy ND -> NZ and bursts against the Nd2NzParams / DataCopyParams
 * formulas written here; Mmad against a triple loop over the ZZ / ZN / NZ
 * formulas; Fixpipe's ND and NZ placement, bias, ReLU, per-channel quant
 * and AtomicAdd against a loop over the same data; every rule of the three
 * engines by name, with its report line naming the field, and no side
 * effect (buffers and GM unchanged).  The register pages are reached
 * through guest memory as a guest would.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw/linx/buffers-datacopy.h"
#include "hw/linx/buffers-fixpipe.h"
#include "hw/linx/buffers-mmad.h"
#include "hw/linx/buffers-mmio.h"
#include "hw/linx/tile-dtype.h"

#define RAM 0x100000u
#define RAM_SIZE 0x100000u
#define BASE 0x18000000u

typedef struct Env {
    GuestMemory *gm;
    LinxBuffers *b;
} Env;

static int setup(void **state)
{
    Env *e = calloc(1, sizeof(*e));

    e->gm = guest_mem_new(GUEST_MEM_LIMIT_DEFAULT);
    assert_true(guest_mem_map(e->gm, RAM, RAM_SIZE, GM_PROT_READ | GM_PROT_WRITE, false));
    e->b = linx_buffers_new(LINX_BUF_PROFILE_A2A3);
    assert_true(linx_buffers_map(e->b, e->gm, BASE));
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    Env *e = *state;

    guest_mem_free(e->gm);
    linx_buffers_free(e->b);
    free(e);
    return 0;
}

static void reg(Env *e, uint64_t page, unsigned r, uint64_t v)
{
    assert_int_equal(guest_mem_write(e->gm, BASE + page + r * 8, &v, 8, NULL), GM_OK);
}

/* GO through guest memory: true when the store was accepted. */
static bool go(Env *e, uint64_t page, unsigned r)
{
    uint64_t one = 1;

    return guest_mem_write(e->gm, BASE + page + r * 8, &one, 8, NULL) == GM_OK;
}

static void test_datacopy(void **state)
{
    Env *e = *state;
    uint16_t src[5 * 40];
    uint8_t *l1 = e->b->buf[LINX_BUF_L1].data;

    for (unsigned i = 0; i < 5 * 40; i++) {
        src[i] = (uint16_t)(i * 7 + 1);
    }
    assert_int_equal(guest_mem_write(e->gm, RAM, src, sizeof(src), NULL), GM_OK);
    memset(l1, 0xee, 0x4000);
    /* ND -> NZ: 5 rows x 21 columns of fp16 (rows 40 apart), C0 stride 16. */
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_SRC, RAM);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_DST, 0x100);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_CTRL, 1 | LINX_DT_FP16 << 8);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_N, 5);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_D, 21);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_SRC_D, 40);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_C0_STRIDE, 16);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_ND_NUM, 1);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_SRC_MATRIX, 1);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_DST_MATRIX, 1);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_N_STRIDE, 1);
    assert_true(go(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_GO));
    for (unsigned r = 0; r < 5; r++) {
        for (unsigned c = 0; c < 32; c++) {
            uint16_t v;
            size_t off = 0x100 + ((c / 16) * 16 * 16 + r * 16 + c % 16) * 2;

            memcpy(&v, l1 + off, 2);
            assert_int_equal(v, c < 21 ? src[r * 40 + c] : 0); /* partial block zeroed */
        }
    }
    assert_int_equal(l1[0xff], 0xee);
    /* Bursts: 3 of 2 blocks, source gap 1, destination gap 2. */
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_DST, 0x2000);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_CTRL, 0);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_N, 3);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_D, 2);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_SRC_D, 1);
    reg(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_C0_STRIDE, 2);
    assert_true(go(e, LINX_DC_REGS_OFFSET, LINX_DC_REG_GO));
    for (unsigned i = 0; i < 3; i++) {
        assert_memory_equal(l1 + 0x2000 + i * 128, (uint8_t *)src + i * 96, 64);
        assert_int_equal(l1[0x2000 + i * 128 + 64], 0xee);
    }
}

static void test_mmad_fixpipe(void **state)
{
    enum { M = 20, N = 32, K = 40 };
    Env *e = *state;
    int8_t a[M][K], bm[K][N];
    int32_t want[M][N], bias[N];
    uint64_t words[N];
    uint8_t *l0a = e->b->buf[LINX_BUF_L0A].data, *l0b = e->b->buf[LINX_BUF_L0B].data;
    uint8_t *l1 = e->b->buf[LINX_BUF_L1].data;
    unsigned mp = 32, kp = 64, np = 32; /* int8: c0 32 */
    int8_t out[M * 40];

    for (unsigned i = 0; i < M; i++) {
        for (unsigned k = 0; k < K; k++) {
            a[i][k] = (int8_t)(i * 13 + k * 7 - 100);
        }
    }
    for (unsigned k = 0; k < K; k++) {
        for (unsigned j = 0; j < N; j++) {
            bm[k][j] = (int8_t)(k * 5 - j * 11 + 3);
        }
    }
    memset(l0a, 0x55, mp * kp);
    memset(l0b, 0x55, kp * np);
    for (unsigned i = 0; i < M; i++) {
        for (unsigned k = 0; k < K; k++) {
            l0a[(i / 16) * kp * 16 + (k / 32) * 16 * 32 + (i % 16) * 32 + k % 32] = (uint8_t)a[i][k];
        }
    }
    for (unsigned k = 0; k < K; k++) {
        for (unsigned j = 0; j < N; j++) {
            l0b[(k / 32) * np * 32 + j * 32 + k % 32] = (uint8_t)bm[k][j];
        }
    }
    for (unsigned j = 0; j < N; j++) {
        float scale = (float)(j % 4 + 1) / 64.0f;
        uint32_t sb;

        memcpy(&sb, &scale, 4);
        words[j] = sb | (uint64_t)(j % 3) << 37;
        bias[j] = (int32_t)(j * 300) - 4000;
    }
    memcpy(l1 + 0x1000, words, sizeof(words));
    memcpy(l1 + 0x2000, bias, sizeof(bias));
    reg(e, LINX_MM_REGS_OFFSET, LINX_MM_REG_A, 0);
    reg(e, LINX_MM_REGS_OFFSET, LINX_MM_REG_B, 0);
    reg(e, LINX_MM_REGS_OFFSET, LINX_MM_REG_C, 0);
    reg(e, LINX_MM_REGS_OFFSET, LINX_MM_REG_M, M);
    reg(e, LINX_MM_REGS_OFFSET, LINX_MM_REG_N, N);
    reg(e, LINX_MM_REGS_OFFSET, LINX_MM_REG_K, K);
    reg(e, LINX_MM_REGS_OFFSET, LINX_MM_REG_CTRL, LINX_DT_S8);
    assert_true(go(e, LINX_MM_REGS_OFFSET, LINX_MM_REG_GO));
    for (unsigned i = 0; i < M; i++) {
        for (unsigned j = 0; j < N; j++) {
            int32_t s = 0, got;
            for (unsigned k = 0; k < K; k++) {
                s += a[i][k] * bm[k][j];
            }
            memcpy(&got, e->b->buf[LINX_BUF_L0C].data + ((j / 16) * mp * 16 + i * 16 + j % 16) * 4,
                   4);
            assert_int_equal(got, s);
            want[i][j] = s + bias[j];
        }
    }
    /* Fixpipe: + bias, per-channel REQ8 to S8, ReLU, ND rows 40 apart,
     * added atomically to GM holding 3. */
    memset(out, 3, sizeof(out));
    assert_int_equal(guest_mem_write(e->gm, RAM + 0x8000, out, sizeof(out), NULL), GM_OK);
    reg(e, LINX_FP_REGS_OFFSET, LINX_FP_REG_SRC, 0);
    reg(e, LINX_FP_REGS_OFFSET, LINX_FP_REG_DST, RAM + 0x8000);
    reg(e, LINX_FP_REGS_OFFSET, LINX_FP_REG_M, M);
    reg(e, LINX_FP_REGS_OFFSET, LINX_FP_REG_N, N);
    reg(e, LINX_FP_REGS_OFFSET, LINX_FP_REG_DST_STRIDE, 40);
    reg(e, LINX_FP_REGS_OFFSET, LINX_FP_REG_CTRL,
        LINX_DT_S32 | LINX_DT_S8 << 8 | 2u << LINX_FP_CTRL_QUANT_SHIFT | LINX_FP_CTRL_RELU |
            LINX_FP_CTRL_BIAS | LINX_FP_CTRL_ATOMIC);
    reg(e, LINX_FP_REGS_OFFSET, LINX_FP_REG_QUANT_ADDR, 0x1000);
    reg(e, LINX_FP_REGS_OFFSET, LINX_FP_REG_BIAS_ADDR, 0x2000);
    assert_true(go(e, LINX_FP_REGS_OFFSET, LINX_FP_REG_GO));
    assert_int_equal(guest_mem_read(e->gm, RAM + 0x8000, out, sizeof(out), GM_PROT_READ, NULL),
                     GM_OK);
    for (unsigned i = 0; i < M; i++) {
        for (unsigned j = 0; j < 40; j++) {
            int want_v = 3;

            if (j < N) {
                /* REQ8: t = fp32(fp32(x) * scale), clip(rne(t)) + offset, clip
                 * to int8; ReLU; + 3 wrapping. */
                float t = (float)want[i][j] * ((float)(j % 4 + 1) / 64.0f);
                double r = t;
                long q;

                r = r < -512 ? -512 : r > 510 ? 510 : r;
                q = (long)r; /* toward zero, then to nearest even */
                if (r - (double)q > 0.5 || (r - (double)q == 0.5 && (q & 1))) {
                    q++;
                } else if (r - (double)q < -0.5 || (r - (double)q == -0.5 && (q & 1))) {
                    q--;
                }
                q = q < -256 ? -256 : q > 255 ? 255 : q;
                q += j % 3;
                q = q < -128 ? -128 : q > 127 ? 127 : q;
                q = q < 0 ? 0 : q;
                want_v = (int8_t)(uint8_t)(q + 3);
            }
            if (out[i * 40 + j] != want_v) {
                fail_msg("GM (%u, %u): got %d, want %d", i, j, out[i * 40 + j], want_v);
            }
        }
    }
}

typedef struct RuleCase {
    uint64_t page;
    unsigned go;
    unsigned nregs;
    uint64_t regs[12][2]; /* (register, value) */
    const char *name;
    const char *text;     /* part of the report line */
} RuleCase;

static void test_rules(void **state)
{
    static const RuleCase cases[] = {
        { LINX_DC_REGS_OFFSET, LINX_DC_REG_GO, 4, { { 2, 0 }, { 3, 0 }, { 4, 1 }, { 1, 0 } },
          "datacopy-bad-param", "datacopy: BLOCK_COUNT 0 outside 1..4095" },
        { LINX_DC_REGS_OFFSET, LINX_DC_REG_GO, 3, { { 2, 1 | 8u << 8 }, { 3, 1 }, { 4, 1 } },
          "datacopy-bad-dtype", "DataType 8" },
        { LINX_DC_REGS_OFFSET, LINX_DC_REG_GO, 5, { { 2, 0 }, { 3, 1 }, { 4, 1 }, { 1, 16 }, { 5, 0 } },
          "datacopy-dst-align", "L1 destination 0x10 is not 32-byte aligned" },
        { LINX_DC_REGS_OFFSET, LINX_DC_REG_GO, 4, { { 2, 0 }, { 3, 2 }, { 4, 65535 }, { 1, 0 } },
          "datacopy-dst-range", "past L1" },
        { LINX_DC_REGS_OFFSET, LINX_DC_REG_GO, 5, { { 0, 0x9000000 }, { 2, 0 }, { 3, 1 }, { 4, 1 }, { 1, 0 } },
          "datacopy-gm-fault", "GM source fault at 0x9000000" },
        { LINX_MM_REGS_OFFSET, LINX_MM_REG_GO, 4, { { 3, 16 }, { 4, 16 }, { 5, 0 }, { 6, LINX_DT_FP16 } },
          "mmad-bad-dims", "k 0 outside 1..4095" },
        { LINX_MM_REGS_OFFSET, LINX_MM_REG_GO, 4, { { 5, 16 }, { 6, LINX_DT_U8 }, { 3, 16 }, { 4, 16 } },
          "mmad-bad-dtype", "DataType 27 (U8)" },
        { LINX_MM_REGS_OFFSET, LINX_MM_REG_GO, 2, { { 6, LINX_DT_FP16 }, { 1, 256 } },
          "mmad-align", "B offset 0x100 is not 512-byte aligned" },
        { LINX_MM_REGS_OFFSET, LINX_MM_REG_GO, 5, { { 1, 0 }, { 0, 0xfe00 }, { 3, 64 }, { 4, 16 }, { 5, 64 } },
          "mmad-a-range", "past L0A" },
        { LINX_MM_REGS_OFFSET, LINX_MM_REG_GO, 4, { { 0, 0 }, { 1, 0xfe00 }, { 3, 16 }, { 4, 64 } },
          "mmad-b-range", "past L0B" },
        { LINX_MM_REGS_OFFSET, LINX_MM_REG_GO, 4, { { 1, 0 }, { 2, 0x1ffc0 }, { 3, 16 }, { 4, 16 } },
          "mmad-c-range", "past L0C" },
        { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, 4, { { 6, LINX_DT_FP32 | LINX_DT_FP32 << 8 | 3u << 17 }, { 2, 16 }, { 3, 16 }, { 1, RAM } },
          "fixpipe-bad-quant", "quant mode 3 is reserved" },
        { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, 1, { { 6, LINX_DT_FP32 | LINX_DT_S32 << 8 } },
          "fixpipe-bad-dtype", "FP32 ACC -> S32" },
        { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, 2, { { 6, LINX_DT_FP32 | LINX_DT_FP32 << 8 }, { 3, 4096 } },
          "fixpipe-bad-dims", "N 4096 outside 1..4095" },
        { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, 3, { { 3, 16 }, { 2, 16 }, { 4, 8 } },
          "fixpipe-bad-dims", "SRC_ROWS 8" },
        { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, 3, { { 4, 0 }, { 3, 24 }, { 6, LINX_DT_FP32 | LINX_DT_FP32 << 8 | LINX_FP_CTRL_NZ } },
          "fixpipe-nz-cols", "N 24 is not a multiple of c0 16" },
        { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, 3, { { 3, 16 }, { 6, LINX_DT_FP32 | LINX_DT_FP32 << 8 }, { 5, 8 } },
          "fixpipe-dst-stride", "ND rows 8 elements apart overlap" },
        { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, 2, { { 5, 0 }, { 0, 32 } },
          "fixpipe-src-range", "L0C source 0x20" },
        { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, 3, { { 0, 0 }, { 6, LINX_DT_FP32 | LINX_DT_S8 << 8 | 2u << 17 }, { 8, 0x7fff0 } },
          "fixpipe-quant-range", "per-channel words at L1 0x7fff0" },
        { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, 2, { { 6, LINX_DT_FP32 | LINX_DT_FP32 << 8 | LINX_FP_CTRL_BIAS }, { 9, 3 } },
          "fixpipe-bias-range", "bias at L1 0x3" },
        { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, 1, { { 6, LINX_DT_FP32 | LINX_DT_U8 << 8 | 1u << 17 | LINX_FP_CTRL_ATOMIC } },
          "fixpipe-atomic-dtype", "AtomicAdd of U8" },
        { LINX_FP_REGS_OFFSET, LINX_FP_REG_GO, 2, { { 6, LINX_DT_FP32 | LINX_DT_FP32 << 8 }, { 1, 0x9000000 } },
          "fixpipe-gm-fault", "GM destination fault at 0x9000000" },
    };
    Env *e = *state;

    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const RuleCase *rc = &cases[c];
        uint8_t *snap[LINX_BUF__COUNT];
        uint64_t status = 0;

        for (unsigned r = 0; r < rc->nregs; r++) {
            reg(e, rc->page, (unsigned)rc->regs[r][0], rc->regs[r][1]);
        }
        for (unsigned i = 0; i < LINX_BUF__COUNT; i++) {
            snap[i] = malloc(e->b->buf[i].size);
            memcpy(snap[i], e->b->buf[i].data, e->b->buf[i].size);
        }
        if (go(e, rc->page, rc->go)) {
            fail_msg("case %zu (%s): GO accepted", c, rc->name);
        }
        if (strcmp(e->b->status.name, rc->name) != 0 || !strstr(e->b->status.text, rc->text)) {
            fail_msg("case %zu: %s: %s (want %s / %s)", c, e->b->status.name, e->b->status.text,
                     rc->name, rc->text);
        }
        assert_int_equal(e->b->status_addr, BASE + rc->page + rc->go * 8);
        assert_int_equal(guest_mem_read(e->gm, BASE + rc->page + rc->go * 8, &status, 8,
                                        GM_PROT_READ, NULL),
                         GM_OK);
        assert_int_equal(status, e->b->status.rule);
        {
            char *rep = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&rep, &len);

            assert_true(linx_buffers_fault_report(f, e->b, e->b->status_addr));
            assert_false(linx_buffers_fault_report(f, e->b, e->b->status_addr + 8));
            fclose(f);
            assert_non_null(strstr(rep, rc->name));
            free(rep);
        }
        for (unsigned i = 0; i < LINX_BUF__COUNT; i++) {
            assert_memory_equal(snap[i], e->b->buf[i].data, e->b->buf[i].size);
            free(snap[i]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_datacopy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mmad_fixpipe, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rules, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
