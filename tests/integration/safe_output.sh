#!/bin/bash
# Integration (root): outputs on a full tmpfs, a read-only tmpfs and device
# nodes made with mknod in a folder of our own (never the real /dev/null or
# /dev/full): the message names the fix, no partial or temporary file is left,
# a device node is written in place and never replaced.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
measure_lock "$@"
res="$RTM_TESTDATA/results/vm-6.18-load"
t=$(mktemp -d)
cleanup() {
	umount "$t/full" 2>/dev/null
	umount "$t/ro" 2>/dev/null
	rm -rf "$t"
}
trap cleanup EXIT
mkdir "$t/full" "$t/ro"
mount -t tmpfs -o size=64k,mode=0755 rtm-test-full "$t/full" || skip "cannot mount a tmpfs"
mount -t tmpfs -o ro,size=64k rtm-test-ro "$t/ro" || skip "cannot mount a read-only tmpfs"
# leftovers: anything but the folders the test made
leftovers() { find "$1" -mindepth 1 ! -name fill ! -type d | grep -c .; }
fix="choose another folder with -o"

# ------------------------------------------------------------ full file system
mkdir "$t/full/out"
dd if=/dev/zero of="$t/full/fill" bs=4096 2>/dev/null
"$RTMEASURE" cyclic --no-rt -l 200 -i 200us -q -o "$t/full/out" >"$t/stdout" 2>"$t/stderr"
rc=$?
[ "$rc" -eq 2 ] || fail "cyclic into a full file system exited $rc, want 2"
grep -q "$fix" "$t/stderr" || fail "no fix in the message: $(cat "$t/stderr")"
grep -q '\.rtm-\|\.tmp\.[0-9]' "$t/stderr" && fail "a temporary name in the message: $(cat "$t/stderr")"
[ "$(leftovers "$t/full")" -eq 0 ] || fail "files left on the full disk: $(find "$t/full" -type f)"
grep -q '^ *all ' "$t/stdout" || fail "the summary of the run that could not be saved is lost"
echo "cyclic, full: $(cat "$t/stderr")"

"$RTMEASURE" export --csv -o "$t/full/x.csv" "$res" 2>"$t/stderr"
rc=$?
[ "$rc" -eq 2 ] && grep -q "$fix" "$t/stderr" || fail "export, full: rc $rc: $(cat "$t/stderr")"
[ "$(leftovers "$t/full")" -eq 0 ] || fail "export left a file on the full disk"
echo "export, full: $(cat "$t/stderr")"

if command -v gnuplot >/dev/null; then
	# room for the data files, not for the images
	rm -f "$t/full/fill"
	dd if=/dev/zero of="$t/full/fill" bs=4096 count=10 2>/dev/null
	"$RTMEASURE" report "$res" -o "$t/full/rep" 2>"$t/stderr"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q "$fix" "$t/stderr" || fail "report, full: rc $rc: $(cat "$t/stderr")"
	for f in $(find "$t/full/rep" -type f); do
		case "$f" in
		*.dat) [ -s "$f" ] || fail "an empty $f left" ;;
		*.gp)	# a plot's script: whole, ending as its template does
			tp=$(sed -n '1s/^# The variables and template \([a-z_]*\.gp\) .*/\1/p' "$f")
			[ -n "$tp" ] && [ "$(tail -n1 "$f")" = "$(tail -n1 "$RTM_SRCDIR/plots/$tp")" ] ||
				fail "a cut script left: $f" ;;
		*.png) head -c 8 "$f" | od -An -c | grep -q 'P   N   G' && \
			tail -c 12 "$f" | od -An -c | grep -q 'I   E   N   D' ||
			fail "a cut PNG left: $f" ;;
		*) fail "a partial file left: $f" ;;
		esac
	done
	find "$t/full" -name '.rtm-*' | grep -q . && fail "a temporary file left"
	echo "report, full: $(cat "$t/stderr")"
fi

# ------------------------------------------------------------ read-only file system
start=$(date +%s)
timeout 60 "$RTMEASURE" cyclic --no-rt -D 1h -q -o "$t/ro/out" >"$t/stdout" 2>"$t/stderr"
rc=$?
[ "$rc" -eq 2 ] && grep -q "$fix" "$t/stderr" && grep -q "read-only" "$t/stderr" ||
	fail "cyclic -D 1h into a read-only folder: rc $rc: $(cat "$t/stderr")"
[ -s "$t/stdout" ] && fail "a summary printed: it measured"
echo "cyclic -D 1h, read-only: $(cat "$t/stderr") (after $(( $(date +%s) - start )) s)"
"$RTMEASURE" export --csv -o "$t/ro/x.csv" "$res" 2>"$t/stderr"
rc=$?
[ "$rc" -eq 2 ] && grep -q "read-only" "$t/stderr" ||
	fail "export, read-only: rc $rc: $(cat "$t/stderr")"

# ------------------------------------------------------------ device nodes of our own
mknod "$t/null" c 1 3 || skip "cannot mknod"
mknod "$t/fulldev" c 1 7
"$RTMEASURE" export --csv -o "$t/null" "$res" 2>"$t/stderr" ||
	fail "export -o a null device: $(cat "$t/stderr")"
[ -c "$t/null" ] || fail "the null device node was replaced"
"$RTMEASURE" export --csv -o "$t/fulldev" "$res" 2>"$t/stderr"
rc=$?
[ "$rc" -eq 2 ] && grep -q "no space" "$t/stderr" || fail "export -o a full device: rc $rc"
[ -c "$t/fulldev" ] || fail "the full device node was replaced by $(stat -c %F "$t/fulldev")"
echo "export -o full device: $(cat "$t/stderr")"
"$RTMEASURE" cyclic --no-rt -l 20 -i 200us -q -o "$t/h" --histfile "$t/null" >/dev/null 2>"$t/stderr" ||
	fail "--histfile a null device: $(cat "$t/stderr")"
[ -c "$t/null" ] || fail "--histfile replaced the device node"
echo "PASS: full, read-only and device-node outputs"
