#!/bin/bash
# Integration: scripts/kernel-build on Debian's linux-source-6.12 with linux-config-6.12 as
# base, up to the verified .config (no compiling): rt,tracing and stock,tracing survive whole;
# a fragment whose option cannot survive exits 2 naming the option, the "depends on" that
# removed it, the select that keeps one on, a value only defaults set, and an unknown symbol;
# =m met by =y passes. Skips when the packages are missing
# (scripts/setup --kernel installs them).
. "$RTM_SRCDIR/tests/lib.sh"
need_root
measure_lock "$@"

kb=$RTM_SRCDIR/scripts/kernel-build
base=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
[ "$(uname -m)" = x86_64 ] || skip "the base config is Debian's amd64 one; this is $(uname -m)"
[ -f "$base" ] || skip "$base missing: linux-config-6.12 not installed (scripts/setup --kernel)"
for t in make gcc flex bison xz; do
	command -v "$t" >/dev/null || skip "$t not installed (scripts/setup --kernel)"
done
src=$("$RTM_SRCDIR/scripts/kernel-source" 2>&1) ||
	skip "no kernel source: $src"

tmp=$(mktemp -d /tmp/rtm-kernel-build.XXXXXX) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT

# value of CONFIG_$1 in .config $2: y, m, a value, or n when not set / absent
cfg() { sed -n "s/^CONFIG_$1=//p" "$2" | grep . || echo n; }

# usage errors before any work: one line, exit 2
"$kb" "$src" >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] || fail "no OUT: exit $rc, $(cat "$tmp/err")"
"$kb" "$src" "$tmp/x" --fragments rt,nosuch >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" = 2 ] && grep -q "fragment 'nosuch' not found" "$tmp/err" ||
	fail "unknown fragment: exit $rc, $(cat "$tmp/err")"
"$kb" "$src" "$tmp/x" --base "$tmp/none.config" >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" = 2 ] && grep -q "base config .* not found" "$tmp/err" ||
	fail "missing base: exit $rc, $(cat "$tmp/err")"

for set in rt,tracing stock,tracing; do
	out=$tmp/${set/,/-}
	"$kb" "$src" "$out" --fragments "$set" >"$tmp/out" 2>"$tmp/err"; rc=$?
	[ "$rc" = 0 ] || fail "$set: exit $rc: $(cat "$tmp/out" "$tmp/err")"
	grep -q "$set: \([0-9]*\) of \1 requested options survived" "$tmp/out" ||
		fail "$set: summary line: $(cat "$tmp/out")"
	c=$out/.config
	for o in HIST_TRIGGERS HWLAT_TRACER OSNOISE_TRACER TIMERLAT_TRACER IRQ_TIME_ACCOUNTING \
		 IKCONFIG_PROC FTRACE EVENT_TRACING NO_HZ_FULL RCU_NOCB_CPU HZ_1000; do
		[ "$(cfg "$o" "$c")" = y ] || fail "$set: CONFIG_$o is $(cfg "$o" "$c"), not y"
	done
	[ "$(cfg HZ "$c")" = 1000 ] || fail "$set: CONFIG_HZ is $(cfg HZ "$c")"
	[ "$(cfg PROVE_LOCKING "$c")" = n ] || fail "$set: PROVE_LOCKING on"
	case $set in
	rt,*) [ "$(cfg PREEMPT_RT "$c")" = y ] && [ "$(cfg PREEMPT_DYNAMIC "$c")" = n ] &&
		[ "$(cfg PREEMPT_VOLUNTARY "$c")" = n ] || fail "rt: not a PREEMPT_RT config" ;;
	stock,*) [ "$(cfg PREEMPT_RT "$c")" = n ] && [ "$(cfg PREEMPT_DYNAMIC "$c")" = y ] &&
		[ "$(cfg PREEMPT_VOLUNTARY "$c")" = y ] || fail "stock: preemption model changed" ;;
	esac
	echo "$set: $(cat "$tmp/out")"
