/*
 * The one list of LinxISA front-end helpers (modelled on QEMU's
 * target/<arch>/helper.h).  No include guard: this file is included with
 * DEF_HELPER_<n>(name, flags, ret, args...) defined by
 *
 *   helper-proto.h  prototypes of helper_<name>() and the IRHelperInfo
 *                   records helper_info_<name>
 *   helper-info.c   the IRHelperInfo records (name, function, arity, flags)
 *   translate-gen.h gen_helper_<name>(ctx, ret, args...) emitters
 *
 * Types: void (no result), i64 (uint64_t), env (CPULinxState *).  Every
 * argument travels as a 64-bit value.  Flags are IR_CALL_* (tcg/ir.h):
 *   PURE = IR_CALL_NO_RWG | IR_CALL_NO_SE  (a function of its arguments)
 *   NO_WG                                  (reads, never writes, globals)
 *   0                                      (may read/write any CPU state)
 *   (helpers that always leave through cpu_loop_exit use 0 and are
 *   followed by exit_tb, so the op list still ends in a TB exit)
 */

#define LINX_HELPER_PURE (IR_CALL_NO_RWG | IR_CALL_NO_SE)

/* ---- Traps and control (helper_sys.c) ---- */
DEF_HELPER_5(raise, 0, void, env, i64, i64, i64, i64)
DEF_HELPER_2(cfi_bad_target, 0, void, env, i64)
DEF_HELPER_1(resume_mismatch, 0, void, env)
DEF_HELPER_3(acrc, 0, void, env, i64, i64)
DEF_HELPER_3(acre, 0, void, env, i64, i64)
DEF_HELPER_3(assert, 0, void, env, i64, i64)
DEF_HELPER_2(fence_i, 0, void, env, i64)
DEF_HELPER_1(fence_d, 0, void, env)
DEF_HELPER_3(ssr_get, IR_CALL_NO_WG, i64, env, i64, i64)
DEF_HELPER_4(ssr_set, 0, void, env, i64, i64, i64)
DEF_HELPER_3(lsr_get, IR_CALL_NO_WG, i64, env, i64, i64)
DEF_HELPER_2(block_engine, 0, void, env, i64)
DEF_HELPER_5(mcopy, 0, void, env, i64, i64, i64, i64)
DEF_HELPER_5(mset, 0, void, env, i64, i64, i64, i64)

/* ---- TMA blocks (helper_tma.c, target/linx/tma-translate.h) ---- */
DEF_HELPER_5(tma, IR_CALL_NO_WG, void, env, i64, i64, i64, i64)
/* helper_tma with a TcgTileMove plan last: the backend may inline it. */
DEF_HELPER_6(tma_jit, IR_CALL_NO_WG | IR_CALL_TILE_MOVE, void, env, i64, i64, i64, i64, i64)
DEF_HELPER_5(tma_raise, 0, void, env, i64, i64, i64, i64)

/* ---- Kernel blocks, TEPL, CUBE (kernel-helpers.c, kernel-xlane.c,
 *      docs/kernels.md) ---- */
DEF_HELPER_4(kernel_bind, 0, void, env, i64, i64, i64)
DEF_HELPER_1(kernel_end, 0, void, env)
DEF_HELPER_3(kernel_xlane, 0, void, env, i64, i64)
DEF_HELPER_4(kfp2, 0, i64, env, i64, i64, i64)
DEF_HELPER_5(kfp3, 0, i64, env, i64, i64, i64, i64)
DEF_HELPER_3(kfp1, 0, i64, env, i64, i64)
DEF_HELPER_3(kcvt, 0, i64, env, i64, i64)
DEF_HELPER_2(kvec, 0, i64, env, i64)
DEF_HELPER_2(ksimd, 0, i64, env, i64)
DEF_HELPER_2(kernel_lanes, 0, void, env, i64)
DEF_HELPER_5(tepl, 0, void, env, i64, i64, i64, i64)
DEF_HELPER_6(cube, 0, void, env, i64, i64, i64, i64, i64)

/* ---- Integer (helper_int.c) ---- */
DEF_HELPER_2(div, LINX_HELPER_PURE, i64, i64, i64)
DEF_HELPER_2(divu, LINX_HELPER_PURE, i64, i64, i64)
DEF_HELPER_2(rem, LINX_HELPER_PURE, i64, i64, i64)
DEF_HELPER_2(remu, LINX_HELPER_PURE, i64, i64, i64)
DEF_HELPER_2(divw, LINX_HELPER_PURE, i64, i64, i64)
DEF_HELPER_2(divuw, LINX_HELPER_PURE, i64, i64, i64)
DEF_HELPER_2(remw, LINX_HELPER_PURE, i64, i64, i64)
DEF_HELPER_2(remuw, LINX_HELPER_PURE, i64, i64, i64)
DEF_HELPER_3(bitfield, LINX_HELPER_PURE, i64, i64, i64, i64)
DEF_HELPER_4(bfi, LINX_HELPER_PURE, i64, i64, i64, i64, i64)

/* ---- Atomics (helper_mem.c) ---- */
DEF_HELPER_4(lr, 0, i64, env, i64, i64, i64)
DEF_HELPER_5(sc, 0, i64, env, i64, i64, i64, i64)
DEF_HELPER_5(amo, 0, i64, env, i64, i64, i64, i64)
DEF_HELPER_6(cas, 0, i64, env, i64, i64, i64, i64, i64)

/* ---- Floating point (helper_fp.c) ---- */
DEF_HELPER_4(fp_bin, 0, i64, env, i64, i64, i64)
DEF_HELPER_5(fp_fma, 0, i64, env, i64, i64, i64, i64)
DEF_HELPER_3(fp_un, 0, i64, env, i64, i64)
DEF_HELPER_4(fp_cmp, 0, i64, env, i64, i64, i64)
DEF_HELPER_3(fp_cvt, 0, i64, env, i64, i64)

/* ---- Commit trace (commit-trace.c) ---- */
DEF_HELPER_4(trace_insn, IR_CALL_NO_WG, void, env, i64, i64, i64)
DEF_HELPER_4(trace_kbody, IR_CALL_NO_WG, void, env, i64, i64, i64)
