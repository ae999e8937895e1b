#!/bin/sh
# Register linx-user with the kernel's binfmt_misc as the interpreter of
# LinxISA ELF executables, so `./prog` runs a LinxISA program directly (as
# qemu-user's qemu-binfmt-conf.sh does for other targets; docs/linux-user.md
# "Running programs directly").
#
#   scripts/linx-binfmt.sh [--linx-user PATH] [--name NAME]   register
#   scripts/linx-binfmt.sh --remove [--name NAME]             unregister
#   scripts/linx-binfmt.sh --show [--name NAME]               print the entry
#
# The entry matches 64-bit little-endian ELF files of type EXEC or DYN with
# e_machine 233 (0xE9, EM_LINXISA: util/elf-file.h), whatever their OS/ABI
# byte.  Flag F: the kernel opens linx-user when the entry is registered,
# so it works in containers and chroots that do not have linx-user.
# Needs root; mounts binfmt_misc on /proc/sys/fs/binfmt_misc when it is
# not mounted.  NAME defaults to linx; PATH to linx-user on PATH, else
# build/linx-user of this source tree.  An entry of the same name is
# replaced.  Exit status: 0 done, 1 refused (with the reason), 2 usage.
set -u

dir=/proc/sys/fs/binfmt_misc
name=linx
linx_user=
action=register

usage() {
    echo "usage: $0 [--linx-user PATH] [--name NAME] | --remove [--name NAME] | --show [--name NAME]" >&2
    exit 2
}

die() {
    echo "linx-binfmt: $*" >&2
    exit 1
}

while [ $# -gt 0 ]; do
    case $1 in
    --linx-user) [ $# -ge 2 ] || usage; linx_user=$2; shift 2 ;;
    --linx-user=*) linx_user=${1#*=}; shift ;;
    --name) [ $# -ge 2 ] || usage; name=$2; shift 2 ;;
    --name=*) name=${1#*=}; shift ;;
    --remove) action=remove; shift ;;
    --show) action=show; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "linx-binfmt: unknown option '$1'" >&2; usage ;;
    esac
done

case $name in
''|*/*|*:*|.|..) die "--name '$name': a name is a non-empty word without '/' or ':'" ;;
esac

if [ ! -e "$dir/register" ]; then
    [ "$(id -u)" = 0 ] || die "binfmt_misc is not mounted on $dir and mounting it needs root"
    mount -t binfmt_misc binfmt_misc "$dir" 2>/dev/null ||
        die "cannot mount binfmt_misc on $dir (no binfmt_misc in this kernel or container)"
fi

case $action in
show)
    [ -e "$dir/$name" ] || die "no entry '$name' in $dir"
    cat "$dir/$name"
    exit 0
    ;;
remove)
    [ -e "$dir/$name" ] || die "no entry '$name' in $dir"
    echo -1 >"$dir/$name" || die "cannot remove $dir/$name (root needed)"
    exit 0
    ;;
esac

if [ -z "$linx_user" ]; then
    linx_user=$(command -v linx-user 2>/dev/null || true)
    if [ -z "$linx_user" ]; then
        here=$(cd "$(dirname "$0")/.." && pwd)
        linx_user=$here/build/linx-user
    fi
fi
[ -f "$linx_user" ] && [ -x "$linx_user" ] || die "linx-user '$linx_user' is not an executable file"
# The kernel needs an absolute interpreter path.
linx_user=$(cd "$(dirname "$linx_user")" && pwd)/$(basename "$linx_user")

# ELF64 (2), little-endian (1), version 1; OS/ABI and padding masked out;
# e_type 2 (EXEC) or 3 (DYN): the mask's 0xfe ignores the low bit;
# e_machine 0x00e9.
magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xe9\x00'
mask='\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00\x00\xfe\xff\xff\xff'

if [ -e "$dir/$name" ]; then
    echo -1 >"$dir/$name" || die "cannot replace $dir/$name (root needed)"
fi
printf ':%s:M::%s:%s:%s:F\n' "$name" "$magic" "$mask" "$linx_user" >"$dir/register" ||
    die "the kernel refused the entry (root needed; or another entry matches the same files)"
echo "linx-binfmt: $dir/$name runs LinxISA ELF executables with $linx_user"
