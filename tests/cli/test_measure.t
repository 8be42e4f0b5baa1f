#!/bin/bash
# Command-level tests of cyclic and run: bad options and values give one line
# and exit 2 before anything is measured; --help works; --no-rt measures
# without privileges.
. "$RTM_SRCDIR/tests/lib.sh"
measure_lock "$@"

for cmd in cyclic run; do
	run_cmd $cmd --help
	ok $(( rc != 0 )) "$cmd --help exits 0"
	echo "$out" | grep -q -- '--fail-above'; ok $? "$cmd --help documents --fail-above"
	expect_usage_error "$cmd: bad duration" $cmd -D 5x
	expect_usage_error "$cmd: zero duration" $cmd -D 0
	expect_usage_error "$cmd: bad interval" $cmd -i fast
	expect_usage_error "$cmd: interval too short" $cmd -i 1us
	expect_usage_error "$cmd: bad CPU list" $cmd -a 3-1
	expect_usage_error "$cmd: CPU that does not exist" $cmd -a 4000 -D 1s
	expect_usage_error "$cmd: priority out of range" $cmd -p 120
	expect_usage_error "$cmd: bad policy" $cmd --policy fast
	expect_usage_error "$cmd: bad mode" $cmd --mode poll
	expect_usage_error "$cmd: bad breaktrace" $cmd -b soon
	expect_usage_error "$cmd: bad fail-above" $cmd --fail-above p200=5us
	expect_usage_error "$cmd: bad fail-above latency" $cmd --fail-above p99=fast
	expect_usage_error "$cmd: bad loops" $cmd -l -5
	expect_usage_error "$cmd: bad histogram rows" $cmd -h 0
	expect_usage_error "$cmd: unknown option" $cmd --frobnicate
	expect_usage_error "$cmd: stray argument" $cmd extra
	expect_usage_error "$cmd: --trace without a threshold" $cmd --trace -D 1s
	expect_usage_error "$cmd: zero capture threshold" $cmd --capture-above 0
	expect_usage_error "$cmd: bad capture threshold" $cmd --capture-above soon
	expect_usage_error "$cmd: bad backend" $cmd --backend kernel
	# refused before the kernel is asked: the same on every kernel
	expect_usage_error "$cmd: timerlat with --mode" $cmd --backend timerlat --mode timerfd -D 1s
	expect_usage_error "$cmd: timerlat with -b" $cmd --backend timerlat -b 1ms -D 1s
	if ! grep -qw timerlat /sys/kernel/tracing/available_tracers 2>/dev/null &&
	   [ "$(id -u)" -eq 0 ] && [ -w /sys/kernel/tracing ]; then
		expect_usage_error "$cmd: no timerlat tracer" $cmd --backend timerlat -D 1s
		echo "$err" | grep -q 'CONFIG_TIMERLAT_TRACER.*--backend timer'
		ok $? "$cmd: the kernel option and --backend timer named"
	fi
	expect_usage_error "$cmd: zero max captures" $cmd --capture-above 1ms --max-captures 0
	expect_usage_error "$cmd: bad capture hold-off" $cmd --capture-above 1ms --capture-holdoff x
	expect_usage_error "$cmd: hold-off shorter than the window" \
		$cmd --capture-above 1ms --capture-holdoff 10us -D 1s
	expect_usage_error "$cmd: trace filter without an expression" $cmd -b 1ms \
		--trace-filter irq:irq_handler_entry
	expect_usage_error "$cmd: too many trace filters" $cmd -b 1ms \
		$(for i in 1 2 3 4 5 6 7 8 9; do echo --trace-filter irq:irq_handler_entry:irq!=$i; done)
	# --rt-hold (RT tasks holding a CPU): a duration of 1ms or more, or 0
	expect_usage_error "$cmd: bad --rt-hold" $cmd --rt-hold soon
	expect_usage_error "$cmd: negative --rt-hold" $cmd --rt-hold -5ms
	expect_usage_error "$cmd: --rt-hold below 1ms" $cmd --rt-hold 500us
	run_cmd $cmd --help
	echo "$out" | grep -q -- '--rt-hold BOUND'; ok $? "$cmd --help documents --rt-hold"
	# --timer-irq (the timer IRQ part of each wake-up): alone, 1/on or 0/off
	expect_usage_error "$cmd: bad --timer-irq" $cmd --timer-irq=soon
	expect_usage_error "$cmd: --timer-irq with timerfd" $cmd --timer-irq --mode timerfd -D 1s
	expect_usage_error "$cmd: --timer-irq with signals" $cmd --timer-irq on -x -D 1s
	run_cmd $cmd --help
	echo "$out" | grep -q -- '--timer-irq \[0|off\]'; ok $? "$cmd --help documents --timer-irq"
	# --bpf (the timer IRQ split in BPF): refused with what streams the same, before loading
	expect_usage_error "$cmd: bad --bpf" $cmd --bpf=soon
	expect_usage_error "$cmd: --bpf with --trace" $cmd --bpf --trace -b 1ms -D 1s
	echo "$err" | grep -q -- '--bpf: --trace.*give one of them'
	ok $? "$cmd: --bpf with --trace names both ($err)"
	expect_usage_error "$cmd: --bpf with --timer-irq" $cmd --bpf --timer-irq -D 1s
	expect_usage_error "$cmd: --bpf with timerfd" $cmd --bpf --mode timerfd -D 1s
	expect_usage_error "$cmd: --bpf with timerlat" $cmd --bpf --backend timerlat -D 1s
	run_cmd $cmd --help
	echo "$out" | grep -q -- '--bpf \[0|off\]'; ok $? "$cmd --help documents --bpf"
	# not root or no BPF in this build: one line naming it and the fix, nothing made
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
		bd=$(mktemp -d)
		chmod 1777 "$bd"
		err=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			"$RTMEASURE" $cmd --bpf -D 1s -o "$bd/new" 2>&1 >/dev/null)
		rc=$?
		[ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] &&
			echo "$err" | grep -qE -- '--bpf: .*(needs root|built without BPF|--disable-bpf)'
		ok $? "$cmd --bpf not root: exit 2, one line naming root or the build ($err)"
		[ ! -e "$bd/new" ]; ok $? "$cmd --bpf not root: no results folder"
		rm -rf "$bd"
	fi
