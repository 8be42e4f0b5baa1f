# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/bench/lib.sh - what the benchmark scripts share: their result lines,
# which scripts/bench/all gathers into one table (format in docs/benchmarks.md).
#
#   . "$(dirname "$0")/lib.sh"
#   bench_result METRIC RTMEASURE REFERENCE RATIO TARGET [NOTE]
#
# prints one tab-separated line
#   result METRIC RTMEASURE REFERENCE RATIO TARGET MET [NOTE]
# RTMEASURE, REFERENCE and RATIO are numbers, or - when there is none; TARGET is
# "ratio OP NUMBER" or "rtmeasure OP NUMBER" (OP one of < <= > >=), or - for a
# figure with no target; MET is yes or no, worked out here from TARGET, or -
# when there is no target or the figure it needs is missing.

# bench_met TARGET RTMEASURE RATIO: yes, no or -
bench_met() {
	local target=$1 rtm=$2 ratio=$3 what op bound v
	[ "$target" = - ] && { echo -; return; }
	read -r what op bound <<<"$target"
	case $what in ratio) v=$ratio ;; rtmeasure) v=$rtm ;; *) echo -; return ;; esac
	[ "$v" = - ] || [ -z "$v" ] && { echo -; return; }
	awk -v v="$v" -v op="$op" -v b="$bound" 'BEGIN {
		if (v !~ /^[-+0-9.eE]+$/) { print "-"; exit }
		r = op == "<" ? v < b : op == "<=" ? v <= b : op == ">" ? v > b : op == ">=" ? v >= b : -1
		print r < 0 ? "-" : r ? "yes" : "no" }'
}

bench_result() {
	local metric=$1 rtm=${2:--} ref=${3:--} ratio=${4:--} target=${5:--} note=${6:-}
	printf 'result\t%s\t%s\t%s\t%s\t%s\t%s%s\n' "$metric" "$rtm" "$ref" "$ratio" "$target" \
		"$(bench_met "$target" "$rtm" "$ratio")" "${note:+	$note}"
}
