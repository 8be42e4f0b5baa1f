#!/bin/bash
# scripts/check-layers: a two-way pair of files is found, a one-way chain is not,
# and this build's lib/ has no loop.
. "$RTM_SRCDIR/tests/lib.sh"

CL="$RTM_SRCDIR/scripts/check-layers"
d=$(mktemp -d)
mkdir -p "$d/oneway/lib" "$d/loop/lib" "$d/empty/lib"
cc_o() {	# cc_o OUT SOURCE
	printf '%s\n' "$2" > "$d/src.c" && ${CC:-cc} -c -o "$1" "$d/src.c"
}
cc_o "$d/oneway/lib/a.o" 'int b_fn(void); int a_fn(void) { return b_fn(); }' &&
cc_o "$d/oneway/lib/b.o" 'int c_fn(void); int b_fn(void) { return c_fn(); }' &&
cc_o "$d/oneway/lib/c.o" 'int c_fn(void) { return 1; }' &&
cp "$d/oneway/lib/a.o" "$d/loop/lib/" && cp "$d/oneway/lib/b.o" "$d/loop/lib/" &&
cc_o "$d/loop/lib/c.o" 'int a_fn(void); int c_fn(void) { return a_fn(); }' &&
cc_o "$d/loop/lib/x.o" 'int y_fn(void); int x_fn(void) { return y_fn(); }' &&
cc_o "$d/loop/lib/y.o" 'int x_fn(void); int y_fn(void) { return x_fn(); }'
ok $? "test objects compiled"

out=$("$CL" "$d/oneway"); rc=$?
ok $(( rc != 0 )) "a -> b -> c: exit 0"
echo "$out" | grep -qx 'a -> b: b_fn' && echo "$out" | grep -qx 'b -> c: c_fn'
ok $? "each edge with its symbol"

out=$("$CL" --quiet "$d/loop"); rc=$?
ok $(( rc != 1 )) "a loop: exit 1"
echo "$out" | grep -qx '  two-way: x <-> y'
ok $? "the two-way pair is named"
echo "$out" | grep -q '^  [abc]$'
ok $? "the files of the longer loop a -> b -> c -> a are named"

"$CL" "$d/empty" >/dev/null 2>&1; rc=$?
ok $(( rc != 2 )) "no objects: exit 2"
"$CL" --frobnicate >/dev/null 2>&1; rc=$?
ok $(( rc != 2 )) "unknown option: exit 2"

out=$("$CL" --quiet "$RTM_BUILDDIR"); rc=$?
ok $(( rc != 0 )) "this build's lib/: every file's calls point one way${out:+ ($out)}"
rm -rf "$d"
done_testing
