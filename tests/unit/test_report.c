// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the data blocks the plot templates read (microsecond rows of the
 * histogram, the percentile curve's x range), and, when gnuplot is installed,
 * a whole report of a synthetic 64-CPU result: the all-CPUs line and the 7 CPUs
 * with the highest maxima are drawn, and the summary table lists every CPU.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "report.h"
#include "../tap.h"

static char *block_text(const struct rtm_hist *h, double *xmax, bool pct)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (pct)
		*xmax = rtm_report_pct_block(f, h, "CPU \"0\"");
	else
		rtm_report_hist_block(f, h, "CPU \"0\"");
	fclose(f);
	return text;
}

static void blocks(void)
{
	struct rtm_hist *h = rtm_hist_alloc();
	double xmax = 0;
	char *t;
	int i;

	rtm_hist_record_n(h, 5200, 10);		/* row 5 */
	rtm_hist_record_n(h, 12300, 3);		/* row 12 */
	rtm_hist_record(h, 12900);		/* row 12 too */
	t = block_text(h, NULL, false);
	is_str(t, "\"latency_us\" \"CPU \\\"0\\\"\"\n5 10\n12 4\n\n\n",
	       "histogram block: quoted title, one row per microsecond with samples");
	free(t);

	t = block_text(h, &xmax, true);
	ok(xmax == 10, "14 samples: the percentile axis ends at 90%% (x = 10)");
	ok(strstr(t, "\n1 5.2") != NULL, "the curve starts at p0 = the minimum (5.2 us)");
	free(t);

	rtm_hist_reset(h);
	for (i = 0; i < 100000; i++)
		rtm_hist_record(h, 10000 + (uint64_t)i);
	t = block_text(h, &xmax, true);
	ok(xmax == 10000, "100000 samples: up to p99.99 (10 samples beyond it)");
	ok(strstr(t, "\n10000 ") != NULL, "the last point is at x = 10000");
	free(t);

	rtm_hist_reset(h);
	t = block_text(h, NULL, false);
	is_str(t, "\"latency_us\" \"CPU \\\"0\\\"\"\n0 0\n\n\n", "an empty histogram still has a row");
	free(t);
	rtm_hist_free(h);
}

static void many_cpus(void)
{
	struct rtm_report_opts o = { .formats = 1u << RTM_PLOT_SVG, .width = 600, .height = 400 };
	struct rtm_error err = { "" };
	struct rtm_result *r = rtm_result_alloc("cyclic");
	char dir[] = "/tmp/rtm-test-report.XXXXXX", path[PATH_MAX];
	char *dat, *html;
	int c, k, titles = 0;

	if (access("/usr/bin/gnuplot", X_OK) && access("/usr/local/bin/gnuplot", X_OK)) {
		ok(1, "# SKIP gnuplot not installed");
		rtm_result_free(r);
		return;
	}
	for (c = 0; c < 64; c++) {
		struct rtm_result_cpu *rc = rtm_result_add_cpu(r, c, true, 0);

		/* CPU c's maximum grows with c: the worst 7 are 57..63 */
		for (k = 0; k < 100; k++)
			rtm_hist_record(rc->raw, 10000 + (uint64_t)k * 10);
		rtm_hist_record(rc->raw, 100000 + (uint64_t)c * 1000);
		rtm_hist_merge(rc->corrected, rc->raw);
	}
	if (!mkdtemp(dir))
		return;
	o.out_dir = o.results_dir = dir;
	if (getenv("RTM_SRCDIR")) {	/* the templates of this tree, not installed ones */
		snprintf(path, sizeof(path), "%s/plots", getenv("RTM_SRCDIR"));
		setenv("RTMEASURE_PLOTS", path, 1);
	}
	ok(rtm_report_write(r, &o, &err) == 0, "a 64-CPU report is written (%s)", err.msg);
	snprintf(path, sizeof(path), "%s/plots/data/histogram.dat", dir);
	dat = rtm_read_all("/", path, NULL);
	for (c = 0; dat && c < 64; c++) {
		char t[32];

		snprintf(t, sizeof(t), "\"CPU%d (max", c);
		titles += strstr(dat, t) != NULL;
	}
	ok(dat && strstr(dat, "\"all CPUs (max 163.0 us)\""), "the all-CPUs line, with its max");
	is_int(titles, 7, "7 CPU lines");
	ok(dat && strstr(dat, "\"CPU63 (max 163.0 us)\"") && strstr(dat, "\"CPU57 (max") &&
	   !strstr(dat, "\"CPU56 (max"), "the lines are CPUs 57-63, the highest maxima");
	snprintf(path, sizeof(path), "%s/report.html", dir);
	html = rtm_read_all("/", path, NULL);
	ok(html && strstr(html, "<td class=\"l\">63</td>") && strstr(html, "<td class=\"l\">0</td>"),
	   "the summary table lists every CPU");
	ok(html && strstr(html, "<svg"), "SVG plots inline");
	free(dat);
	free(html);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		diag("could not remove %s", dir);
	rtm_result_free(r);
}

int main(void)
{
	blocks();
	many_cpus();
	return tap_done();
}
