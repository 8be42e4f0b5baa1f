#!/bin/bash
# Integration: two rtmeasure runs on the same CPU (root, real RT threads).
#  - the later run warns on stderr that the CPU is measured by another
#    rtmeasure (naming its pid), goes on, and records sections.shared_cpus
#  - the first run notices the later one while measuring: a warning, the
#    summary's note and sections.shared_cpus in its result
#  - --exclusive refuses a CPU another run measures (exit 2, one line), and a
#    run started with --exclusive makes a later run refuse too
# A lock directory of its own keeps other tests' runs out of it.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
measure_lock "$@"

out=$(mktemp -d)
export RTMEASURE_LOCK_DIR="$out/locks"
trap 'kill -9 $first 2>/dev/null; rm -rf "$out"' EXIT

# wait until a run holds CPU 0's lock (it wrote its pid into the lock file)
wait_holder() {
	local i
	for i in $(seq 3000); do	# a bound: a sanitizer build on a loaded box is slow
		[ "$(cut -d' ' -f1 "$RTMEASURE_LOCK_DIR/cpu0.lock" 2>/dev/null)" = "$1" ] && return 0
		sleep 0.1
	done
	fail "run $1 never took CPU 0's lock"
}

"$RTMEASURE" cyclic -a 0 -q -o "$out/a" >"$out/a.out" 2>"$out/a.err" &
first=$!
wait_holder $first
"$RTMEASURE" cyclic -a 0 -D 1s -q -o "$out/b" >"$out/b.out" 2>"$out/b.err" ||
	fail "second run exited $? ($(cat "$out/b.err"))"
grep -q "warning: CPU 0 is measured by another rtmeasure (pid $first) too" "$out/b.err" ||
	fail "second run did not warn: $(cat "$out/b.err")"
jq -e ".sections.shared_cpus == {\"cpus\": \"0\", \"other_pid\": $first}" \
	"$out/b/result.json" >/dev/null ||
	fail "second run: shared_cpus $(jq -c .sections.shared_cpus "$out/b/result.json")"
grep -q '^note: another rtmeasure measured CPU 0 during this run' "$out/b.out" ||
	fail "second run's summary has no note"

expect_refused() {	# DESCRIPTION ARGS...
	local desc=$1
	shift
	"$RTMEASURE" cyclic -a 0 -D 1s -q "$@" -o "$out/x" >"$out/x.out" 2>"$out/x.err"
	local rc=$?
	[ $rc -eq 2 ] && [ "$(grep -c . "$out/x.err")" -eq 1 ] && [ ! -e "$out/x" ] ||
		fail "$desc: exit $rc, want 2 and one line: $(cat "$out/x.err")"
	grep -q "CPU 0 is measured by another rtmeasure (pid $first)" "$out/x.err" ||
		fail "$desc: message $(cat "$out/x.err")"
	echo "$desc: $(cat "$out/x.err")"
}
expect_refused "--exclusive beside a running run" --exclusive

kill -INT $first
wait $first
rc=$?
[ $rc -eq 130 ] || fail "first run: exit $rc after SIGINT, want 130 ($(cat "$out/a.err"))"
grep -q 'warning: another rtmeasure started measuring CPU 0 at' "$out/a.err" ||
	fail "first run did not notice the second: $(cat "$out/a.err")"
jq -e '.sections.shared_cpus.cpus == "0"' "$out/a/result.json" >/dev/null ||
	fail "first run: shared_cpus $(jq -c .sections.shared_cpus "$out/a/result.json")"
grep -q '^note: another rtmeasure measured CPU 0 during this run' "$out/a.out" ||
	fail "first run's summary has no note"

# an --exclusive holder: a later run without --exclusive is refused as well
"$RTMEASURE" cyclic -a 0 --exclusive -q -o "$out/e" >/dev/null 2>"$out/e.err" &
first=$!
wait_holder $first
"$RTMEASURE" cyclic -a 0 -D 1s -q -o "$out/x" >/dev/null 2>"$out/x.err"
rc=$?
[ $rc -eq 2 ] && grep -q "pid $first) started with --exclusive" "$out/x.err" ||
	fail "beside an --exclusive run: exit $rc: $(cat "$out/x.err")"
kill -TERM $first
wait $first
rc=$?
[ $rc -eq 143 ] || fail "--exclusive run: exit $rc after SIGTERM, want 143"
jq -e '.sections.shared_cpus == null' "$out/e/result.json" >/dev/null ||
	fail "the refused run counted as shared"
echo "PASS: shared CPUs warned about on both sides and recorded; --exclusive refuses"
