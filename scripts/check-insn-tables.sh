#!/bin/sh
# Regenerate the instruction tables into a temporary directory and fail if
# the committed copy differs.  Usage: check-insn-tables.sh SRCDIR CATALOG
set -eu
src=$1
catalog=$2
if [ ! -f "$catalog" ]; then
    echo "check-insn-tables: SKIP: catalog not found at $catalog"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$src/scripts/gen-insn-tables.py" --catalog "$catalog" --outdir "$tmp"
status=0
for f in target/linx/insn-forms.h target/linx/insn-forms.c.inc docs/insn-forms.txt \
         target/linx/insn-syntax.c.inc docs/insn-syntax.txt; do
    if ! cmp -s "$tmp/$f" "$src/$f"; then
        echo "check-insn-tables: $f is out of date; run 'meson compile -C build regen-insn-tables'"
        diff -u "$src/$f" "$tmp/$f" | head -20
        status=1
    fi
done
[ $status = 0 ] && echo "check-insn-tables: generated tables are current"
exit $status
