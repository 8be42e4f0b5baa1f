# tests/lib.sh - helpers for shell tests (sourced).
#
# TAP helpers for *.t scripts: ok/not ok lines, a plan at the end, non-zero exit
# on any failure. Integration *.sh scripts use skip() to exit 77 with a reason, fail() to exit 1.

: "${RTMEASURE:?RTMEASURE must name the built rtmeasure binary (make check sets it)}"
: "${RTM_TESTDATA:?RTM_TESTDATA must name tests/data (make check sets it)}"

tap_n=0
tap_fail=0

ok() {	# ok CONDITION-EXIT-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_fail=$((tap_fail + 1))
	fi
}

# run_cmd: run rtmeasure, capture stdout/stderr/status in $out, $err, $rc
run_cmd() {
	local o e
	o=$(mktemp) e=$(mktemp)
	"$RTMEASURE" "$@" >"$o" 2>"$e" </dev/null
	rc=$?
	out=$(cat "$o")
	err=$(cat "$e")
	rm -f "$o" "$e"
}

# expect_usage_error DESCRIPTION ARGS...: exit 2, exactly one stderr line
# starting "rtmeasure: ", nothing on stdout
expect_usage_error() {
	local desc=$1
	shift
	run_cmd "$@"
	local lines
	lines=$(printf '%s\n' "$err" | grep -c .)
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ -z "$out" ] &&
	   [ "${err#rtmeasure: }" != "$err" ]; then
		ok 0 "$desc (exit 2: $err)"
	else
		ok 1 "$desc (rc=$rc, stderr lines=$lines: $err)"
	fi
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_fail" -eq 0 ]
	exit $?
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# fail: an integration script's failure, with its reason
fail() {
	echo "FAIL: $*"
	exit 1
}

need_root() {
	[ -z "${RTM_SKIP_INTEGRATION:-}" ] ||
		skip "integration tests skipped (RTM_SKIP_INTEGRATION is set, e.g. in distcheck)"
	[ "$(id -u)" -eq 0 ] || skip "needs root (run make check as root)"
}

# need_tracefs: tracefs at /sys/kernel/tracing (mounted if it is not), with instances
need_tracefs() {
	mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		skip "cannot mount tracefs at /sys/kernel/tracing"
	[ -d /sys/kernel/tracing/instances ] || skip "this kernel's tracefs has no instances"
}

# need_jq: jq, which the checks of result.json use
need_jq() {
	command -v jq >/dev/null || skip "jq not installed (scripts/setup installs it)"
}
