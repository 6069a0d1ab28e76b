#!/bin/sh
# A fake implementation: the reference's dump, one line more for one case.
# Usage: wrong_one.sh DOCCONFORM INPUT NAME (the case file name to get wrong)
"$1" dump utf8 "$2" || exit 1
case "$2" in */"$3") echo "text \"not right\"";; esac
exit 0
