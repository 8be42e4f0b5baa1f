#!/bin/bash
# Integration: `rtmeasure irq --trace` on the live kernel (root, tracefs).
# Over the same interval, the handler counts from irq_handler_entry/exit and
# irq_vectors events agree with the /proc/interrupts deltas of the busiest
# IRQs (within a few events: the snapshots and the trace do not start at the
# same instant). Disk and timer activity are made so there is something to
# count. Without a terminal it prints one plain table per interval, and no
# trace instance is left behind.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
need_tracefs
grep -q '^irq:irq_handler_entry$' /sys/kernel/tracing/available_events ||
	skip "this kernel has no irq:irq_handler_entry event"
measure_lock "$@"

out=$(mktemp -d)
trap 'rm -rf "$out"; kill $busy 2>/dev/null' EXIT

# some interrupts: file writes flushed to disk, and short sleeps
( while :; do dd if=/dev/zero of="$out/f" bs=64k count=16 oflag=direct 2>/dev/null; sleep 0.01; done ) &
busy=$!
"$RTMEASURE" irq --trace -D 3s --json >"$out/irq.json" 2>"$out/err" &
irq=$!
wait $irq || fail "irq --trace exited $? ($(cat "$out/err"))"
kill $busy; wait $busy 2>/dev/null
no_instances_of $irq
jq -e '.interrupts.interval_ns > 2500000000' "$out/irq.json" >/dev/null || fail "interval"
[ "$(jq .trace_lost "$out/irq.json")" = 0 ] || echo "note: trace events lost: $(jq .trace_lost "$out/irq.json")"

# compare: numbered IRQs by number, LOC with local_timer, CAL with call_function*
jq -r '.interrupts.irqs[] | "\(.name) \(.count)"' "$out/irq.json" >"$out/proc"
jq -r '.handlers.sources[] | select(.kind == "irq") | "\(.id) \(.count)"' "$out/irq.json" >"$out/trace"
jq -r '[.handlers.sources[] | select(.kind == "vector" and .name == "local_timer") | .count] |
	"LOC \(add // 0)"' "$out/irq.json" >>"$out/trace"
jq -r '[.handlers.sources[] | select(.kind == "vector" and (.name | startswith("call_function"))) |
	.count] | "CAL \(add // 0)"' "$out/irq.json" >>"$out/trace"
checked=0
while read -r name count; do
	[ "$count" -ge 20 ] || continue	# the busiest only
	t=$(awk -v n="$name" '$1 == n { print $2 }' "$out/trace")
	[ -n "$t" ] || { [[ "$name" =~ ^[0-9]+$|^LOC$|^CAL$ ]] && fail "$name: $count in /proc, no events"; continue; }
	tol=$(( count / 50 + 5 ))
	diff=$(( t > count ? t - count : count - t ))
	echo "$name: /proc $count, trace $t (tolerance $tol)"
	[ "$diff" -le "$tol" ] || fail "$name: /proc says $count, the trace $t"
	checked=$((checked + 1))
done <"$out/proc"
[ "$checked" -ge 1 ] || fail "no IRQ busy enough to compare: $(cat "$out/proc" | tr '\n' ' ')"

# not a terminal: one plain table per interval, no escape codes
"$RTMEASURE" irq -i 500ms -D 1500ms -a 0 >"$out/txt" 2>&1 || fail "irq plain exited $?"
[ "$(grep -c '^-- ' "$out/txt")" -ge 2 ] || fail "expected a table per interval: $(cat "$out/txt")"
grep -q $'\e' "$out/txt" && fail "escape codes in piped output"
grep -q '^-- .* CPUs 0 ' "$out/txt" || fail "-a 0 not in the header"
echo "PASS: $checked IRQ sources agree between tracepoints and /proc/interrupts"