done
expect_usage_error "monitor: --bpf" monitor --bpf
expect_usage_error "monitor: --rt-hold below 1ms" monitor --rt-hold 10us
expect_usage_error "run: bad load" run --load dishes

# ---- cyclictest's options (rtmeasure-cyclic(1), COMPATIBILITY)
d=$(mktemp -d)
ncpu=$(getconf _NPROCESSORS_ONLN)
# measure: --no-rt, short; $1 names the folder, the rest are the options under test
measure() {
	local name=$1
	shift
	run_cmd cyclic --no-rt -l 20 -i 200us -o "$d/$name" "$@"
}
n=0
for args in "-t" "-t 1" "-t1" "--threads=1" "-S" "-n" "-x" "-c 0" "-m" "-N" "-u" "-q" "-h 50" \
	"-H 50" "--histofall=50" "--histfile $d/hf.txt" "--json=$d/js.json" "--latency 0" \
	"--laptop" "--default-system" "--mainaffinity 0" "--housekeeping 0" "--spike 1ms" \
	"--spike-nodes 5" "--policy normal" "--priority 80" "--prio 80" "-p 80" "-d 10us" \
	"--deepest-idle-state=-1" "-a" "-a 0" "-a0" "--affinity=0" "-D 10s" "-mSp90" "-Sm" \
	"-qmnS"; do
	n=$((n + 1))
	measure "ok$n" $args
	ok $rc "cyclic $args is taken ($err)"
done
# a lock directory that cannot be used: a warning and the run goes on; --exclusive refuses
: >"$d/lockfile"
RTMEASURE_LOCK_DIR="$d/lockfile" run_cmd cyclic --no-rt -l 20 -i 200us -a 0 -q -o "$d/nolock"
[ $rc -eq 0 ] && echo "$err" | grep -q "warning: cannot tell whether another rtmeasure.*not a directory"
ok $? "unusable lock directory: measured with a warning ($err)"
RTMEASURE_LOCK_DIR="$d/lockfile" expect_usage_error "unusable lock directory: --exclusive refuses" \
	cyclic --no-rt -l 20 -i 200us -a 0 -q --exclusive -o "$d/nolockx"
measure t1 -t 1 -q
jq -e '.options.cpus == "0"' "$d/t1/result.json" >/dev/null; ok $? "-t 1: the first CPU"
measure t4 -t 4 -q
if [ "$ncpu" -ge 4 ]; then [ $rc -eq 0 ]; else [ $rc -eq 2 ]; fi
ok $? "-t 4 ($ncpu CPUs): refused unless there are 4 ($err)"
measure x -x -q
jq -e '.options.mode == "signal"' "$d/x/result.json" >/dev/null; ok $? "-x: POSIX timers (signal)"
measure hk --mainaffinity 0 --spike 2ms --spike-nodes 7 --deepest-idle-state -1 -q
jq -e '.options.housekeeping == "0" and .options.log_above_ns == 2000000 and
	.options.deepest_idle_state == -1' "$d/hk/result.json" >/dev/null
ok $? "--mainaffinity, --spike, --deepest-idle-state are recorded"
measure ns -a 0 -N
echo "$out" | grep -q '^(latencies in ns)$'; ok $? "-N: the table in ns"
# a group whose last option takes the value: -p is parsed (120 is refused as -p's)
expect_usage_error "-mSp120: -p inside a group" cyclic -mSp120
run_cmd cyclic -mSp120
echo "$err" | grep -q -- "-p/--priority '120'"; ok $? "the group's -p is named ($err)"

