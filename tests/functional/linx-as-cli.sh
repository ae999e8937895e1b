#!/bin/sh
# linx-as command line: output formats, listing, --objdump, exit codes and
# "no output on error".
#
#   linx-as-cli.sh LINX_AS HELLO_S SHARED_DIR
set -eu

as=$1
hello=$2
shared=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# Byte @2 (decimal offset) of file @1, as a decimal number.
byte() {
    od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '
}

# ELF executable: magic, ET_EXEC, EM 0xE9, entry = _start = 0x10000.
"$as" -o "$tmp/hello.elf" "$hello" || fail "hello.s did not assemble"
[ "$(od -An -c -N4 "$tmp/hello.elf" | tr -d ' ')" = '177ELF' ] || fail "no ELF magic"
[ "$(byte "$tmp/hello.elf" 16)" = 2 ] || fail "not ET_EXEC"
[ "$(byte "$tmp/hello.elf" 18)" = 233 ] || fail "e_machine is not 0xE9"
[ "$(od -An -tx8 -j24 -N8 "$tmp/hello.elf" | tr -d ' ')" = 0000000000010000 ] ||
    fail "entry is not 0x10000"

# ET_REL for the virt machine, and --base/--entry.
"$as" -r -o "$tmp/hello.o" "$hello" || fail "-r failed"
[ "$(byte "$tmp/hello.o" 16)" = 1 ] || fail "-r did not give ET_REL"
"$as" --base=0x80000 -e 0x80002 -o "$tmp/b.elf" "$hello" || fail "--base/-e failed"
[ "$(od -An -tx8 -j24 -N8 "$tmp/b.elf" | tr -d ' ')" = 0000000000080002 ] ||
    fail "-e 0x80002 not the entry"

# Raw binary: the first instruction is C.BSTART.STD (00 08), ends with "hello\n\0".
"$as" -f bin -o "$tmp/hello.bin" "$hello" || fail "-f bin failed"
[ "$(od -An -tx1 -N2 "$tmp/hello.bin" | tr -d ' ')" = 0008 ] || fail "raw binary start"
[ "$(tail -c 7 "$tmp/hello.bin" | od -An -c | tr -d ' ')" = 'hello\n\0' ] ||
    fail "raw binary does not end with the message"

# Listing on stdout.
"$as" -a -o "$tmp/l.elf" "$hello" > "$tmp/list.txt" || fail "-a failed"
grep -q '00010000  0800 ' "$tmp/list.txt" || fail "listing lacks the first instruction"
grep -q 'C.BSTART COND, putc' "$tmp/list.txt" || fail "listing lacks the source text"

# Standard input, and a listing file.
printf '.byte 7\n' | "$as" -f bin -a="$tmp/l2.txt" -o "$tmp/stdin.bin" - ||
    fail "stdin input failed"
[ "$(byte "$tmp/stdin.bin" 0)" = 7 ] || fail "stdin input bytes"
grep -q '07' "$tmp/l2.txt" || fail "listing file"

# Errors: status 1, file:line:col, no output file, stale output removed.
printf 'nop_here:\n    addx a0, a1, ->t\n' > "$tmp/bad.s"
echo stale > "$tmp/bad.elf"
if "$as" -o "$tmp/bad.elf" "$tmp/bad.s" 2> "$tmp/err.txt"; then
    fail "bad input assembled"
else
    [ $? -eq 1 ] || fail "bad input: status is not 1"
fi
grep -q "bad.s:2:5: error: unknown mnemonic" "$tmp/err.txt" || fail "error message: $(cat "$tmp/err.txt")"
[ ! -e "$tmp/bad.elf" ] || fail "output left behind after an error"
ls "$tmp" | grep -q tmp && fail "temporary file left behind"

