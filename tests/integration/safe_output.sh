#!/bin/bash
# Integration (root): outputs on a full tmpfs, a read-only tmpfs and device
# nodes made with mknod in a folder of our own (never the real /dev/null or
# /dev/full): the message names the fix, no partial or temporary file is left,
# a device node is written in place and never replaced; a disk that fills up
# during a run loses no result (kept, saved elsewhere, or on stdout with --json).
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
mkdir "$t/full" "$t/ro" "$t/rescue"
# a rescued result lands in $TMPDIR: the test's own folder, removed at the end
export TMPDIR="$t/rescue"
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
	# all or nothing: no plot or data file without its page
	[ -z "$(find "$t/full/rep" ! -type d 2>/dev/null)" ] ||
		fail "report, full: a part of the report left: $(find "$t/full/rep" ! -type d)"
	grep -q '\.rtm-' "$t/stderr" && fail "report, full: a staging name in the message"
	echo "report, full: $(cat "$t/stderr")"
	"$RTMEASURE" compare "$res" "$res" -o "$t/full/cmp" >/dev/null 2>"$t/stderr"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q "$fix" "$t/stderr" ||
		fail "compare, full: rc $rc: $(cat "$t/stderr")"
	[ -z "$(find "$t/full/cmp" ! -type d 2>/dev/null)" ] ||
		fail "compare, full: a part of the pages left: $(find "$t/full/cmp" ! -type d)"
	find "$t/full" -name '.rtm-*' | grep -q . && fail "a temporary file or stage left"
	echo "compare, full: $(cat "$t/stderr")"
fi

# ------------------------------------------------------------ the disk fills during a run
# a 2 s run whose results folder fills up 0.7 s in: exit 2, the space needed
# named, the result saved in a rescue folder in $TMPDIR (or --fallback-dir),
# the summary printed, no empty results folder left
fill_soon() {
	rm -f "$t/full/fill"
	(sleep 0.7; dd if=/dev/zero of="$t/full/fill" bs=4096 2>/dev/null) &
	filler=$!
}
for args in "cyclic --no-rt -D 2s -q" "run --no-rt --no-report -D 2s -q" \
	"noise --no-rt --no-trace -D 2s -q"; do
	name=${args%% *}
	rm -rf "${t:?}/rescue/"*
	fill_soon
	# shellcheck disable=SC2086
	"$RTMEASURE" $args -o "$t/full/$name" >"$t/stdout" 2>"$t/stderr"
	rc=$?
	wait "$filler"
	[ "$rc" -eq 2 ] || fail "$name, disk full at the end: exit $rc, want 2: $(cat "$t/stderr")"
	grep -q "no space left" "$t/stderr" || fail "$name: no reason given: $(cat "$t/stderr")"
	saved=$(ls -d "$t/rescue"/rtmeasure-rescue-* 2>/dev/null)
	[ -n "$saved" ] && grep -q "results need [0-9]* KiB: saved in $saved/" "$t/stderr" ||
		fail "$name: the result was not rescued: $(cat "$t/stderr")"
	"$RTMEASURE" export --csv "$saved" >/dev/null ||
		fail "$name: the rescued result does not load"
	grep -q "^results: $saved/" "$t/stdout" && [ "$(grep -c . "$t/stdout")" -gt 2 ] ||
		fail "$name: no summary or results line: $(cat "$t/stdout")"
	[ ! -e "$t/full/$name" ] || fail "$name: an empty results folder left"
	echo "$name, disk full at the end: $(tr '\n' ' ' <"$t/stderr")"
done
rm -rf "${t:?}/rescue/"*
fill_soon
timeout 60 "$RTMEASURE" monitor --no-rt -D 2s -o "$t/full/mon" </dev/null >/dev/null 2>"$t/stderr"
rc=$?
wait "$filler"
saved=$(ls -d "$t/rescue"/rtmeasure-rescue-* 2>/dev/null)
[ "$rc" -eq 2 ] && [ -n "$saved" ] && grep -q "results need [0-9]* KiB: saved in $saved/" \
	"$t/stderr" && "$RTMEASURE" export --csv "$saved" >/dev/null ||
	fail "monitor, disk full at the end: rc $rc: $(tail -3 "$t/stderr")"
[ ! -e "$t/full/mon" ] || fail "monitor: an empty results folder left"
echo "monitor, disk full at the end: $(tail -1 "$t/stderr")"
fill_soon
"$RTMEASURE" cyclic --no-rt -D 2s -q -o "$t/full/c2" --fallback-dir "$t/fb" >"$t/stdout" \
	2>"$t/stderr"
rc=$?
wait "$filler"
[ "$rc" -eq 2 ] && [ -s "$t/fb/result.json" ] && [ -s "$t/fb/histogram.txt" ] &&
	grep -q "saved in $t/fb/ instead" "$t/stderr" ||
	fail "--fallback-dir: rc $rc: $(cat "$t/stderr")"
# nowhere to save it: --json carries the whole result on stdout
fill_soon
TMPDIR="$t/full" "$RTMEASURE" cyclic --no-rt -D 2s --json -o "$t/full/c3" \
	--fallback-dir "$t/full/fb3" >"$t/stdout" 2>"$t/stderr"
rc=$?
wait "$filler"
[ "$rc" -eq 2 ] && grep -q "could not be saved anywhere" "$t/stderr" &&
	jq -e '.result_dir == null and .result.schema == "rtmeasure-result/1"' "$t/stdout" \
	>/dev/null || fail "--json with nowhere to save: rc $rc: $(cat "$t/stderr")"
jq .result "$t/stdout" >"$t/rescued.json"
"$RTMEASURE" export --csv "$t/rescued.json" >/dev/null || fail "--json's .result does not load"
[ ! -e "$t/full/fb3" ] || fail "an empty --fallback-dir left"
echo "--json, nowhere to save: $(tr '\n' ' ' <"$t/stderr")"
rm -f "$t/full/fill"

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
