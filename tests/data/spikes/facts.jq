# facts.jq - the time stamps tests/unit/test_analysis.c expects, read from a
# spike window's events without rtmeasure's analysis:
#
#   jq -c --arg irq 'IRQ 3' -f facts.jq irq-stock-6.1.json
#
# timer:  the last hrtimer_expire_entry on the probe's CPU from 5 us before
#         the planned wake-up up to the probe's wake-up (the one that woke it)
# wake:   the first sched_waking/sched_wakeup of the probe from then on
# switch: the probe's last sched_switch in between its wake-up and its clock
#         read (null: none in the window)
# gap:    the longest stretch in [planned, woke] without an event of the CPU
# handler: $irq ("IRQ N" or "softirq N" for vector N): entry -> exit time
#         clamped to [planned, woke]; in a softirq, hard IRQs and vectors that
#         interrupted it are taken out; runs: how many had time there
def clamp($lo; $hi): if . < $lo then $lo elif . > $hi then $hi else . end;
.planned_ns as $p | .woke_ns as $w | .probe_comm as $pr | .cpu as $c
| [.events[] | select(.cpu == $c)] as $ev
| ([$ev[] | select(.ts_ns >= $p - 5000 and .comm == $pr and
                   (.event == "sched_waking" or .event == "sched_wakeup"))][0].ts_ns) as $wake
| ([$ev[] | select(.ts_ns >= $p - 5000 and .event == "hrtimer_expire_entry" and
                   ($wake == null or .ts_ns <= $wake))] | last | .ts_ns) as $timer
| ([$ev[] | select($wake != null and .ts_ns >= $wake and .ts_ns <= $w and
                   .event == "sched_switch" and .next_comm == $pr)] | last | .ts_ns) as $switch
| ($irq | split(" ")) as $h
| ($h[0] == "softirq") as $soft
| def entry: if $soft then .event == "softirq_entry" and .vec == ($h[1] | tonumber)
             else .event == "irq_handler_entry" and .irq == ($h[1] | tonumber) end;
  def exit: if $soft then .event == "softirq_exit" and .vec == ($h[1] | tonumber)
            else .event == "irq_handler_exit" and .irq == ($h[1] | tonumber) end;
  def hard_entry: .event == "irq_handler_entry" or
                  (.system == "irq_vectors" and (.event | endswith("_entry")));
  def hard_exit: .event == "irq_handler_exit" or
                 (.system == "irq_vectors" and (.event | endswith("_exit")));
  (reduce $ev[] as $e ({open: false, s: 0, in: 0, is: null, sum: 0, runs: 0};
    if ($e | entry) then .open = true | .s = $e.ts_ns | .in = 0
    elif .open and ($e | exit) then
      ((.s | clamp($p; $w)) as $a | ($e.ts_ns | clamp($p; $w)) as $b
       | .open = false | if $b > $a + .in then .sum += $b - $a - .in | .runs += 1 else . end)
    elif .open and $soft and ($e | hard_entry) then .is = $e.ts_ns
    elif .open and $soft and .is != null and ($e | hard_exit) then
      .in += (($e.ts_ns | clamp($p; $w)) - (.is | clamp($p; $w))) | .is = null
    else . end)) as $hd
| {planned: $p, woke: $w, timer: $timer, wake: $wake, switch: $switch,
   gap: ([$p] + [$ev[] | select(.ts_ns >= $p and .ts_ns <= $w) | .ts_ns] + [$w]
         | [range(1; length) as $i | .[$i] - .[$i - 1]] | max),
   handler: {what: $irq, ns: $hd.sum, runs: $hd.runs}}
