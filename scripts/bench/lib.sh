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

# bench_median: the median of the numbers on stdin, one a line; "-" (a figure
# the tool could not give, e.g. a percentile too few samples define) left out;
# "-" when none is left.
bench_median() {
	grep -v '^-$' | sort -n | awk '{ v[NR] = $1 }
		END { if (!NR) print "-"; else if (NR % 2) print v[(NR + 1) / 2]
		      else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bench_ratio A B: A / B to two decimals, or "-" when either is no number or B is 0
bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.2f", a / b; else print "-" }'
}
