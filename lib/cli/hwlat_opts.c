// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hwlat_opts.c - hwlatdetect's options for `rtmeasure hwlat` (hwlat_opts.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/hwlat_opts.h"
#include "core/units.h"

#define US(x)	((uint64_t)(x) * 1000ULL)

const struct rtm_opt hwlat_opts[] = {
	{ "window", HWLAT_OPT_WINDOW, required_argument, "US", MEASURE_G_OWN,
	  "time between the starts of two samples, in us (plain number) or with ms/s "
	  "(default 1000000: 1 s)" },
	{ "width", HWLAT_OPT_WIDTH, required_argument, "US", MEASURE_G_OWN,
	  "time measured of each window, in us or with ms/s (default 500000: 500 ms)" },
	{ "threshold", HWLAT_OPT_THRESHOLD, required_argument, "US", MEASURE_G_OWN,
	  "a gap above this is a sample, in us (default 10)" },
	{ "hardlimit", HWLAT_OPT_HARDLIMIT, required_argument, "US", MEASURE_G_OWN,
	  "exit 1 when the largest sample is above this, in us (default: the threshold, "
	  "as hwlatdetect)" },
	{ "report", HWLAT_OPT_REPORT, required_argument, "FILE", MEASURE_G_OWN,
	  "the samples into FILE, one a line as hwlatdetect writes them "
	  "(ts: SECONDS, inner:US, outer:US)" },
	{ "cpu-list", HWLAT_OPT_CPU_LIST, required_argument, "LIST", MEASURE_G_OWN,
	  "the same as -a: the CPUs to measure" },
	{ "watch", HWLAT_OPT_WATCH, no_argument, NULL, MEASURE_G_OWN,
	  "print each sample as it comes" },
	{ "debug", HWLAT_OPT_DEBUG, no_argument, NULL, RTM_OPT_HIDDEN,
	  "rtmeasure has no debug prints: its settings and every sample are in "
	  "result.json (-o DIR)" },
	RTM_OPT_END,
};

void hwlat_defaults(struct rtm_session_opts *m)
{
	m->noise.threshold_ns = US(10);		/* hwlat's tracing_thresh when 0 */
	m->noise.duration_ns = 120ULL * 1000000000ULL;
	m->probe.duration_ns = m->noise.duration_ns;
}

/* hwlatdetect's seconds(): a number of seconds, or with s, m, h, d or w; ours too. */
static int parse_duration(const char *s, uint64_t *ns, struct rtm_error *err)
{
	size_t n = strspn(s, "0123456789");
	char *end;

	if (n && s[n] == 'w' && !s[n + 1]) {
		*ns = strtoull(s, &end, 10) * 7ULL * 86400ULL * 1000000000ULL;
		return *ns ? 0 : rtm_error_set(err, "duration '%s' must be greater than zero", s);
	}
	return rtm_parse_duration_ns(s, ns, err);
}

int hwlat_parse_opt(struct rtm_session_opts *m, struct rtm_hwlat_opts *h, int c,
		    const char *arg)
{
	struct rtm_error err = { "" };
	const char *cmd = "hwlat";
	uint64_t v;

	switch (c) {
	case 'D':
		if (parse_duration(arg, &v, &err))
			return rtm_cli_fail("%s: --duration: %s (hwlatdetect's form: 30, 90s, "
					    "5m, 2h, 1d, 1w)", cmd, err.msg);
		m->probe.duration_ns = m->noise.duration_ns = v;
		return 1;
	case HWLAT_OPT_WINDOW:
	case HWLAT_OPT_WIDTH:
	case HWLAT_OPT_THRESHOLD:
	case HWLAT_OPT_HARDLIMIT:
		if (rtm_parse_latency_ns(arg, &v, &err))
			return rtm_cli_fail("%s: --%s: %s (microseconds, as hwlatdetect)", cmd,
					    c == HWLAT_OPT_WINDOW ? "window" : c == HWLAT_OPT_WIDTH ?
					    "width" : c == HWLAT_OPT_THRESHOLD ? "threshold" :
					    "hardlimit", err.msg);
		if (c == HWLAT_OPT_WINDOW)
			m->noise.window_ns = v;
		else if (c == HWLAT_OPT_WIDTH)
			m->noise.width_ns = v;
		else if (c == HWLAT_OPT_THRESHOLD)
			m->noise.threshold_ns = v;
		else if (!v)
			return rtm_cli_fail("%s: --hardlimit 0: give a latency above 0 (in us)",
					    cmd);
		else
			h->hardlimit_ns = v;
		h->window_given |= c == HWLAT_OPT_WINDOW;
		h->width_given |= c == HWLAT_OPT_WIDTH;
		return 1;
	case HWLAT_OPT_REPORT:
		if (!*arg)
			return rtm_cli_fail("%s: --report: give a file name", cmd);
		h->report = arg;
		return 1;
	case HWLAT_OPT_CPU_LIST:
		return measure_parse_opt(m, 'a', 0, NULL);
	case HWLAT_OPT_WATCH:
		h->watch = true;
		return 1;
	case HWLAT_OPT_DEBUG:
		return rtm_cli_fail("%s: --debug: rtmeasure has no debug prints; its settings and "
				    "every sample are in result.json (-o DIR)", cmd);
	}
	return 0;
}

void hwlat_settle(struct rtm_session_opts *m, struct rtm_hwlat_opts *h, FILE *errf)
{
	char a[16], b[16];

	if (h->window_given && !h->width_given && m->noise.window_ns < m->noise.width_ns) {
		m->noise.width_ns = m->noise.window_ns / 2;
		fprintf(errf, "rtmeasure hwlat: --window %s is below the width: the width is "
			"halved into it (%s), as hwlatdetect does\n",
			rtm_fmt_ns(a, sizeof(a), m->noise.window_ns),
			rtm_fmt_ns(b, sizeof(b), m->noise.width_ns));
	} else if (h->width_given && !h->window_given &&
		   m->noise.width_ns > m->noise.window_ns) {
		m->noise.window_ns = m->noise.width_ns * 2;
		fprintf(errf, "rtmeasure hwlat: --width %s is above the window: the window is "
			"doubled around it (%s), as hwlatdetect does\n",
			rtm_fmt_ns(a, sizeof(a), m->noise.width_ns),
			rtm_fmt_ns(b, sizeof(b), m->noise.window_ns));
	}
	if (!h->hardlimit_ns)
		h->hardlimit_ns = m->noise.threshold_ns;
}
