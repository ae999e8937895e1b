#!/bin/sh
# scripts/linx-binfmt.sh (issue 18): LinxISA programs run directly through
# binfmt_misc.  Registers linx-user under a name of its own, runs the
# exit42 guest as ./prog (status 42, the program's own constant) and the
# args guest with arguments and one environment variable (it checks its
# initial stack itself and exits 0), shows and removes the entry, and
# then expects the kernel to refuse the file again (exec format error).
# Bad command lines are refused.  Skips (77) where binfmt_misc cannot be
# used: not root, no binfmt_misc in the kernel or container.
#
#   binfmt.sh SRCDIR LINX_USER EXIT42_ELF ARGS_ELF
set -u

src=$1 linx_user=$2 exit42=$3 args=$4
script=$src/scripts/linx-binfmt.sh
name=linx-test-$$
tmp=$(mktemp -d)
failures=0

cleanup() {
    [ -e /proc/sys/fs/binfmt_misc/$name ] && echo -1 >/proc/sys/fs/binfmt_misc/$name
    rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

if [ "$(id -u)" != 0 ]; then
    echo "SKIP: binfmt_misc registration needs root"
    exit 77
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ] &&
    ! mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null; then
    echo "SKIP: binfmt_misc cannot be mounted here (kernel or container)"
    exit 77
fi

# usage errors first (nothing registered)
sh "$script" --bogus >/dev/null 2>&1
[ $? = 2 ] || fail "an unknown option is a usage error (2)"
out=$(sh "$script" --name "$name" --linx-user "$tmp/none" 2>&1)
[ $? = 1 ] && echo "$out" | grep -q "is not an executable file" ||
    fail "a missing linx-user is refused: $out"
out=$(sh "$script" --name "a/b" 2>&1)
[ $? = 1 ] || fail "a name with '/' is refused: $out"
[ -e /proc/sys/fs/binfmt_misc/$name ] && fail "a refused registration left an entry"

if ! out=$(sh "$script" --name "$name" --linx-user "$linx_user" 2>&1); then
    echo "SKIP: this kernel does not take binfmt_misc entries here: $out"
    exit 77
fi
cp "$exit42" "$tmp/exit42"
cp "$args" "$tmp/args"
chmod +x "$tmp/exit42" "$tmp/args"
"$tmp/exit42"
st=$?
[ $st = 42 ] || fail "./exit42 ran with status $st, want 42"
env -i LINX_TEST=42 "$tmp/args" alpha "beta gamma"
st=$?
[ $st = 0 ] || fail "./args alpha 'beta gamma' failed its own checks (status $st)"
entry=$(sh "$script" --show --name "$name")
echo "$entry" | grep -q "^interpreter $(cd "$(dirname "$linx_user")" && pwd)/$(basename "$linx_user")\$" ||
    fail "the entry names another interpreter: $entry"
echo "$entry" | grep -q "^magic 7f454c460201010000000000000000000200e900\$" ||
    fail "the entry's magic: $entry"
sh "$script" --remove --name "$name" || fail "--remove"
[ -e /proc/sys/fs/binfmt_misc/$name ] && fail "--remove left the entry"
# without the entry (and no other one for LinxISA) the kernel refuses it
if ! grep -qs "e900$" /proc/sys/fs/binfmt_misc/*; then
    "$tmp/exit42" 2>/dev/null
    st=$?
    [ $st = 126 ] || fail "./exit42 without an entry: status $st, want 126 (exec format error)"
fi
out=$(sh "$script" --remove --name "$name" 2>&1)
[ $? = 1 ] || fail "removing a missing entry is refused: $out"

if [ $failures != 0 ]; then
    echo "binfmt: $failures failure(s)"
    exit 1
fi
echo "binfmt: ok"
