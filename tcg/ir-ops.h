/*
 * The IR opcode table: every op once, with its operand counts, flags and a
 * one-line description.  Included with IR_OP() defined by the user, it
 * yields the opcode enum (ir.h), the op-info table (ir.c), the dumper and
 * docs/ir.md (scripts/gen-ir-doc.py reads this file).
 *
 *   IR_OP(name, outs, ins, consts, flags, "description")
 *
 * outs/ins are temp operands (outputs first in IRInsn.args), consts are
 * immediate operands that follow (conditions, offsets, memops, labels,
 * helper indices).  All temps are 64-bit.  Arithmetic wraps modulo 2^64.
 *
 * Flags:
 *   IR_F_BB_END     ends a basic block (register state must be canonical)
 *   IR_F_SIDE       side effect: never removed by dead-code elimination
 *   IR_F_MEM        guest memory access: may fault; globals synced first
 *   IR_F_CALL       helper call
 *   IR_F_LABEL      an operand is a label
 */

/* name          outs ins consts flags                      description */

/* Control flow inside a TB.  Local temps do not live across set_label. */
IR_OP(discard,      0, 0, 1, IR_F_SIDE,                    "mark temp c0 dead (no code)")
IR_OP(set_label,    0, 0, 1, IR_F_BB_END | IR_F_SIDE | IR_F_LABEL, "define label c0")
IR_OP(br,           0, 0, 1, IR_F_BB_END | IR_F_SIDE | IR_F_LABEL, "jump to label c0")
IR_OP(brcond,       0, 2, 2, IR_F_BB_END | IR_F_SIDE | IR_F_LABEL, "if cond c0 (i0, i1) jump to label c1")

/* Moves and conditions. */
IR_OP(mov,          1, 1, 0, 0,                            "o0 = i0")
IR_OP(movi,         1, 0, 1, 0,                            "o0 = c0 (64-bit constant)")
IR_OP(setcond,      1, 2, 1, 0,                            "o0 = cond c0 (i0, i1) ? 1 : 0")
IR_OP(movcond,      1, 4, 1, 0,                            "o0 = cond c0 (i0, i1) ? i2 : i3")

/* Arithmetic and logic: pure functions of their inputs. */
IR_OP(add,          1, 2, 0, 0,                            "o0 = i0 + i1")
IR_OP(sub,          1, 2, 0, 0,                            "o0 = i0 - i1")
IR_OP(mul,          1, 2, 0, 0,                            "o0 = low 64 bits of i0 * i1")
IR_OP(mulsh,        1, 2, 0, 0,                            "o0 = high 64 bits of signed i0 * i1")
IR_OP(muluh,        1, 2, 0, 0,                            "o0 = high 64 bits of unsigned i0 * i1")
IR_OP(neg,          1, 1, 0, 0,                            "o0 = -i0")
IR_OP(and,          1, 2, 0, 0,                            "o0 = i0 & i1")
IR_OP(or,           1, 2, 0, 0,                            "o0 = i0 | i1")
IR_OP(xor,          1, 2, 0, 0,                            "o0 = i0 ^ i1")
IR_OP(andc,         1, 2, 0, 0,                            "o0 = i0 & ~i1")
IR_OP(not,          1, 1, 0, 0,                            "o0 = ~i0")
IR_OP(shl,          1, 2, 0, 0,                            "o0 = i0 << (i1 & 63)")
IR_OP(shr,          1, 2, 0, 0,                            "o0 = i0 >> (i1 & 63), logical")
IR_OP(sar,          1, 2, 0, 0,                            "o0 = i0 >> (i1 & 63), arithmetic")
IR_OP(rotr,         1, 2, 0, 0,                            "o0 = i0 rotated right by (i1 & 63)")
IR_OP(clz,          1, 1, 0, 0,                            "o0 = count of leading zeros of i0 (64 for 0)")
IR_OP(ctz,          1, 1, 0, 0,                            "o0 = count of trailing zeros of i0 (64 for 0)")
IR_OP(ctpop,        1, 1, 0, 0,                            "o0 = number of set bits of i0")
IR_OP(bswap64,      1, 1, 0, 0,                            "o0 = i0 with its 8 bytes reversed")
IR_OP(ext8s,        1, 1, 0, 0,                            "o0 = sign-extend low 8 bits of i0")
IR_OP(ext8u,        1, 1, 0, 0,                            "o0 = zero-extend low 8 bits of i0")
IR_OP(ext16s,       1, 1, 0, 0,                            "o0 = sign-extend low 16 bits of i0")
IR_OP(ext16u,       1, 1, 0, 0,                            "o0 = zero-extend low 16 bits of i0")
IR_OP(ext32s,       1, 1, 0, 0,                            "o0 = sign-extend low 32 bits of i0")
IR_OP(ext32u,       1, 1, 0, 0,                            "o0 = zero-extend low 32 bits of i0")

