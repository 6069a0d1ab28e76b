#!/bin/sh
# A fake implementation: the reference's dump, one line more for y_b.bin. Usage: wrong_one.sh DOCCONFORM INPUT
"$1" dump utf8 "$2" || exit 1
case "$2" in */y_b.bin) echo "text \"not b\"";; esac
exit 0
