#!/bin/bash
# Integration: `rtmeasure monitor --io` (root: RT probes) on a loop device (direct I/O to a small
# backing file), never on the root disk as the subject. With --once, a line per operation with
# the storage probe's requests, p99, max, misses and latest miss; the probe's thread on a CPU of
# its own (the timer probe leaves the last CPU to it when -a is not given); with -o, result.json
# holds the timer probe's CPUs and sections.io, its counts those the line showed, and the created
# file is removed. The io command's safety checks refuse in one line with the monitor's option
# names: a tmpfs target, a block device without --io-force-device, a CPU shared with -a, the
# --io-* options without --io. No timing is judged.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
[ "$(nproc)" -ge 2 ] || skip "one CPU: the storage probe needs a CPU of its own"
measure_lock "$@"

w=$(mktemp -d /var/tmp/rtm-monio.XXXXXX)
loop=
cleanup() {
	loop_fs_off "$w"
	rm -rf "$w"
}
trap cleanup EXIT
loop_fs "$w" 64M
dev=${loop#/dev/}
last=$(($(nproc) - 1))

# 1. -a 0 and the probe on CPU 1, against a 1 us deadline: every request misses
"$RTMEASURE" monitor --once -a 0 --io --io-cpu 1 --io-op randread,write --io-interval 5ms \
	--io-deadline 1us --io-file-size 8m -o "$mnt/a" >"$w/a.out" 2>"$w/a.err" ||
	fail "monitor --io exited $?: $(cat "$w/a.err")"
for op in randread write; do
	line=$(grep "^io $op CPU1: " "$w/a.out") || fail "no $op line: $(cat "$w/a.out")"
	n=$(echo "$line" | sed -n 's/.*: \([0-9]*\) requests, .*/\1/p')
	m=$(echo "$line" | sed -n 's/.*, \([0-9]*\) misses over 1[.0]* us, .*/\1/p')
	[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$m" = "$n" ] ||
		fail "$op: $n requests, $m misses of a 1 us deadline: $line"
	echo "$line" | grep -q 'latest miss [0-9.]* [mun]*s: \(issued [0-9.]* [mun]*s late\|service [0-9.]* [mun]*s\)$' ||
		fail "$op: no latest miss: $line"
	# 100 requests at most in the refresh: p99 is "-" by rtm_pct_defined()
	echo "$line" | grep -q ', p99 -, max [0-9.]* [mun]*s, ' || fail "$op: p99 or max: $line"
done
res=$mnt/a/result.json
jq -e '[.cpus[].cpu] == [0]' "$res" >/dev/null || fail "the timer probe measured $(jq -c \
	'[.cpus[].cpu]' "$res"), not CPU 0 alone"
jq -e --arg d "$dev" '.sections.io | .ops.randread and .ops.write and .requests > 0 and
	.misses == .requests and .target.kind == "created file" and .target.disk == $d' "$res" \
	>/dev/null || fail "sections.io: $(jq -c '.sections.io | {requests, misses, target}' "$res")"
ls "$mnt/a" | grep -q '^rtmeasure-io-' && fail "the created file was left: $(ls "$mnt/a")"
echo "ok: a line per operation, sections.io, the created file removed"

# 2. no -a: the timer probe leaves the storage probe's CPU (the last one) to it
"$RTMEASURE" monitor --once --io --io-target "$mnt" --io-file-size 8m >"$w/b.out" \
	2>"$w/b.err" || fail "monitor --io exited $?: $(cat "$w/b.err")"
grep -q "^io randread CPU$last: [0-9]* requests" "$w/b.out" ||
	fail "no randread line on CPU $last: $(cat "$w/b.out")"
awk -v c="$last" '$1 == c { exit 1 }' "$w/b.out" ||
	fail "the timer probe measured CPU $last too: $(cat "$w/b.out")"
ls "$mnt" | grep -q '^rtmeasure-io-' && fail "the created file was left in $mnt"
echo "ok: the timer probe leaves CPU $last to the storage probe"

# 3. refusals: one line, exit 2, the monitor's option names
refused() {	# PATTERN ARGS...
	local pat=$1
	shift
	"$RTMEASURE" monitor --once "$@" >"$w/r.out" 2>"$w/r.err"
	local rc=$?
	grep -v ' warning: ' "$w/r.err" >"$w/r.msg"
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$w/r.msg")" -eq 1 ] && grep -q -- "$pat" "$w/r.msg" ||
		fail "monitor $*: exit $rc, $(cat "$w/r.err")"
	echo "ok: monitor $* refused: $(cat "$w/r.msg")"
}
if mountpoint -q /dev/shm; then
	refused "/dev/shm is on tmpfs.*give --io-target on a disk file system" --io \
		--io-target /dev/shm
fi
refused "is a block device: give --io-force-device" --io --io-target "$loop"
refused "io-cpu 0 is one of -a 0" --io -a 0 --io-cpu 0 --io-target "$mnt"
refused "the --io-\* options go with --io" --io-op read
refused "give --io-target DIR" --io
