// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * noiselive.c - `noise --trace` while it runs: each gap the probe logged is
 * laid over the events drained so far (lib/trace/noiseattr.h, live part), so the live
 * lines, the progress lines and the --prometheus page show the time per cause so
 * far.
 */
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "probe/probe.h"
#include "probe/probe_noise.h"
#include "session/session_priv.h"
#include "trace/noiseattr.h"
#include "trace/stream.h"

#define LIVE_BATCH	1024	/* gaps fetched from a probe thread at a time */

/* The noise probe of @run, or NULL (another probe, or none). */
static struct rtm_probe_noise *noise_probe(struct rtm_probe_run *run)
{
	if (!run || rtm_probe_run_ops(run) != &rtm_probe_noise_ops)
		return NULL;
	return rtm_probe_run_probe(run);
}

void rtm_session_noise_live(struct rtm_stream *st, struct rtm_probe_run *run)
{
	struct rtm_noiseattr *a = rtm_stream_noiseattr(st);
	struct rtm_probe_noise *p = noise_probe(run);
	struct rtm_noise_gap buf[LIVE_BATCH];
	struct rtm_noiseattr_gap g[LIVE_BATCH];
	uint64_t start;
	uint32_t n, laid, k;
	int i, cpu;

	if (!a || !p)
		return;
	start = rtm_probe_noise_start_ns(p);
	for (i = 0; i < rtm_probe_noise_ncpus(p); i++) {
		cpu = rtm_probe_noise_cpu(p, i);
		do {
			n = rtm_probe_noise_gaps(p, i, rtm_noiseattr_live_taken(a, cpu), buf,
						 LIVE_BATCH);
			for (k = 0; k < n; k++)
				g[k] = (struct rtm_noiseattr_gap){ buf[k].start_ns, buf[k].len_ns };
			laid = rtm_noiseattr_live_add(a, cpu, start, rtm_stream_window_ns(st), g,
						      n);
		} while (n == LIVE_BATCH && laid == n);
	}
}

/* "rt_throttling" -> "rt throttling" */
static void class_label(int k, char *buf, size_t len)
{
	char *u;

	snprintf(buf, len, "%s", rtm_noise_class_name(k));
	while ((u = strchr(buf, '_')))
		*u = ' ';
}

int rtm_session_noise_lines(struct rtm_stream *st, struct rtm_probe_run *run,
			char (*out)[RTM_SESSION_NOISE_LINE], int max)
{
	struct rtm_noiseattr *a = rtm_stream_noiseattr(st);
	struct rtm_probe_noise *p = noise_probe(run);
	uint64_t ns[RTM_NOISE_NCLASSES];
	struct rtm_noise_cpu_snap snap;
	char noise[16], gap[16], t[16], name[32];
	size_t used;
	int i, k, n = 0;

	if (!p)
		return 0;
	for (i = 0; i < rtm_probe_noise_ncpus(p) && n < max; i++, n++) {
		rtm_probe_noise_snapshot(p, i, &snap, NULL);
		rtm_fmt_ns(noise, sizeof(noise), snap.noise_ns);
		rtm_fmt_ns(gap, sizeof(gap), snap.max_gap_ns);
		used = (size_t)snprintf(out[n], RTM_SESSION_NOISE_LINE,
					"CPU%-3d noise %9s  max %9s  gaps %9llu", snap.cpu, noise,
					gap, (unsigned long long)snap.gaps);
		if (!a || used >= RTM_SESSION_NOISE_LINE)
			continue;
		rtm_noiseattr_live_get(a, snap.cpu, ns);
		for (k = 0; k < RTM_NOISE_NCLASSES && used < RTM_SESSION_NOISE_LINE; k++) {
			rtm_fmt_ns(t, sizeof(t), ns[k]);
			class_label(k, name, sizeof(name));
			used += (size_t)snprintf(out[n] + used, RTM_SESSION_NOISE_LINE - used,
						 "%s%s %s", k ? ", " : "  causes so far: ",
						 name, t);
		}
	}
	return n;
}
