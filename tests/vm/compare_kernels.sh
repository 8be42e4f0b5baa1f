#!/bin/bash
# VM test (make check-vm; root): scripts/kernel-lab/compare-kernels boots
# Debian's stock and PREEMPT_RT kernels under qemu with short runs under
# `--load cpu` and brings the results back. Asserts, from each side's
# result.json, that the RT kernel is detected as PREEMPT_RT and the stock one
# not, that `run --load cpu` ran stress-ng in both guests, and that the host
# made each report and the comparison, which carries the emulation banner.
# Skips (77) with the reason when not root or when the Debian packages (kernels,
# busybox-static) or qemu cannot be had. The downloads stay in the lab cache
# ($RTMEASURE_LAB_CACHE, default /var/cache/rtmeasure-lab) for the next run.
# VM_DURATION (default 5s) and VM_TIMEOUT (seconds per boot, default 180)
# bound its time: ~1-2 minutes on a 2-vCPU host with the cache filled.
. "$RTM_SRCDIR/tests/lib.sh"

lab=$RTM_SRCDIR/scripts/kernel-lab
[ "$(id -u)" -eq 0 ] || skip "not root (the lab builds initramfs device nodes and installs qemu)"
command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
command -v stress-ng >/dev/null || skip "stress-ng not installed on the host (apt-get install stress-ng)"

if ! msg=$("$lab/fetch" stock rt busybox 2>&1); then
	skip "the Debian packages cannot be fetched: $(printf '%s\n' "$msg" | tail -n 1)"
fi
if ! command -v qemu-system-x86_64 >/dev/null &&
   ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	qemu-system-x86 >/dev/null 2>&1; then
	skip "qemu-system-x86_64 missing and apt-get install qemu-system-x86 failed"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/lab
"$lab/compare-kernels" --build "$RTM_BUILDDIR" --kernels stock,rt --duration "${VM_DURATION:-5s}" \
	--load cpu --timeout "${VM_TIMEOUT:-180}" -o "$out" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
cat "$tmp/stderr" "$tmp/stdout"
[ "$rc" -eq 0 ] || fail "compare-kernels exited $rc"

for side in stock rt; do
	res=$out/$side-1/result.json
	[ -s "$res" ] || fail "no $side-1/result.json brought back"
	model=$(jq -r '.sysinfo.kernel.preempt.model' "$res")
	release=$(jq -r '.sysinfo.kernel.release' "$res")
	echo "$side: kernel $release, preemption model $model"
	if [ "$side" = rt ]; then
		[ "$model" = rt ] || fail "the RT kernel ($release) is not detected as PREEMPT_RT (model $model)"
	else
		[ "$model" != rt ] && [ "$model" != unknown ] && [ "$model" != null ] ||
			fail "the stock kernel ($release) has preemption model '$model' (want none, voluntary or full)"
	fi
	jq -e '.sections.load.kinds == ["cpu"]' "$res" >/dev/null ||
		fail "$side: result.json has no cpu load: $(jq -c '.sections.load' "$res")"
	jq -e '.sections.load.commands | length >= 1 and all(startswith("stress-ng "))' "$res" \
		>/dev/null || fail "$side: the load is not stress-ng: $(jq -c '.sections.load' "$res")"
	jq -e '(.cpus | length) == 2 and all(.cpus[]; .hist.count > 0)' "$res" >/dev/null ||
		fail "$side: not both CPUs measured: $(jq -c '[.cpus[] | {cpu, n: .hist.count}]' "$res")"
	[ -s "$out/$side-1/report.html" ] || fail "$side: no report.html made on the host"
done
[ -s "$out/compare/compare.html" ] || fail "no compare/compare.html"
[ -s "$out/compare/compare.md" ] || fail "no compare/compare.md"
grep -q 'stock' "$out/compare.txt" && grep -q 'rt' "$out/compare.txt" ||
	fail "compare.txt does not name stock and rt"
grep -q '^wall time: ' "$tmp/stdout" || fail "no wall time printed"
# the emulation banner comes from rtmeasure compare (helper branch h-stats)
grep -qi 'emulated' "$out/compare.txt" ||
	fail "the comparison of two TCG guests carries no 'emulated' banner ($(grep -i -m1 'virtuali' "$out/compare.txt"))"
echo "PASS: stock and rt booted, PREEMPT_RT told apart, --load cpu in both, report and compare made"