# Outputs that are not regular files are written in place, never replaced
# (temp-and-rename is for regular files only): a symbolic link stays a link
# and its target gets the bytes, a FIFO stays a FIFO and its reader gets
# them, and (as root) a character device stays a device.
"$as" -o "$tmp/ref.elf" "$hello" || fail "reference assembly"
: > "$tmp/target.elf"
ln -s target.elf "$tmp/link.elf"
"$as" -o "$tmp/link.elf" "$hello" || fail "-o symlink failed"
[ -L "$tmp/link.elf" ] || fail "-o replaced a symbolic link"
cmp -s "$tmp/ref.elf" "$tmp/target.elf" || fail "-o symlink: target does not hold the output"
if "$as" -o "$tmp/link.elf" "$tmp/bad.s" 2> /dev/null; then fail "bad input assembled"; fi
[ -L "$tmp/link.elf" ] || fail "an error removed the symbolic link"
mkfifo "$tmp/fifo"
cat "$tmp/fifo" > "$tmp/fifo.out" &
reader=$!
"$as" -o "$tmp/fifo" "$hello" || fail "-o fifo failed"
wait "$reader"
[ -p "$tmp/fifo" ] || fail "-o replaced a FIFO"
cmp -s "$tmp/ref.elf" "$tmp/fifo.out" || fail "-o fifo: the reader did not get the output"
if [ "$(id -u)" = 0 ] && mknod "$tmp/null" c 1 3 2> /dev/null; then
    "$as" -o "$tmp/null" "$hello" || fail "-o character device failed"
    [ -c "$tmp/null" ] || fail "-o replaced a character device (as root)"
    if "$as" -o "$tmp/null" "$tmp/bad.s" 2> /dev/null; then fail "bad input assembled"; fi
    [ -c "$tmp/null" ] || fail "an error removed a character device"
    rm -f "$tmp/null"
else
    echo "note: not root, character device case not run"
fi
"$as" -o /dev/null "$hello" || fail "-o /dev/null failed"
[ -c /dev/null ] || fail "-o /dev/null replaced the device"
rm -f "$tmp/link.elf" "$tmp/target.elf" "$tmp/fifo" "$tmp/fifo.out" "$tmp/ref.elf"

# Unreadable inputs: status 1 and a message.
if "$as" -o "$tmp/x.elf" "$tmp/no-such-file.s" 2> "$tmp/err2.txt"; then
    fail "missing input accepted"
fi
grep -q "cannot open '$tmp/no-such-file.s'" "$tmp/err2.txt" || fail "missing input message"
"$as" -o "$tmp/x.elf" "$tmp" 2> /dev/null && fail "a directory accepted as input"

# Usage errors: status 2.
"$as" --no-such-option "$hello" 2> /dev/null && fail "unknown option accepted"
"$as" --no-such-option "$hello" 2> /dev/null || [ $? -eq 2 ] || fail "usage error status"
"$as" 2> /dev/null || [ $? -eq 2 ] || fail "no input: status"

# An ordinary instruction inside a tile header: a warning naming it and
# the header's line, the output still written, status 0; descriptors and a
# new block marker after the header draw none (no warning before).
printf '    BSTART.TMA TLOAD, FP32\n    B.ARG NORM\n    addi a0, 1, ->a0\n    C.B.DIMI 4, ->lb0\n    C.BSTART.STD FALL\n    addi a0, 1, ->a0\n' > "$tmp/hdr.s"
"$as" -o "$tmp/hdr.elf" "$tmp/hdr.s" 2> "$tmp/hdr.err" || fail "header warning: status"
[ -s "$tmp/hdr.elf" ] || fail "header warning: no output"
grep -q "hdr.s:3:5: warning: 'ADDI' inside the tile header of line 1" "$tmp/hdr.err" ||
    fail "header warning: message ($(head -1 "$tmp/hdr.err"))"
[ "$(grep -c warning "$tmp/hdr.err")" = 1 ] || fail "header warning: count"
"$as" -o "$tmp/x.elf" "$hello" 2> "$tmp/hello.err" || fail "hello"
[ -s "$tmp/hello.err" ] && fail "hello: unexpected diagnostics"

