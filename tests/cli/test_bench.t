#!/bin/bash
# scripts/bench/lib.sh's result lines and scripts/bench/all's table of them: targets
# worked out both ways, a script without result lines, a failing one and one past the
# budget each get a row saying so.
. "$RTM_SRCDIR/tests/lib.sh"

B="$RTM_SRCDIR/scripts/bench"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

. "$B/lib.sh"
line=$(bench_result p99_us 50 40 1.25 "ratio <= 1.05" "medians of 3")
[ "$line" = "$(printf 'result\tp99_us\t50\t40\t1.25\tratio <= 1.05\tno\tmedians of 3')" ]
ok $? "a ratio over its target: met no, the note last ($line)"
line=$(bench_result cpu_pct 0.3 0.4 0.75 "rtmeasure < 0.5")
[ "$line" = "$(printf 'result\tcpu_pct\t0.3\t0.4\t0.75\trtmeasure < 0.5\tyes')" ]
ok $? "rtmeasure's own figure under its target: met yes ($line)"
[ "$(bench_result x - - - "ratio >= 10" | cut -f7)" = - ]
ok $? "a missing figure: met -"
[ "$(bench_result x 7 | cut -f4-7)" = "$(printf -- '-\t-\t-\t-')" ]
ok $? "no reference, ratio or target: dashes"

# medians: "-" (a figure not given) left out; none left, or no input, is "-" (under
# set -e and pipefail, as the scripts run)
[ "$(printf '3\n-\n1\n2\n' | bench_median)" = 2 ]
ok $? "median of 1 2 3 with a - left out"
[ "$(printf '24381800\n24381803\n' | bench_median)" = 24381801.5 ]
ok $? "the mean of the middle two in full, not 2.43818e+07"
[ "$(set -eo pipefail; printf -- '-\n' | bench_median)" = - ]
ok $? "only dashes: -"
[ "$(set -eo pipefail; bench_median </dev/null)" = - ]
ok $? "no figures at all (a reference that never ran): -, the script goes on"