# --histfile and --json=FILE: files besides the results folder, the table stays on stdout
measure files -a 0 --histfile "$d/h.txt" --json="$d/s.json" -h 100
ok $rc "--histfile and --json=FILE ($err)"
cmp -s "$d/h.txt" "$d/files/histogram.txt"; ok $? "--histfile holds histogram.txt's text"
[ "$(grep -c '^0[0-9]\{5\} ' "$d/h.txt")" = 100 ]; ok $? "-h 100: 100 rows"
# cyclictest's --json=FILE: rt-tests' layout (its keys), not rtmeasure's summary
jq -e --arg cmd "rtmeasure cyclic --no-rt -l 20 -i 200us -o $d/files -a 0" '
	.file_version == 1 and (."cmdline:" | startswith($cmd)) and .num_threads == 1 and
	.thread["0"].cycles == 20 and ([.thread["0"].histogram[]] | add) == 20 and
	.thread["0"].cpu == 0 and (.thread["0"] | has("min") and has("max") and has("avg") and
	has("node")) and (has("rt_test_version:") | not) and (has("all") | not)' \
	"$d/s.json" >/dev/null
ok $? "--json=FILE: cyclictest's JSON layout, not the summary"
echo "$out" | grep -q '^results: '; ok $? "--json=FILE: the table still on stdout"
run_cmd import -q -o "$d/imp" "$d/h.txt"
ok $rc "the --histfile file imports ($err)"
if [ "$ncpu" -ge 2 ]; then
	measure all -a 0-1 -H 60
	row=$(grep -m1 '^000' "$d/all/histogram.txt" | awk '{ print NF }')
	tot=$(grep '^# Total:' "$d/all/histogram.txt" | awk '{ print NF }')
	[ "$row" = 4 ] && [ "$tot" = 5 ]; ok $? "-H: a column for all CPUs (row $row, total $tot fields)"
	run_cmd import -q -o "$d/impall" "$d/all/histogram.txt"
	ok $rc "the -H file imports ($err)"
fi
expect_usage_error "--histfile in a missing folder" cyclic --no-rt -l 5 --histfile /nonexistent/h.txt
expect_usage_error "--json=FILE in a missing folder" cyclic --no-rt -l 5 --json=/nonexistent/s.json

# refused cyclictest options: one line naming the option and the reason
for args in "-A 10" "-F /tmp/fifo" "-M" "-r" "-R" "-s" "-v" "--oscope=2" "--priospread" \
	"--secaligned" "--smi" "--tracemark" "--dbg_cyclictest" "--verbose" "--relative"; do
	expect_usage_error "cyclic $args is refused" cyclic $args
	opt=${args%% *}
	opt=${opt%%=*}
	echo "$err" | grep -q -- "$opt.* (cyclictest) is not taken: ..*"
	ok $? "the message names $opt and the reason"
done
# -A's reason says what the probe does: its threads already start aligned (as -A 0)
expect_usage_error "cyclic -A 0 is refused" cyclic -A 0
echo "$err" | grep -q 'already start aligned on one time base, as with -A 0'
ok $? "-A's reason: the threads already start aligned ($err)"
expect_usage_error "-c 1 (CLOCK_REALTIME)" cyclic -c 1
expect_usage_error "-t 9999: more threads than CPUs" cyclic -t 9999
if [ ! -d /sys/devices/system/cpu/cpu0/cpuidle ]; then
	expect_usage_error "--deepest-idle-state 0 without cpuidle" cyclic --deepest-idle-state 0
fi
expect_usage_error "--housekeeping on a CPU that is not online" cyclic --housekeeping 4000 -l 5

# errors name the option itself, also inside a group (not the word 'cyclic')
chk_msg() {	# chk_msg DESCRIPTION EXPECTED-TEXT ARGS...
	local desc=$1 want=$2
	shift 2
	expect_usage_error "$desc" "$@"
	echo "$err" | grep -qF -- "$want"; ok $? "$desc: says '$want'"
}
chk_msg "unknown option in a group" "unknown option -w" cyclic -mSw
chk_msg "unknown option in the middle of a group" "unknown option -w" cyclic -q -mwS
chk_msg "missing value" "option -p needs a value" cyclic -q -p
chk_msg "missing value, long" "option --interval needs a value" cyclic -q --interval
chk_msg "value given to a flag" "option --quiet takes no value" cyclic --quiet=1
chk_msg "ambiguous abbreviation" "option --pri is ambiguous" cyclic --pri 3
chk_msg "-h is never help" "unknown option -h" sysinfo -h
chk_msg "-h is never help (analyze)" "unknown option -h" analyze -h
chk_msg "-h is never help (export)" "unknown option -h" export -h
chk_msg "-h is never help (import)" "unknown option -h" import -h
chk_msg "rtmeasure -h" "help is rtmeasure --help" -h

