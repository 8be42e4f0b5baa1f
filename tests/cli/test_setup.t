#!/bin/bash
# configure.ac and scripts/setup: autoconf has nothing to warn about in configure.ac (a fresh
# clone's autoreconf prints no warning); setup keeps autoreconf's notes in a log but shows its
# warnings, and runs make with -j N when given, else MAKEFLAGS from the environment, else one
# job per CPU. setup runs on a copy with stand-ins for autoreconf, make and nproc: nothing is
# built.
. "$RTM_SRCDIR/tests/lib.sh"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

# autoconf alone (half a second) says what autoreconf would about the order of the macros
if command -v autoconf >/dev/null && [ -f "$RTM_SRCDIR/aclocal.m4" ]; then
	mkdir "$d/ac" && cp "$RTM_SRCDIR/configure.ac" "$RTM_SRCDIR/aclocal.m4" "$d/ac/" &&
		cp -r "$RTM_SRCDIR/m4" "$d/ac/"
	w=$(cd "$d/ac" && autoconf -Wall -o /dev/null 2>&1)
	[ -z "$w" ]
	ok $? "autoconf -Wall prints nothing on configure.ac${w:+: $(echo "$w" | head -1)}"
else
	ok 0 "# SKIP autoconf or aclocal.m4 missing: no autoconf run"
fi
# the same rule read from the file, for a tree without autoconf: the system extensions come
# before the first macro that compiles
ext=$(grep -n '^AC_USE_SYSTEM_EXTENSIONS' "$RTM_SRCDIR/configure.ac" | head -1 | cut -d: -f1)
first=$(grep -nE '^(AM_PROG_AR|LT_INIT|AC_SYS_LARGEFILE|AC_CHECK_|AC_(COMPILE|LINK|RUN)_IFELSE)' \
	"$RTM_SRCDIR/configure.ac" | head -1 | cut -d: -f1)
[ -n "$ext" ] && [ -n "$first" ] && [ "$ext" -lt "$first" ]
ok $? "AC_USE_SYSTEM_EXTENSIONS (line ${ext:-none}) before the first macro that compiles \
(line ${first:-none})"

# a source tree with no configure (autoreconf runs) and a configured build folder
top="$d/top"
mkdir -p "$top/scripts" "$top/build" "$d/bin"
cp "$RTM_SRCDIR/scripts/setup" "$top/scripts/"
touch "$top/configure.ac" "$top/Makefile.am" "$top/build/Makefile"
echo >"$top/build/.rtm-configure-flags"
cat >"$d/bin/autoreconf" <<'EOF'
#!/bin/sh
echo "libtoolize: putting auxiliary files in AC_CONFIG_AUX_DIR, 'build-aux'."
echo "configure.ac:10: installing 'build-aux/compile'" >&2
[ -z "$FAKE_WARN" ] || echo "configure.ac:17: warning: $FAKE_WARN" >&2
EOF
cat >"$d/bin/make" <<'EOF'
#!/bin/sh
echo "args=[$*] MAKEFLAGS=[${MAKEFLAGS:-}]" >"$FAKE_LOG"
EOF
printf '#!/bin/sh\necho 7\n' >"$d/bin/nproc"
chmod +x "$d/bin/autoreconf" "$d/bin/make" "$d/bin/nproc"

# setup [VAR=VALUE...] -- ARGS: run the copy, make's own variables (make check sets them) unset
setup() {
	local vars=()
	while [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	rm -f "$d/make.args"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$d/bin:$PATH" FAKE_LOG="$d/make.args" \
		${vars[@]+"${vars[@]}"} "$top/scripts/setup" --no-install "$@" >"$d/out" 2>"$d/err"
	rc=$?
	margs=$(cat "$d/make.args" 2>/dev/null)
}

setup --
[ "$rc" -eq 0 ] && [ ! -s "$d/err" ]
ok $? "autoreconf's notes stay off the terminal (rc=$rc, stderr: $(head -2 "$d/err"))"
grep -q "installing 'build-aux/compile'" "$top/build/autoreconf.log"
ok $? "... and go to BUILD/autoreconf.log"
[ "$margs" = "args=[-j7] MAKEFLAGS=[]" ]
ok $? "no MAKEFLAGS: make -j\$(nproc) ($margs)"

setup FAKE_WARN="AC_COMPILE_IFELSE was called before AC_USE_SYSTEM_EXTENSIONS" --
grep -q "configure.ac:17: warning: AC_COMPILE_IFELSE" "$d/err" &&
	! grep -q installing "$d/err"
ok $? "an autoreconf warning is shown, its notes are not ($(head -2 "$d/err"))"

setup MAKEFLAGS=-j3 --
[ "$rc" -eq 0 ] && [ "$margs" = "args=[] MAKEFLAGS=[-j3]" ]
ok $? "MAKEFLAGS=-j3: make takes it, no -j of setup's own ($margs)"

setup MAKEFLAGS=-j3 -- -j 5
[ "$rc" -eq 0 ] && [ "$margs" = "args=[-j5] MAKEFLAGS=[-j3]" ]
ok $? "-j 5 wins over MAKEFLAGS ($margs)"
setup -- -j2
[ "$rc" -eq 0 ] && [ "$margs" = "args=[-j2] MAKEFLAGS=[]" ]
ok $? "-j2 in one word ($margs)"

setup -- -j many
[ "$rc" -eq 2 ] && [ "$(grep -c . "$d/err")" -eq 1 ] && grep -q "^setup: -j 'many'" "$d/err" &&
	[ -z "$margs" ]
ok $? "-j many: one line, exit 2, nothing built ($(cat "$d/err"))"

done_testing
