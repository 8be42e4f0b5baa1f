#!/bin/bash
# Command-level tests of rtmeasure: help, version, bad input, sysinfo on recorded trees.
. "$RTM_SRCDIR/tests/lib.sh"

run_cmd --help
ok $(( rc != 0 )) "--help exits 0"
echo "$out" | grep -q '^  sysinfo ' ; ok $? "--help lists sysinfo"
run_cmd --version
echo "$out" | grep -Eq '^rtmeasure [0-9]+\.[0-9]+\.[0-9]+$'; ok $? "--version prints the version"
run_cmd sysinfo --help
ok $(( rc != 0 )) "sysinfo --help exits 0"
run_cmd help sysinfo
echo "$out" | grep -q 'usage: rtmeasure sysinfo'; ok $? "help sysinfo shows its usage"

run_cmd
ok $(( rc != 2 )) "no command: exit 2"
expect_usage_error "unknown command" frobnicate
expect_usage_error "unknown option" sysinfo --frobnicate
expect_usage_error "missing option argument" sysinfo --root
expect_usage_error "stray argument" sysinfo extra
expect_usage_error "missing root directory" sysinfo --root /nonexistent/rtmeasure-root
empty=$(mktemp -d)
expect_usage_error "empty root directory" sysinfo --root "$empty"
rmdir "$empty"

for tree in "$RTM_TESTDATA"/sysroot-*/; do
	name=$(basename "$tree")
	run_cmd sysinfo --root "$tree" --json
	ok $(( rc != 0 )) "$name: sysinfo --json exits 0"
	echo "$out" | jq -e '.schema == "rtmeasure-sysinfo/1" and (.checks | length) > 5' \
		>/dev/null; ok $? "$name: JSON parses with jq and has checks"
	run_cmd sysinfo --root "$tree"
	echo "$out" | grep -q 'RT-readiness checklist'; ok $? "$name: human checklist"
	printf '%s' "$out" | grep -q $'\033'; ok $(( $? == 0 )) "$name: no escape codes when not a tty"
done

# a user tracefs is closed to (mode 0700 /sys/kernel/tracing, the default) is told to
# run as root, not to mount what is mounted; run as nobody when root, as CI does
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"; }
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
   [ -r /sys/kernel/tracing/available_tracers ] &&
   ! nobody test -r /sys/kernel/tracing/available_tracers; then
	line=$(nobody "$RTMEASURE" sysinfo --json |
		jq -r '.checks[] | select(.id == "tracefs") | .message')
	echo "$line" | grep -q 'at /sys/kernel/tracing is readable by root only: run as root' &&
		! echo "$line" | grep -q 'mount'
	ok $? "sysinfo as nobody: tracefs readable by root only, no mount advice ($line)"
fi
# the tracers line: which options measure with the kernel's tracers, or what would add them
run_cmd sysinfo --root "$RTM_TESTDATA/sysroot-rt-6.1" --json
echo "$out" | jq -e '.checks[] | select(.id == "tracers") | .level == "ok" and
	(.message | test("noise --backend hwlat\\|osnoise and cyclic/run --backend timerlat"))' \
	>/dev/null
ok $? "sysroot-rt-6.1: the tracers line names the options that use them"
run_cmd sysinfo --root "$RTM_TESTDATA/sysroot-vm-6.18" --json
echo "$out" | jq -e '.checks[] | select(.id == "tracers") | .level == "info" and
	(.message | test("userspace probes.*CONFIG_HWLAT_TRACER, CONFIG_OSNOISE_TRACER and " +
			 "CONFIG_TIMERLAT_TRACER would add")) and (.message | test("yet|rtla") | not)' \
	>/dev/null
ok $? "sysroot-vm-6.18: the tracers line names the configs that would add them"

done_testing