# --fail-above names the metric, where it was checked and the worst CPU
measure fail -a 0 -q --fail-above p50=1ns
[ $rc -eq 1 ]; ok $? "--fail-above exceeded: exit 1 ($rc)"
echo "$err" | grep -q '^rtmeasure: --fail-above p50=1ns exceeded: p50 on CPU 0: .* > 1 ns$'
ok $? "the message names the metric and the CPU ($err)"
# a percentile the table shows as "-" (20 samples, p99.9 needs 10000) decides nothing
measure failfew -a 0 -q --fail-above p99.9=1ns
[ $rc -eq 2 ] && [ -f "$d/failfew/result.json" ] &&
	[ "$err" = "rtmeasure: --fail-above p99.9=1ns not checked: p99.9 needs 10000 samples, the run has 20 (measure longer: -D or -l)" ]
ok $? "--fail-above on a percentile too few samples define: exit 2, not checked, result kept ($rc: $err)"

# progress when stdout is not a terminal: a line per period on stderr (not with -q or --json)
RTMEASURE_PROGRESS_PERIOD_S=1 "$RTMEASURE" cyclic --no-rt -a 0 -D 3500ms -o "$d/prog" \
	>"$d/prog.out" 2>"$d/prog.err"
ok $? "a run with stdout in a file"
n=$(grep -c '^rtmeasure cyclic: [0-9]* / 4 s, worst [0-9.]* [mun]*s (CPU 0)$' "$d/prog.err")
[ "$n" -ge 2 ] && [ "$n" -le 4 ]; ok $? "progress: $n lines in 3.5 s at 1 s ($(head -c 300 "$d/prog.err"))"
RTMEASURE_PROGRESS_PERIOD_S=1 "$RTMEASURE" cyclic --no-rt -a 0 -D 1500ms -q -o "$d/progq" \
	>/dev/null 2>"$d/progq.err"
# (another rtmeasure measuring CPU 0 beside the tests adds a warning: not progress)
! grep -v 'another rtmeasure' "$d/progq.err" | grep -q .; ok $? "no progress with -q"
rm -rf "$d"

# unprivileged: a clear message naming the capability, or --no-rt works
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RTMEASURE" cyclic -D 1s -q -o /tmp/rtm-never 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 2 ] && echo "$out" | grep -q CAP_SYS_NICE
	ok $? "not root: exit 2 naming CAP_SYS_NICE ($out)"
	# the refusal comes first and alone: no note on what the run would have left out
	# (the timer IRQ split, when /proc/kallsyms hides addresses from this user)
	for cmd in cyclic run; do
		out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			"$RTMEASURE" $cmd --trace -b 100us -D 1s -q -o /tmp/rtm-never \
			2>&1 >/dev/null)
		rc=$?
		[ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] &&
			echo "$out" | grep -q '^rtmeasure: .*CAP_SYS_NICE'
		ok $? "not root, $cmd --trace: one line, the CAP_SYS_NICE error ($out)"
	done
	d=$(mktemp -d)
	chmod 777 "$d"
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RTMEASURE" cyclic --no-rt -a 0 -D 1s -q --json -o "$d/r" >"$d/out.json" 2>"$d/err"
	rc=$?
	ok $rc "not root with --no-rt: measures ($(cat "$d/err"))"
	# at SCHED_OTHER a stall swallows periods: every one is a sample or an overrun
	jq -e '.all.samples + .all.overruns >= 950 and .all.samples >= 500' \
		"$d/out.json" >/dev/null
	ok $? "--no-rt: 1000 periods accounted for ($(jq -c '[.all.samples, .all.overruns]' \
		"$d/out.json" 2>/dev/null))"
	jq -e '.options.rt == false' "$d/r/result.json" >/dev/null; ok $? "--no-rt is recorded"
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RTMEASURE" cyclic --no-rt -a 0 -D 1s -b 1ms --trace -q -o "$d/t" \
		>/dev/null 2>"$d/t.err" &
	pid=$!
	wait $pid
	rc=$?
	out=$(cat "$d/t.err")
	[ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] &&
		echo "$out" | grep -qi 'root\|tracefs'
	ok $? "not root with --trace: exit 2, one line naming root or tracefs ($out)"
	ls /sys/kernel/tracing/instances 2>/dev/null | grep -qE "^rtmeasure-$pid([.-]|\$)"
	ok $(( $? == 0 )) "and no trace instance of its own left"
	rm -rf "$d"
fi
expect_usage_error "monitor: --backend refused" monitor --backend timerlat
done_testing