# paired rounds: the median of the rounds' ratios and an order-statistics interval
[ "$(printf '10 9\n12 10\n11 10\n13 10\n9 10\n' | bench_paired)" = "1.111 0.900 1.300 5 94" ]
ok $? "5 pairs: median ratio, the smallest and largest (94 %)"
[ "$(printf '1 1\n2 1\n3 1\n4 1\n5 1\n6 1\n7 1\n8 1\n9 1\n' | bench_paired)" = "5.000 2.000 8.000 9 96" ]
ok $? "9 pairs: the 2nd smallest and largest (96 %)"
[ "$(printf -- '- 10\n1 0\n' | bench_paired)" = "- - - 0 -" ]
ok $? "pairs without two numbers left out"
line=$(printf '10.0 10\n10.1 10\n10.2 10\n10.3 10\n10.4 10\n' | bench_result_paired p99 "ratio <= 1.05" "x")
[ "$line" = "$(printf 'result\tp99\t10.2\t10\t1.02\tratio <= 1.05\tyes\tmedian of 5 rounds'"'"' ratios, 94 %% interval 1.000-1.040; x')" ]
ok $? "all of the interval under the bound: yes ($line)"
line=$(printf '9 10\n10 10\n11 10\n12 10\n13 10\n' | bench_result_paired p99 "ratio <= 1.05")
[ "$(echo "$line" | cut -f6-8)" = "$(printf 'ratio <= 1.05\tunsure\tmedian of 5 rounds'"'"' ratios, 94 %% interval 0.900-1.300; about 94 rounds would decide it')" ]
ok $? "an interval over the bound: unsure, though the median ratio (1.10) is over it, with the rounds that would decide it ($line)"
# the lower side ln(1.10 / 0.90) = 0.2007 against ln(1.10 / 1.05) = 0.0465: 5 x 18.6 = 93.1
[ "$(bench_rounds_needed 1.10 0.90 1.30 5 1.05)" = "about 94 rounds would decide it" ]
ok $? "rounds needed: the interval's side towards the bound against the median's distance"
# under the bound, the upper side: ln(1.256 / 0.99) = 0.238 against ln(1.10 / 0.99) = 0.105
[ "$(bench_rounds_needed 0.99 0.837 1.256 9 1.10)" = "about 46 rounds would decide it" ]
ok $? "rounds needed: a median under the bound, the upper side"
[ "$(bench_rounds_needed 0.50 0.45 0.56 9 1.05)" = "about 5 rounds would decide it" ]
ok $? "rounds needed: never under 5 (a 90 % interval)"
[ "$(bench_rounds_needed 1.052 0.9 1.2 9 1.05)" = "the median is on the bound, no number of rounds decides it" ]
ok $? "rounds needed: a median on the bound is undecidable"
[ -z "$(bench_rounds_needed - - - 0 1.05)" ]
ok $? "rounds needed: nothing without an interval"
line=$(printf '12 10\n13 10\n14 10\n12 10\n13 10\n' | bench_result_paired p99 "ratio <= 1.05")
[ "$(echo "$line" | cut -f7)" = no ]
ok $? "all of the interval over the bound: no"
line=$(printf '20 10\n21 10\n22 10\n' | bench_result_paired p99 "ratio <= 1.05")
[ "$(echo "$line" | cut -f7)" = unsure ]
ok $? "3 rounds (75 %): unsure, however far"
[ "$(printf '' | bench_result_paired p99 "ratio <= 1.05")" = "$(printf 'result\tp99\t-\t-\t-\tratio <= 1.05\t-\tno paired rounds')" ]
ok $? "no pairs: dashes"

mkdir "$d/s"
cat >"$d/s/good" <<'EOS'
#!/bin/bash
. "$RTM_SRCDIR/scripts/bench/lib.sh"
echo "a table first"
bench_result speed_x 12 10 1.2 "ratio >= 1"
bench_result cost_ms 3 - - "rtmeasure < 1" "too slow here"
printf '9 10\n10 10\n11 10\n12 10\n13 10\n' | bench_result_paired p99_us "ratio <= 1.05"
EOS
printf '#!/bin/bash\necho "nothing to report"\n' >"$d/s/silent"
printf '#!/bin/bash\necho "bench: cyclictest missing" >&2\nexit 2\n' >"$d/s/broken"
printf '#!/bin/bash\nsleep 600\n' >"$d/s/slow"
printf 'not run: a C file\n' >"$d/s/bench_x.c"
chmod +x "$d/s/good" "$d/s/silent" "$d/s/broken" "$d/s/slow"
out=$(RTM_BENCH_DIR="$d/s" timeout 100 "$B/all" --budget 15s --only good,silent,broken,slow 2>/dev/null)
rc=$?
ok $rc "all exits 0 ($rc)"
echo "$out" | grep -Eq '^metric +rtmeasure +reference +ratio +target +met$'
ok $? "the table's header"
echo "$out" | grep -Eq '^good\.speed_x +12 +10 +1\.2 +ratio >= 1 +yes$'
ok $? "a met target, named after its script"
echo "$out" | grep -Eq '^good\.cost_ms +3 +- +- +rtmeasure < 1 +no \(too slow here\)$'
ok $? "an unmet one with its note"
echo "$out" | grep -Eq '^silent +- +- +- +- +- \(no result lines \(exit 0: nothing to report\)\)$'
ok $? "a script without result lines is named"
echo "$out" | grep -Eq '^broken +- +- +- +- +- \(no result lines \(exit 2: bench: cyclictest missing\)\)$'
ok $? "a failing script with its last line"
echo "$out" | grep -Eq '^slow +- +- +- +- +- \(out of time'
ok $? "a script cut off at the budget"
echo "$out" | grep -q "bench_x"
ok $(( ! $? )) "C files are not run"
echo "$out" | grep -q '^targets met: 1, not met: 1, unsure (the rounds cannot tell): 1$'
ok $? "the count of targets met, not met and unsure ($(echo "$out" | tail -2 | head -1))"
echo "$out" | grep -Eq '^good\.p99_us +11 +10 +1\.10 +ratio <= 1\.05 +unsure \(median of 5 rounds'"'"' ratios, 94 % interval 0\.900-1\.300; about 94 rounds would decide it\)$'
ok $? "an unsure row with its interval"

RTM_BENCH_DIR="$d/s" "$B/all" --budget x >/dev/null 2>&1
ok $(( $? != 2 )) "a budget that is neither minutes nor seconds: exit 2"

# scripts/bench/wakeup's medians and result lines from its round lines (recorded on the
# development VM): the BPF programs' CPU % beside trace-cmd's, ns per event, p99 ratios
cat >"$d/wk-rounds" <<'EOR'
without round 1: ctxt/s 30260, cyclictest p99 93 us
with round 1: ctxt/s 15390, cyclictest p99 86 us, rtm_wk_wakeup 250 ns, rtm_wk_switch 220 ns, rtm_wk_floor 63 ns, rtm_wk_floor_ld 66 ns, events/s 44684, CPU 0.800 % of one CPU (0.520 % at 10k switches/s)
tracefs round 1: ctxt/s 8866, cyclictest p99 68 us, trace-cmd CPU 0.096 % of one CPU (0.108 % at 10k switches/s)
with round 2: ctxt/s 8530, cyclictest p99 59 us, rtm_wk_wakeup 140 ns, rtm_wk_switch 120 ns, rtm_wk_floor 72 ns, rtm_wk_floor_ld 70 ns, events/s 16771, CPU 0.300 % of one CPU (0.350 % at 10k switches/s)
tracefs round 2: ctxt/s 8575, cyclictest p99 61 us, trace-cmd CPU 0.200 % of one CPU (0.233 % at 10k switches/s)
without round 2: ctxt/s 27243, cyclictest p99 133 us
tracefs round 3: ctxt/s 9000, cyclictest p99 70 us, trace-cmd CPU 0.150 % of one CPU (0.166 % at 10k switches/s)
without round 3: ctxt/s 9100, cyclictest p99 60 us
with round 3: ctxt/s 9200, cyclictest p99 66 us, rtm_wk_wakeup 130 ns, rtm_wk_switch 100 ns, rtm_wk_floor 60 ns, rtm_wk_floor_ld 61 ns, events/s 17000, CPU 0.250 % of one CPU (0.272 % at 10k switches/s)
EOR
out=$("$B/wakeup" --summary "$d/wk-rounds" 2>&1)
ok $? "wakeup --summary of recorded round lines ($(echo "$out" | tail -1))"
echo "$out" | grep -q "$(printf '^result\tcpu_pct_at_10k_switches\t0.350\t0.166\t2.11\trtmeasure < 0.5\tyes\t')"
ok $? "CPU % at 10k switches/s: the medians, trace-cmd's the reference"
echo "$out" | grep -q "$(printf '^result\tns_per_event_rtm_wk_switch\t120\t-\t-\trtmeasure < 150\tyes\t.*63 ns$')"
ok $? "ns per event of a program against 150, the empty program's in the note"
echo "$out" | grep -q "$(printf '^result\tns_per_event_rtm_wk_wakeup\t140\t')"
ok $? "one line per program"
[ "$(echo "$out" | grep -c 'ns_per_event_rtm_wk_floor')" = 0 ]
ok $? "the empty program and the one-word one are no programs of wakeup's"
echo "$out" | grep -q '^median ns per event: rtm_wk_floor_ld (reads one word of a map) 66 ns$'
ok $? "the one-word program's median"
echo "$out" | grep -q "$(printf '^result\tp99_us_cyclictest_beside_wakeup\t66\t93\t0.93\tratio <= 1.05\tunsure\tmedian of 3 rounds'"'"' ratios, 75 %% interval 0.444-1.100; about [0-9]* rounds would decide it; reference: cyclictest alone$')"
ok $? "cyclictest's p99 with wakeup against without, round by round: 3 rounds cannot tell"
echo "$out" | grep -q "$(printf '^result\tp99_us_cyclictest_plus_programs\t93.26\t93\t1.003\tratio <= 1.05\tyes\tcyclictest alone.s p99 plus the programs. own time on a wake-up.s path (260 ns: ')"
ok $? "cyclictest alone's p99 plus sched_wakeup's and sched_switch's time (140 + 120 ns)"
echo "$out" | grep -q "$(printf '^result\tp99_us_cyclictest_wakeup_vs_tracefs\t66\t68\t0.97\t-\t-\t')"
ok $? "and against beside trace-cmd"
echo "$out" | grep -q '^medians: trace-cmd 0.150 % of one CPU at 8866 context switches/s'
ok $? "trace-cmd's medians in the table"
# with helper rounds (RTMEASURE_BPF_READS=helper): each program's helper build the reference
sed -e 's/\(^with round .*\)$/\1, reads direct/' "$d/wk-rounds" >"$d/wk-rounds2"
cat >>"$d/wk-rounds2" <<'EOR'
helper round 1: ctxt/s 9100, cyclictest p99 70 us, rtm_wk_wakeup 200 ns, rtm_wk_switch 125 ns, rtm_wk_floor 61 ns, rtm_wk_floor_ld 62 ns, events/s 17100, CPU 0.300 % of one CPU (0.330 % at 10k switches/s), reads helper
helper round 2: ctxt/s 9000, cyclictest p99 65 us, rtm_wk_wakeup 180 ns, rtm_wk_switch 115 ns, rtm_wk_floor 60 ns, rtm_wk_floor_ld 62 ns, events/s 16900, CPU 0.280 % of one CPU (0.311 % at 10k switches/s), reads helper
EOR
out=$("$B/wakeup" --summary "$d/wk-rounds2" 2>&1)
ok $? "wakeup --summary with helper rounds"
echo "$out" | grep -q "$(printf '^result\tns_per_event_rtm_wk_wakeup\t140\t190\t0.74\trtmeasure < 150\tyes\tkernel BPF statistics, direct reads; ')"
ok $? "a program's direct build against its helper build (the median of the helper rounds)"
echo "$out" | grep -q '^the builds loaded: direct (with rounds), helper (helper rounds)$'
ok $? "the builds each kind of round loaded"
[ "$(echo "$out" | grep -c '^median ns per event: rtm_wk_[a-z]* of the helper build')" = 2 ]
ok $? "one helper median per program"
echo "$out" | grep -q "$(printf '^result\tp99_us_cyclictest_beside_wakeup\t66\t93\t')"
ok $? "the helper rounds are not in the direct build's p99"
# bare rounds (wakeup without the kernel's BPF statistics): cyclictest's p99 beside wakeup is theirs
cat >>"$d/wk-rounds2" <<'EOR'
bare round 1: ctxt/s 9100, cyclictest p99 61 us, reads direct
bare round 2: ctxt/s 9050, cyclictest p99 64 us, reads direct
bare round 3: ctxt/s 9020, cyclictest p99 90 us, reads direct
EOR
out=$("$B/wakeup" --summary "$d/wk-rounds2" 2>&1)
echo "$out" | grep -q "$(printf '^result\tp99_us_cyclictest_beside_wakeup\t64\t93\t0.66\tratio <= 1.05\tunsure\tmedian of 3 rounds'"'"' ratios, 75 %% interval 0.481-1.500; about [0-9]* rounds would decide it; reference: cyclictest alone; BPF statistics off (on: median 66 us)$')"
ok $? "cyclictest's p99 beside wakeup from the bare rounds, the statistics' rounds named"

"$B/wakeup" --summary "$d/none" >/dev/null 2>&1
ok $(( $? != 2 )) "wakeup --summary of a missing file: exit 2"

done_testing