/* Host-memory access relative to a pointer temp (env fields, tile state).
 * c0 is a byte offset.  Not guest memory: never faults. */
IR_OP(ld8u,         1, 1, 1, 0,                            "o0 = zero-extended byte at host i0 + c0")
IR_OP(ld8s,         1, 1, 1, 0,                            "o0 = sign-extended byte at host i0 + c0")
IR_OP(ld16u,        1, 1, 1, 0,                            "o0 = zero-extended u16 at host i0 + c0")
IR_OP(ld16s,        1, 1, 1, 0,                            "o0 = sign-extended i16 at host i0 + c0")
IR_OP(ld32u,        1, 1, 1, 0,                            "o0 = zero-extended u32 at host i0 + c0")
IR_OP(ld32s,        1, 1, 1, 0,                            "o0 = sign-extended i32 at host i0 + c0")
IR_OP(ld64,         1, 1, 1, 0,                            "o0 = u64 at host i0 + c0")
IR_OP(st8,          0, 2, 1, IR_F_SIDE,                    "byte at host i1 + c0 = i0")
IR_OP(st16,         0, 2, 1, IR_F_SIDE,                    "u16 at host i1 + c0 = i0")
IR_OP(st32,         0, 2, 1, IR_F_SIDE,                    "u32 at host i1 + c0 = i0")
IR_OP(st64,         0, 2, 1, IR_F_SIDE,                    "u64 at host i1 + c0 = i0")

/* Guest memory through the one checked path (fast TLB hit inline, slow
 * path and faults in hw/core/guest-memory.c).  c0 is an IRMemOp (size,
 * sign, alignment), c1 the guest PC of the instruction, for faults. */
IR_OP(qemu_ld,      1, 1, 2, IR_F_SIDE | IR_F_MEM,         "o0 = guest load c0 at address i0 (insn pc c1)")
IR_OP(qemu_st,      0, 2, 2, IR_F_SIDE | IR_F_MEM,         "guest store c0 of i0 at address i1 (insn pc c1)")

/* Helper call: c0 is an index into the context's helper table (function,
 * signature, flags); outs and ins vary per helper, so IRInsn carries
 * explicit nout/nin for this op. */
IR_OP(call,         0, 0, 1, IR_F_SIDE | IR_F_CALL,        "call helper c0 with the listed temps")

/* Leaving the translation block.  goto_tb is followed (after plain ops
 * that store the pc) by exit_tb: when the slot is chained, execution goes
 * straight to the next TB and skips those ops. */
IR_OP(goto_tb,      0, 0, 1, IR_F_BB_END | IR_F_SIDE,      "direct-jump slot c0 (0 or 1), patched when chained")
IR_OP(exit_tb,      0, 0, 1, IR_F_BB_END | IR_F_SIDE,      "return c0 to the exec loop (TB pointer | slot, or 0)")
IR_OP(goto_ptr,     0, 1, 0, IR_F_BB_END | IR_F_SIDE,      "jump to host code at i0 (from lookup_tb helper)")
IR_OP(insn_start,   0, 0, 2, IR_F_SIDE,                    "guest instruction at pc c0, index c1 (no code)")