done

# --localmodconfig: a missing lsmod file is named before any work; with an empty one (no
# modules: one kernel for one box) the base's modules go and every requested option stays
"$kb" "$src" "$tmp/x" --localmodconfig "$tmp/no.lsmod" >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" = 2 ] && grep -q -- "--localmodconfig: .*no.lsmod not found" "$tmp/err" ||
	fail "missing lsmod file: exit $rc, $(cat "$tmp/err")"
: >"$tmp/empty.lsmod"
out=$tmp/rt-local
"$kb" "$src" "$out" --fragments rt,tracing,nodebug --localmodconfig "$tmp/empty.lsmod" \
	>"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" = 0 ] || fail "localmodconfig: exit $rc: $(cat "$tmp/out" "$tmp/err")"
grep -q "rt,tracing,nodebug: \([0-9]*\) of \1 requested options survived" "$tmp/out" ||
	fail "localmodconfig: summary line: $(cat "$tmp/out")"
mods=$(grep -c '=m$' "$out/.config")
[ "$mods" -lt 20 ] || fail "localmodconfig with no modules kept $mods modules"
[ "$(cfg PREEMPT_RT "$out/.config")" = y ] && [ "$(cfg DEBUG_INFO "$out/.config")" = n ] &&
	[ "$(cfg TIMERLAT_TRACER "$out/.config")" = y ] || fail "localmodconfig: fragments lost"
echo "localmodconfig: $(head -1 "$tmp/out"); $mods modules left"
rm -rf "$out"

# options that cannot survive: named with the reason, exit 2; =m met by =y is fine
cat >"$tmp/bad.config" <<'FRAG'
CONFIG_PREEMPT_RT=y
# CONFIG_EXPERT is not set
CONFIG_RTM_NO_SUCH_OPTION=y
# CONFIG_RING_BUFFER is not set
CONFIG_CRC32=m
CONFIG_HZ=1234
FRAG
"$kb" "$src" "$tmp/stock-tracing" --fragments "$tmp/bad.config" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" = 2 ] || fail "unsatisfiable fragment: exit $rc, not 2: $(cat "$tmp/out" "$tmp/err")"
grep -q "CONFIG_PREEMPT_RT did not survive: wanted y, got not set" "$tmp/err" ||
	fail "PREEMPT_RT loss not named: $(cat "$tmp/err")"
grep -q "kernel/Kconfig.preempt: depends on EXPERT && ARCH_SUPPORTS_RT .*EXPERT=n" "$tmp/err" ||
	fail "PREEMPT_RT's unmet dependency not named: $(cat "$tmp/err")"
grep -q "CONFIG_RTM_NO_SUCH_OPTION is unknown" "$tmp/err" ||
	fail "unknown symbol not named: $(cat "$tmp/err")"
grep -q "CONFIG_RING_BUFFER did not survive: wanted not set, got y" "$tmp/err" &&
	grep -q "selected by CONFIG_TRACING=y" "$tmp/err" ||
	fail "RING_BUFFER kept on by a select not named: $(cat "$tmp/err")"
grep -q "CONFIG_CRC32=m is built in" "$tmp/err" || fail "=m met by =y not reported: $(cat "$tmp/err")"
grep -q "CONFIG_CRC32 did not survive" "$tmp/err" && fail "=m met by =y counted as lost"
grep -q "CONFIG_HZ did not survive: wanted 1234, got 250" "$tmp/err" &&
	grep -q 'its value follows its "default" lines' "$tmp/err" ||
	fail "a value set by defaults only not explained: $(cat "$tmp/err")"
grep -q "2 of 6 requested options survived" "$tmp/out" || fail "summary: $(cat "$tmp/out")"
echo "unsatisfiable fragment: $(tr '\n' ' ' <"$tmp/err")"
exit 0
