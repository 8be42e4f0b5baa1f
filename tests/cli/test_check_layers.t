#!/bin/bash
# scripts/check-layers: a two-way pair of files is found, a one-way chain is not, a
# call up a layer is named, and this build's lib/ and tools/ call only down, round no loop.
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

# the folder rule: lib/FOLDER/ is a layer; a call up a layer, or one between
# tools/ files round a loop, is named
mkdir -p "$d/layers/lib/core" "$d/layers/lib/present" "$d/layers/tools"
cc_o "$d/layers/lib/core/low.o" 'int top_fn(void); int low_fn(void) { return top_fn(); }' &&
cc_o "$d/layers/lib/present/top.o" 'int top_fn(void) { return 1; }' &&
cc_o "$d/layers/tools/cmd_x.o" 'int main_fn(void); int low_fn(void); int x_fn(void) { return main_fn() + low_fn(); }' &&
cc_o "$d/layers/tools/main.o" 'int x_fn(void); int main_fn(void) { return x_fn(); }'
ok $? "layered test objects compiled"
out=$("$CL" --quiet "$d/layers"); rc=$?
ok $(( rc != 1 )) "a call up a layer: exit 1"
echo "$out" | grep -qx '  core/low -> present/top (top_fn)'
ok $? "the call up a layer is named with its symbol"
echo "$out" | grep -qx '  two-way: tools/cmd_x <-> tools/main'
ok $? "tools/ files are checked for loops too"
rm "$d/layers/lib/core/low.o" "$d/layers/tools/main.o"
cc_o "$d/layers/lib/present/up.o" 'int low_fn(void); int up_fn(void) { return low_fn(); }' &&
cc_o "$d/layers/lib/core/low.o" 'int low_fn(void) { return 0; }'
out=$("$CL" --quiet "$d/layers"); rc=$?
ok $(( rc != 0 )) "calls that point down: exit 0${out:+ ($out)}"

# the includes of the build's sources (its Makefile names them): one up a layer is named
mkdir -p "$d/incsrc/lib/core" "$d/incsrc/lib/present" "$d/incsrc/tools"
printf '#include "present/top.h"\n' > "$d/incsrc/lib/core/low.c"
printf '#include "core/low.h"\n' > "$d/incsrc/lib/present/top.c"
printf 'abs_top_srcdir = %s\n' "$d/incsrc" > "$d/layers/Makefile"
out=$("$CL" --quiet "$d/layers"); rc=$?
ok $(( rc != 1 )) "an include up a layer: exit 1"
echo "$out" | grep -qx '  lib/core/low.c includes present/top.h' &&
	! echo "$out" | grep -q 'present/top.c includes'
ok $? "the include up a layer is named, the one down is not"
rm "$d/layers/Makefile"

out=$("$CL" --quiet "$RTM_BUILDDIR"); rc=$?
ok $(( rc != 0 )) "this build's lib/ and tools/: calls and includes point down, no loop${out:+ ($out)}"
rm -rf "$d"
done_testing