# .macro/.endm (defaults, :req, :vararg, keyword arguments, \@, .exitm,
# nesting), .rept/.endr and .irp/.irpc (GNU as semantics) give the bytes of
# the same program written out by hand; the errors name the line.
cat > "$tmp/mac.s" <<'MAC'
    .macro addk reg, k=1
    addi \reg, \k, ->\reg
    .endm
    .macro words a:req, rest:vararg
    .word \a, \a
    .word \rest
    .endm
    .macro rows n
    .rept \n
    addk a6
    .endr
    .exitm
    addi a7, 9, ->a7
    .endm
    .text
    C.BSTART.STD FALL
start: addk a0
    addk a1, 5
    addk k=7, reg=a2
    .rept 3
    addi a3, 1, ->a3
    .endr
    .irp r, a4, a5
    addi \r, 2, ->\r
    .endr
    rows 2
    .data
    words 9, 10, 11
    .irpc c, 123
    .byte \c
    .endr
    .macro lbl
L\@: .byte \@
    .endm
    lbl
MAC
cat > "$tmp/mac-ref.s" <<'MAC'
    .text
    C.BSTART.STD FALL
start: addi a0, 1, ->a0
    addi a1, 5, ->a1
    addi a2, 7, ->a2
    addi a3, 1, ->a3
    addi a3, 1, ->a3
    addi a3, 1, ->a3
    addi a4, 2, ->a4
    addi a5, 2, ->a5
    addi a6, 1, ->a6
    addi a6, 1, ->a6
    .data
    .word 9, 9
    .word 10, 11
    .byte 1
    .byte 2
    .byte 3
L7: .byte 7
MAC
"$as" -f bin -o "$tmp/mac.bin" "$tmp/mac.s" || fail "macros: assembling"
"$as" -f bin -o "$tmp/mac-ref.bin" "$tmp/mac-ref.s" || fail "macros: the hand-written program"
cmp -s "$tmp/mac.bin" "$tmp/mac-ref.bin" || fail "macros: bytes differ from the hand expansion"
printf '    .rept 2\n    nop\n' > "$tmp/mac-e1.s"
"$as" -o "$tmp/x.elf" "$tmp/mac-e1.s" 2> "$tmp/mac-e1.err" && fail "unterminated .rept accepted"
grep -q "mac-e1.s:1:.*\.rept without its end" "$tmp/mac-e1.err" || fail "unterminated .rept: message"
printf '    .rept 100000000\n    .byte 0\n    .endr\n' > "$tmp/mac-e2.s"
"$as" -o "$tmp/x.elf" "$tmp/mac-e2.s" 2> "$tmp/mac-e2.err" && fail "runaway .rept accepted"
grep -q "expansion larger than" "$tmp/mac-e2.err" || fail "runaway .rept: message"
printf '    .macro m a:req\n    .byte \\a\n    .endm\n    m\n' > "$tmp/mac-e3.s"
"$as" -o "$tmp/x.elf" "$tmp/mac-e3.s" 2> "$tmp/mac-e3.err" && fail "missing :req accepted"
grep -q "mac-e3.s:4:.*required parameter 'a'" "$tmp/mac-e3.err" || fail ":req: message"
printf '    .macro m\n    m\n    .endm\n    m\n' > "$tmp/mac-e4.s"
"$as" -o "$tmp/x.elf" "$tmp/mac-e4.s" 2> "$tmp/mac-e4.err" && fail "recursive macro accepted"
grep -q "nested more than 100 deep" "$tmp/mac-e4.err" || fail "recursion: message"

# llvm-objdump listings read back.
listing="$shared/guest/disasm/disasm_example.objdump.s"
if [ -f "$listing" ]; then
    "$as" --objdump --legacy -f bin -o "$tmp/l.bin" "$listing" || fail "--objdump failed"
    [ "$(od -An -tx1 -N2 "$tmp/l.bin" | tr -d ' ')" = 0030 ] || fail "--objdump first bytes"
    "$as" --objdump --legacy -f bin -o "$tmp/l2.bin" - < "$listing" || fail "--objdump stdin"
    cmp -s "$tmp/l.bin" "$tmp/l2.bin" || fail "--objdump from stdin differs"
else
    echo "skip: $listing not found"
fi

if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "linx-as CLI: all checks passed"
