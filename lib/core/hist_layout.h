/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hist_layout.h - the log-linear bucket layout of core/hist.h, with no library
 * header: the BPF programs (probe/wakeup.bpf.c) count into the same buckets.
 *
 * rtm_hist_layout_index() is rtm_hist_index() without __builtin_clzll(), which
 * the BPF target cannot compile: the highest set bit is found in six steps
 * without a loop, so the verifier takes it. tests/unit/test_wakeup.c checks
 * that the two agree.
 */
#ifndef RTM_HIST_LAYOUT_H
#define RTM_HIST_LAYOUT_H

#define RTM_HIST_SUB_BITS	9
#define RTM_HIST_MAX_BITS	43
/* counters: (buckets above the exact range + 1) * half sub-bucket count */
#define RTM_HIST_NCOUNTS \
	((RTM_HIST_MAX_BITS - RTM_HIST_SUB_BITS + 1 + 1) << (RTM_HIST_SUB_BITS - 1))
/* RTM_HIST_MAX_NS of hist.h, as a plain constant */
#define RTM_HIST_LAYOUT_MAX_NS	((1ULL << RTM_HIST_MAX_BITS) - 1)

/* Index of the counter of @v_ns; values above the top are counted in the top counter. */
static inline unsigned int rtm_hist_layout_index(unsigned long long v_ns)
{
	unsigned long long v;
	unsigned int msb = 0;

	if (v_ns > RTM_HIST_LAYOUT_MAX_NS)
		v_ns = RTM_HIST_LAYOUT_MAX_NS;
	v = v_ns | ((1u << RTM_HIST_SUB_BITS) - 1);
	if (v >> 32) {
		v >>= 32;
		msb += 32;
	}
	if (v >> 16) {
		v >>= 16;
		msb += 16;
	}
	if (v >> 8) {
		v >>= 8;
		msb += 8;
	}
	if (v >> 4) {
		v >>= 4;
		msb += 4;
	}
	if (v >> 2) {
		v >>= 2;
		msb += 2;
	}
	if (v >> 1)
		msb += 1;
	msb -= RTM_HIST_SUB_BITS - 1;
	return (msb << (RTM_HIST_SUB_BITS - 1)) + (unsigned int)(v_ns >> msb);
}

#endif
