#!/bin/bash
# Command-level tests of the kernel tracers' settings journal: a measuring
# command starts by putting back what a killed rtmeasure changed (its journal
# in the lock directory, here a private one). A journal it cannot apply is one
# warning line naming it; a live run's is left alone; nothing is said when no
# journal waits. The restore itself is test_ktjournal's (a fake tracefs tree)
# and noise_backend.sh's (a kernel with hwlat).
. "$RTM_SRCDIR/tests/lib.sh"
measure_lock "$@"

d=$(mktemp -d)
holder=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$d"' EXIT
export RTMEASURE_LOCK_DIR="$d/locks"
mkdir -m 700 "$RTMEASURE_LOCK_DIR"
T=/sys/kernel/tracing

measure() {	# measure NAME: a short measuring run
	run_cmd cyclic --no-rt -l 20 -i 200us -a 0 -q -o "$d/$1"
}

measure quiet
[ $rc -eq 0 ] && ! echo "$err" | grep -q 'journal\|killed rtmeasure'
ok $? "no journal: nothing said ($err)"

# a killed run's journal cut short (killed while written, or damaged)
j="$RTMEASURE_LOCK_DIR/ktracer-4242-00000000000000aa.journal"
printf '{"tracer": "hwlat", "tracefs": "%s", "fi' "$T" >"$j"
chmod 600 "$j"
measure cut
lines=$(printf '%s\n' "$err" | grep -c 'rtmeasure: warning: .*ktracer-4242')
if [ -r "$T/trace" ]; then
	[ $rc -eq 0 ] && [ "$lines" -eq 1 ] && [ ! -e "$j" ] &&
		echo "$err" | grep -q "ignored the journal $j a killed rtmeasure left: not JSON.*(removed)"
	ok $? "a corrupt journal: one warning naming it, removed, the run goes on ($err)"
else
	[ $rc -eq 0 ] && [ "$lines" -eq 0 ] &&
		echo "$err" | grep -q "warning: cannot restore the kernel tracer settings a killed"
	ok $? "a corrupt journal without tracefs: one warning, the run goes on ($err)"
	rm -f "$j"
fi

# a live run's journal: its lock is held, it is nobody's business
printf '{}' >"$j"
chmod 600 "$j"
( exec 9<"$j"; flock 9; exec sleep 60 ) & holder=$!
for _ in $(seq 50); do flock -n "$j" true || break; sleep 0.1; done
measure live
[ $rc -eq 0 ] && [ -e "$j" ] && ! echo "$err" | grep -q 'journal\|killed rtmeasure'
ok $? "a live run's journal: left, nothing said ($err)"
kill "$holder"
wait "$holder" 2>/dev/null
holder=
rm -f "$j"

# the tracer gone (another kernel booted with /run kept): removed with a warning
if [ -r "$T/available_tracers" ] && ! grep -qw hwlat "$T/available_tracers"; then
	printf '{"tracer": "hwlat", "tracefs": "%s", "pid": 4242, "files": {"tracing_thresh": "0",
	 "hwlat_detector/width": "500000", "hwlat_detector/window": "1000000",
	 "hwlat_detector/mode": "round-robin"}}' "$T" >"$j"
	chmod 600 "$j"
	measure gone
	[ $rc -eq 0 ] && [ ! -e "$j" ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] &&
		echo "$err" | grep -q "cannot restore the hwlat settings a killed rtmeasure changed: this kernel has no hwlat tracer (journal $j removed)"
	ok $? "a kernel without the tracer: one warning, journal removed ($err)"
fi
done_testing
