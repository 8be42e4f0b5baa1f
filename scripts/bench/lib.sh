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
#
#   bench_result_paired METRIC TARGET NOTE <PAIRS
#
# the same line for a ratio measured in paired rounds (PAIRS: "FIGURE REFERENCE" a
# line, each pair measured next to each other): RTMEASURE and REFERENCE their
# medians, RATIO the median of the rounds' ratios, MET decided on the interval
# bench_paired gives around it: yes when all of it meets TARGET, no when none
# of it does, unsure when it holds the bound (the rounds cannot tell which side
# the ratio is on) or covers less than 90 % (fewer than 5 rounds); the interval
# goes before NOTE, and when unsure, the rounds that would decide it
# (bench_rounds_needed).

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
	{ grep -v '^-$' || true; } | sort -n | awk -v OFMT=%.15g '{ v[NR] = $1 }
		END { if (!NR) print "-"; else if (NR % 2) print v[(NR + 1) / 2]
		      else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bench_ratio A B: A / B to two decimals, or "-" when either is no number or B is 0
bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.2f", a / b; else print "-" }'
}

# bench_paired: the rounds' ratios A / B of the pairs "A B" on stdin (pairs with a
# "-" left out), as "MEDIAN LO HI N COVER": their median, the k-th smallest and
# largest ratio around it (k the largest with COVER >= 90 %, else 1), N pairs.
# The median ratio of rounds like these lies between LO and HI with COVER %
# probability whatever the distribution of the box's noise (order statistics:
# 1 - 2 P(Binomial(N, 1/2) < k)). "- - - 0 -" with no pair.
bench_paired() {
	awk '$1 ~ /^[0-9.]+$/ && $2 ~ /^[0-9.]+$/ && $2 > 0 { print $1 / $2 }' | sort -g |
		awk '{ v[NR] = $1 }
		END {
			n = NR
			if (!n) { print "- - - 0 -"; exit }
			med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			# P(X < k) for X ~ Binomial(n, 1/2), k = 1, 2, ...
			best = 1; cover = 1 - 2 * 0.5 ^ n; p = 0; c = 1
			for (k = 1; 2 * k <= n; k++) {
				p += c * 0.5 ^ n; c = c * (n - k + 1) / k	# P(X <= k - 1)
				if (1 - 2 * p >= 0.9) { best = k; cover = 1 - 2 * p }
			}
			printf "%.3f %.3f %.3f %d %.0f\n", med, v[best], v[n + 1 - best], n, cover * 100
		}'
}

bench_result_paired() {
	local metric=$1 target=$2 note=${3:-} pairs med lo hi n cover a b met what op bound
	pairs=$(cat)
	read -r med lo hi n cover <<<"$(bench_paired <<<"$pairs")"
	a=$(cut -d' ' -f1 <<<"$pairs" | bench_median)
	b=$(cut -d' ' -f2 <<<"$pairs" | bench_median)
	met=-
	read -r what op bound <<<"$target"
	if [ "$n" != 0 ] && [ "$what" = ratio ]; then
		met=$(awk -v lo="$lo" -v hi="$hi" -v op="$op" -v b="$bound" -v c="$cover" 'BEGIN {
			if (c < 90) { print "unsure"; exit }	# too few rounds to tell
			if (op == "<" || op == "<=") { good = op == "<" ? hi < b : hi <= b
						       bad = op == "<" ? lo >= b : lo > b }
			else { good = op == ">" ? lo > b : lo >= b; bad = op == ">" ? hi <= b : hi < b }
			print good ? "yes" : bad ? "no" : "unsure" }')
	fi
	if [ "$n" = 0 ]; then
		printf 'result\t%s\t-\t-\t-\t%s\t-\t%s\n' "$metric" "$target" "no paired rounds${note:+; $note}"
		return
	fi
	[ "$met" = unsure ] && [ "$n" -ge 3 ] &&
		note="$(bench_rounds_needed "$med" "$lo" "$hi" "$n" "$bound")${note:+; $note}"
	printf 'result\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$metric" "$a" "$b" \
		"$(printf %.2f "$med")" "$target" "$met" \
		"median of $n rounds' ratios, $cover % interval $lo-$hi${note:+; $note}"
}

# bench_rounds_needed MEDIAN LO HI N BOUND: how many rounds would tell which side
# of BOUND the median ratio is on, from the interval N rounds gave around it:
# "about M rounds would decide it". An interval of order statistics narrows as
# 1 / sqrt(rounds), so the side of it towards BOUND, W = |ln(edge / MEDIAN)|,
# stops short of BOUND after M = N (W / |ln(BOUND / MEDIAN)|)^2 rounds (5 at
# least, for 90 %): an estimate, to size a longer run of the script, which then
# decides. A median on the bound (within 0.5 %) is said to be undecidable.
bench_rounds_needed() {
	awk -v m="$1" -v lo="$2" -v hi="$3" -v n="$4" -v b="$5" 'BEGIN {
		if (m <= 0 || lo <= 0 || hi <= 0 || b <= 0 || n < 1) exit
		gap = log(b / m); gap = gap < 0 ? -gap : gap
		if (gap < 0.005) { print "the median is on the bound, no number of rounds decides it"; exit }
		w = log((b > m ? hi : lo) / m); w = w < 0 ? -w : w
		need = n * (w / gap) ^ 2
		need = need > int(need) ? int(need) + 1 : need
		printf "about %d rounds would decide it", need < 5 ? 5 : need
	}'
}
