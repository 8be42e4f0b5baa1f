// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the live monitor's formatting helpers: threshold levels,
 * sparklines (UTF-8 blocks and the ASCII ramp, log scale, clamping, buffer
 * limits), the screen layout from 80x24 down to too small, with many CPUs, the
 * CPU table's columns at 40 to 200 columns, the spike causes recorded in
 * tests/data/spikes broken at words, the plain form's IRQ line, the panels
 * of --io and --wakeup from recorded results, and --wakeup's tasks in the live
 * page's result and in a snapshot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/units.h"
#include "present/dashboard.h"
#include "present/dashfmt.h"
#include "present/prom.h"
#include "session/monitor.h"
#include "../tap.h"

static void levels(void)
{
	is_int(rtm_level_of(0, 100000, false), RTM_LEVEL_NONE, "no sample: no level");
	is_int(rtm_level_of(49999, 100000, true), RTM_LEVEL_OK, "below half the threshold: ok");
	is_int(rtm_level_of(50000, 100000, true), RTM_LEVEL_WARN, "half the threshold: warn");
	is_int(rtm_level_of(100000, 100000, true), RTM_LEVEL_WARN, "at the threshold: warn");
	is_int(rtm_level_of(100001, 100000, true), RTM_LEVEL_ALERT, "above it: alert");
	is_int(rtm_level_of(5000000, 0, true), RTM_LEVEL_OK, "no threshold: ok");
}

static void sparklines(void)
{
	uint64_t v[] = { 0, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 5 };
	char buf[64];

	is_int(rtm_sparkline(buf, sizeof(buf), v, 9, 10, 10000000, false), 9, "9 ASCII marks");
	/* log scale over 10 ns .. 10 ms: 6 decades over 7 steps, rounded */
	is_str(buf, " _.:=+*#_", "zero is blank, decades climb the ramp, below lo clamps to the "
	       "lowest mark");
	is_int(rtm_sparkline(buf, sizeof(buf), v + 7, 1, 10, 10000000, true), 3,
	       "a UTF-8 block is 3 bytes");
	is_str(buf, "\xe2\x96\x88", "the top value is a full block");
	is_int(rtm_sparkline(buf, sizeof(buf), v + 1, 1, 10, 10000000, true), 3, "one block");
	is_str(buf, "\xe2\x96\x81", "the bottom value is the lowest block");
	is_int(rtm_sparkline(buf, 4, v, 9, 10, 10000000, false), -1, "too small a buffer: -1");
	is_int(rtm_sparkline(buf, sizeof(buf), v, 0, 10, 100, true), 0, "no values: empty");
	is_str(buf, "", "empty string");
	is_int(rtm_sparkline(buf, sizeof(buf), v + 2, 1, 100, 100, false), 1,
	       "lo == hi does not divide by zero");
}

static void layouts(void)
{
	struct rtm_dash_layout l;

	rtm_dash_layout(24, 80, 2, RTM_PANEL_CPUS, &l);
	ok(!l.too_small && l.header == 3 && l.cpu_rows == 3, "80x24, 2 CPUs: header 3, table 3");
	is_int(l.header + l.cpu_rows + l.irq_rows + l.spike_rows + 1, 24, "every line used");
	ok(l.irq_rows >= 3 && l.spike_rows >= 3, "both panels shown (irq %d, spikes %d)",
	   l.irq_rows, l.spike_rows);
	ok(l.cols.spark_marks >= RTM_DASH_SPARK_MIN, "a sparkline at 80 columns (%d marks)",
	   l.cols.spark_marks);
	rtm_dash_layout(30, 120, 2, RTM_PANEL_CPUS, &l);
	ok(l.cols.spark_marks > 20, "a longer one at 120 columns (%d marks)", l.cols.spark_marks);

	rtm_dash_layout(24, 80, 256, RTM_PANEL_CPUS, &l);
	is_int(l.header + l.cpu_rows + 1, 24, "256 CPUs, table focused: the table takes the rest");
	is_int(l.irq_rows + l.spike_rows, 0, "and the panels make room");
	rtm_dash_layout(24, 80, 256, RTM_PANEL_IRQ, &l);
	ok(l.cpu_rows == 3 && l.irq_rows == 13 && l.spike_rows == 4,
	   "IRQ panel focused: it gets the room (%d rows, spikes %d)", l.irq_rows, l.spike_rows);
	is_int(l.header + l.cpu_rows + l.irq_rows + l.spike_rows + 1, 24, "every line used");
	rtm_dash_layout(24, 80, 256, RTM_PANEL_SPIKES, &l);
	ok(l.spike_rows > l.irq_rows, "spike log focused: it gets more than the IRQ panel");

	rtm_dash_layout(12, 60, 4, RTM_PANEL_CPUS, &l);
	ok(!l.too_small && l.header == 1 && l.cpu_rows == 5, "60x12: one header line, all CPUs");
	is_int(l.header + l.cpu_rows + l.irq_rows + l.spike_rows + 1, 12, "every line used");
	rtm_dash_layout(7, 80, 2, RTM_PANEL_CPUS, &l);
	ok(l.too_small, "80x7 is too small");
	rtm_dash_layout(24, 39, 2, RTM_PANEL_CPUS, &l);
	ok(l.too_small, "39 columns is too small");
}

/* The noise panel (monitor --noise-cpus): carved from the spike log, then the IRQ panel. */
static void noise_layouts(void)
{
	struct rtm_dash_layout l, b;
	int total;

	rtm_dash_layout(24, 80, 2, RTM_PANEL_CPUS, &b);
	l = b;
	rtm_dash_layout_noise(&l, 2);
	total = l.header + l.cpu_rows + l.irq_rows + l.spike_rows + l.noise_rows + 1;
	ok(l.noise_rows == 3 && l.cpu_rows == b.cpu_rows && total == 24,
	   "80x24: heading and 2 noise rows, the CPU table kept, every line used (%d)",
	   l.noise_rows);
	ok(l.spike_rows == b.spike_rows - 3 && l.irq_rows == b.irq_rows,
	   "taken from the spike log first");
	l = b;
	rtm_dash_layout_noise(&l, 64);
	ok(l.spike_rows == 3 && l.irq_rows == 3 && l.cpu_rows == b.cpu_rows,
	   "64 noise CPUs: both panels keep their heading and 2 rows");
	ok(l.noise_rows == b.spike_rows + b.irq_rows - 6, "and the noise panel takes the rest");
	rtm_dash_layout(12, 60, 4, RTM_PANEL_CPUS, &b);
	l = b;
	rtm_dash_layout_noise(&l, 1);
	total = l.header + l.cpu_rows + l.irq_rows + l.spike_rows + l.noise_rows + 1;
	ok(total == 12 && (l.noise_rows == 2 || l.noise_rows == 0),
	   "60x12: the noise panel whole (2 rows) or not at all, every line used (%d)",
	   l.noise_rows);
	l = b;
	rtm_dash_layout_noise(&l, 0);
	ok(!l.noise_rows && l.spike_rows == b.spike_rows, "no noise CPU: no panel");
	rtm_dash_layout(7, 80, 2, RTM_PANEL_CPUS, &l);
	rtm_dash_layout_noise(&l, 2);
	ok(!l.noise_rows, "too small a screen: no panel");
}

/* The shown columns as a string of their names, "CPU cur min ..." */
static void col_names(const struct rtm_dash_cols *c, char *buf, size_t len)
{
	static const char *const names[RTM_COL_N] = { "CPU", "cur", "min", "avg", "p99", "p99.9",
						       "max", "samples", "overruns", "spark" };
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < RTM_COL_N; i++)
		if (c->shown[i])
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "",
						 names[i]);
}

/* The table fits the width: columns in order, apart, none past the edge. */
static bool cols_fit(const struct rtm_dash_cols *c, int ncols)
{
	int i, end = 0;

	for (i = 0; i < RTM_COL_N; i++) {
		if (!c->shown[i])
			continue;
		if (c->x[i] < end + (end ? 1 : 0) || c->width[i] <= 0)
			return false;
		end = c->x[i] + c->width[i];
	}
	return end <= ncols;
}

static void columns(void)
{
	static const struct {
		int ncols;
		const char *shown;
		int marks;
		const char *head;
	} cases[] = {
		{ 40, "CPU cur p99 max", 0, "" },
		{ 44, "CPU cur p99 max overruns", 0, "" },
		{ 54, "CPU cur p99 max overruns spark", 8, "maxima" },
		{ 80, "CPU cur min avg p99 max overruns spark", 14, "max/refresh" },
		{ 100, "CPU cur min avg p99 p99.9 max samples overruns spark", 13, "max/refresh" },
		{ 120, "CPU cur min avg p99 p99.9 max samples overruns spark", 33,
		  "max per refresh" },
		{ 200, "CPU cur min avg p99 p99.9 max samples overruns spark", RTM_DASH_SPARK_MAX,
		  "max per refresh" },
	};
	struct rtm_dash_cols c;
	char got[160];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rtm_dash_columns(cases[i].ncols, RTM_DASH_SPARK_MAX, &c);
		col_names(&c, got, sizeof(got));
		is_str(got, cases[i].shown, "the columns kept at this width");
		is_int(c.spark_marks, cases[i].marks, "the sparkline's marks");
		is_str(c.spark_head, cases[i].head, "its heading as wide as fits");
		ok(cols_fit(&c, cases[i].ncols), "%d columns: in order, apart, within the width",
		   cases[i].ncols);
		ok((int)strlen(c.spark_head) <= c.spark_marks,
		   "the heading no wider than the marks");
	}
	rtm_dash_columns(80, 0, &c);
	col_names(&c, got, sizeof(got));
	is_str(got, "CPU cur min avg p99 p99.9 max overruns", "no sparkline kept: its room goes "
	       "to the next columns");
}

/* @text broken at words: each line within @width, ends and starts at a word, nothing lost. */
static bool wrapped_at_words(const char *text, int width, int max, int *nlines, bool *cut)
{
	int start[16], len[16], i, n;
	char joined[2048] = "", words[2048];
	size_t off = 0;

	n = rtm_dash_wrap(text, width, max, start, len, cut);
	*nlines = n;
	for (i = 0; i < n; i++) {
		const char *s = text + start[i];

		if (len[i] > (*cut && i == n - 1 ? width - 4 : width) || len[i] <= 0)
			return false;
		if (s[0] == ' ' || (start[i] > 0 && s[-1] != ' '))
			return false;	/* begins inside a word */
		if (s[len[i]] != ' ' && s[len[i]] != '\0')
			return false;	/* ends inside a word */
		off += (size_t)snprintf(joined + off, sizeof(joined) - off, "%s%.*s", i ? " " : "",
					len[i], s);
	}
	/* the words of the text, spaces collapsed: all there unless cut */
	snprintf(words, sizeof(words), "%s", text);
	return *cut ? !strncmp(words, joined, strlen(joined)) : !strcmp(words, joined);
}

static void wraps(void)
{
	static const char *const files[] = { "inject-rt-6.1.json", "irq-stock-6.1.json",
		"nonpreempt-stock-6.1.json", "softirq-rt-6.1.json", "vm-stall-6.18.json" };
	static const int widths[] = { 80, 100, 120, 200 };
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
	int start[4], len[4], n;
	size_t f, w;
	bool cut;

	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		char path[4096];
		json_t *doc;
		const char *v;

		snprintf(path, sizeof(path), "%s/spikes/%s", data, files[f]);
		doc = json_load_file(path, 0, NULL);
		v = json_string_value(json_object_get(json_object_get(doc, "analysis"), "verdict"));
		if (!ok(v, "%s: a recorded verdict", files[f])) {
			json_decref(doc);
			continue;
		}
		for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
			int width = widths[w] - 28;	/* the spike log's cause column */
			int lines;
			bool good;

			good = wrapped_at_words(v, width, 16, &lines, &cut) && !cut;
			ok(good && (lines > 1) == ((int)strlen(v) > width),
			   "%s at %d columns: %d lines, each broken at a word", files[f],
			   widths[w], lines);
			good = wrapped_at_words(v, width, 1, &lines, &cut) && lines == 1;
			ok(good && cut == ((int)strlen(v) > width),
			   "%s at %d columns in one line: cut at a word, room for \" ...\"",
			   files[f], widths[w]);
		}
		json_decref(doc);
	}
	n = rtm_dash_wrap("short", 80, 3, start, len, &cut);
	ok(n == 1 && len[0] == 5 && !cut, "a short text: one line, whole");
	n = rtm_dash_wrap("aaaaaaaaaaaa bb", 4, 4, start, len, &cut);
	ok(n == 4 && len[0] == 4 && len[2] == 4 && len[3] == 2 && start[3] == 13 && !cut,
	   "a word wider than the line is cut (nothing else fits), the next word whole");
	n = rtm_dash_wrap("", 10, 3, start, len, &cut);
	ok(n == 0 && !cut, "an empty text: no line");
	n = rtm_dash_wrap("a b", 0, 3, start, len, &cut);
	ok(n == 0, "no width: no line");
}

/* monitor --once: the IRQ line says which figure is what, on which CPUs. */
static void plain_irqs(void)
{
	struct rtm_mon mo;
	struct rtm_dash d;
	struct rtm_error err = { "" };
	char *text = NULL;
	size_t len = 0;
	const char *line;

	rtm_mon_init(&mo);
	if (rtm_cpulist_parse("0-1", &mo.m.probe.cpus, &err)) {
		ok(0, "CPU list: %s", err.msg);
		return;
	}
	mo.nirqs = 3;
	snprintf(mo.irqs[0].name, sizeof(mo.irqs[0].name), "LOC");
	snprintf(mo.irqs[0].desc, sizeof(mo.irqs[0].desc), "Local timer interrupts");
	mo.irqs[0].rate = 3344;
	snprintf(mo.irqs[1].name, sizeof(mo.irqs[1].name), "42");
	snprintf(mo.irqs[1].desc, sizeof(mo.irqs[1].desc), "virtio0-input.0");
	mo.irqs[1].rate = 1;
	snprintf(mo.irqs[2].name, sizeof(mo.irqs[2].name), "24");
	mo.irqs[2].rate = 7.4;
	memset(&d, 0, sizeof(d));
	d.mo = &mo;
	d.out = open_memstream(&text, &len);
	rtm_dash_print_plain(&d);
	fclose(d.out);
	line = text ? strstr(text, "\nirq/s") : NULL;
	ok(text && strstr(text, "\nirq/s, CPUs 0-1 together: LOC 3344/s, irq 42 "
			  "(virtio0-input.0) 1/s, irq 24 7/s\n"),
	   "each figure with its unit, a numbered IRQ named so, the CPUs counted together");
	if (line)
		diag("%.*s", (int)strcspn(line + 1, "\n"), line + 1);
	free(text);
	text = NULL;
	rtm_cpulist_release(&mo.m.probe.cpus);
	rtm_cpulist_parse("3", &mo.m.probe.cpus, &err);
	mo.nirqs = 1;
	d.out = open_memstream(&text, &len);
	rtm_dash_print_plain(&d);
	fclose(d.out);
	ok(text && strstr(text, "\nirq/s, CPU 3: LOC 3344/s\n"), "one CPU: named, no \"together\"");
	free(text);
	rtm_session_opts_release(&mo.m);
}

/* monitor --io: the storage panel takes its rows as the noise panel does. */
static void io_layouts(void)
{
	struct rtm_dash_layout l, b;
	int total;

	rtm_dash_layout(24, 80, 2, RTM_PANEL_CPUS, &b);
	l = b;
	rtm_dash_layout_noise(&l, 1);
	rtm_dash_layout_io(&l, 2);
	total = l.header + l.cpu_rows + l.irq_rows + l.spike_rows + l.noise_rows + l.io_rows + 1;
	ok(l.io_rows == 3 && l.noise_rows == 2 && l.cpu_rows == b.cpu_rows && total == 24,
	   "80x24: a heading and 2 operations beside 1 noise CPU, every line used (%d)",
	   l.io_rows);
	l = b;
	rtm_dash_layout_io(&l, 0);
	ok(!l.io_rows && l.spike_rows == b.spike_rows, "no --io: no panel");
	rtm_dash_layout(7, 80, 2, RTM_PANEL_CPUS, &l);
	rtm_dash_layout_io(&l, 2);
	ok(!l.io_rows, "too small a screen: no panel");
}

/* A miss of the recorded run's miss_list (times from its plan) as the probe keeps it. */
static void io_miss_of(const json_t *m, struct rtm_io_miss *out)
{
	uint64_t planned = (uint64_t)json_integer_value(json_object_get(m, "planned_mono_ns"));

	memset(out, 0, sizeof(*out));
	out->planned_ns = planned;
	out->issue_ns = planned + (uint64_t)json_integer_value(json_object_get(m, "lateness_ns"));
	out->done_ns = planned + (uint64_t)json_integer_value(json_object_get(m, "latency_ns"));
	out->op = RTM_IO_RANDREAD;
}

/*
 * monitor --io: an operation's line from the figures of a recorded io run
 * (tests/data/results/vm-6.18-io, its io-summary.txt: randread 3000 requests,
 * p99 982.0 us, max 5344.1 us, 165 misses over 300 us).
 */
static void io_line(void)
{
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
	char path[4096], cells[RTM_DASH_IO_CELLS][64], *text = NULL;
	const json_t *io, *rr, *list;
	struct rtm_error err = { "" };
	struct rtm_io_oprec rec;
	struct rtm_mon mo;
	struct rtm_dash d;
	size_t len = 0;
	json_t *doc;

	snprintf(path, sizeof(path), "%s/results/vm-6.18-io/result.json", data);
	doc = json_load_file(path, 0, NULL);
	io = json_object_get(json_object_get(doc, "sections"), "io");
	rr = json_object_get(json_object_get(io, "ops"), "randread");
	list = json_object_get(io, "miss_list");
	memset(&rec, 0, sizeof(rec));
	rec.latency = rtm_hist_alloc();
	if (!ok(rr && rec.latency && !rtm_hist_from_json(rec.latency,
							 json_object_get(rr, "latency"), &err),
		"the recorded randread histogram (%s)", err.msg))
		goto out;
	rec.count = (uint64_t)json_integer_value(json_object_get(rr, "count"));
	rec.misses = (uint64_t)json_integer_value(json_object_get(rr, "misses"));
	rtm_mon_init(&mo);
	mo.nio = 1;
	mo.io[0].op = RTM_IO_RANDREAD;
	rtm_mon_io_fill(&mo.io[0], &rec);
	rtm_dash_io_cells(&mo.io[0], cells);
	ok(!strcmp(cells[0], "randread") && !strcmp(cells[1], "3000") &&
	   !strcmp(cells[2], "982 us") && !strcmp(cells[3], "5.34 ms") && !strcmp(cells[4], "165"),
	   "randread, 3000 requests, p99 982 us, max 5.34 ms, 165 misses as io's summary has them "
	   "(%s %s %s %s %s)", cells[0], cells[1], cells[2], cells[3], cells[4]);
	ok(!strcmp(cells[5], "-"), "no miss kept yet: \"-\" (%s)", cells[5]);
	/* the last miss: issued 185 us late, served in 141 us */
	io_miss_of(json_array_get(list, json_array_size(list) - 1), &mo.io[0].last);
	mo.io[0].missed = true;
	rtm_dash_io_cells(&mo.io[0], cells);
	ok(!strcmp(cells[5], "326 us: issued 185 us late"), "a late issue named so (%s)", cells[5]);
	/* the first: served in 285 us, issued 28.8 us late */
	io_miss_of(json_array_get(list, 0), &mo.io[0].last);
	rtm_dash_io_cells(&mo.io[0], cells);
	ok(!strcmp(cells[5], "314 us: service 285 us"), "a slow service named so (%s)", cells[5]);
	mo.io_probe.deadline_ns = 300000;
	mo.io_probe.cpu = 1;
	memset(&d, 0, sizeof(d));
	d.mo = &mo;
	d.out = open_memstream(&text, &len);
	rtm_dash_io_plain(&mo, d.out);
	fclose(d.out);
	ok(text && !strcmp(text, "io randread CPU1: 3000 requests, p99 982 us, max 5.34 ms, 165 "
			   "misses over 300 us, latest miss 314 us: service 285 us\n"),
	   "the plain line: %s", text ? text : "(none)");
	free(text);
	/* 50 requests: too few for p99, "-" by the one rule */
	rtm_hist_reset(rec.latency);
	rtm_hist_record_n(rec.latency, 100000, 50);
	rec.count = 50;
	rtm_mon_io_fill(&mo.io[0], &rec);
	rtm_dash_io_cells(&mo.io[0], cells);
	ok(!strcmp(cells[2], "-") && strcmp(cells[3], "-"), "50 requests: p99 \"-\", max shown "
	   "(%s, %s)", cells[2], cells[3]);
	rtm_session_opts_release(&mo.m);
out:
	rtm_hist_free(rec.latency);
	json_decref(doc);
}

/* monitor --wakeup: the tasks panel takes its rows as the others do; "+N more" past them. */
static void wakeup_layouts(void)
{
	struct rtm_dash_layout l, b;
	int total, more;

	rtm_dash_layout(24, 80, 2, RTM_PANEL_CPUS, &b);
	l = b;
	rtm_dash_layout_wakeup(&l, 3);
	total = l.header + l.cpu_rows + l.irq_rows + l.spike_rows + l.wk_rows + 1;
	ok(l.wk_rows == 4 && l.cpu_rows == b.cpu_rows && total == 24,
	   "80x24: a heading and 3 tasks, every line used (%d)", l.wk_rows);
	l = b;
	rtm_dash_layout_wakeup(&l, 0);
	ok(l.wk_rows == 2, "no task yet: the heading and a line saying so (%d)", l.wk_rows);
	l = b;
	rtm_dash_layout_wakeup(&l, -1);
	ok(!l.wk_rows && l.spike_rows == b.spike_rows, "no --wakeup: no panel");
	l = b;
	rtm_dash_layout_wakeup(&l, 500);
	total = l.header + l.cpu_rows + l.irq_rows + l.spike_rows + l.wk_rows + 1;
	ok(l.wk_rows >= 2 && l.wk_rows < 501 && l.cpu_rows == b.cpu_rows && total == 24,
	   "500 tasks: the rows there are (%d), the CPU table kept", l.wk_rows);
	is_int(rtm_dash_wakeup_shown(l.wk_rows, 500, &more), l.wk_rows - 1,
	       "a task a row under the heading");
	is_int(more, 500 - (l.wk_rows - 1), "the others: \"+N more\"");
	is_int(rtm_dash_wakeup_shown(6, 3, &more), 3, "3 tasks in 6 rows: all");
	is_int(more, 0, "none more");
	is_int(rtm_dash_wakeup_shown(0, 3, &more), 0, "no rows: none shown");
	is_int(more, 3, "all 3 more");
	l = b;
	l.too_small = true;
	rtm_dash_layout_wakeup(&l, 3);
	ok(!l.wk_rows, "too small a screen: no panel");
}

/* A recorded task of sections.wakeup as the programs' table holds it. */
static void wk_task_of(const json_t *t, struct rtm_wk_task *out)
{
	const char *comm = json_string_value(json_object_get(t, "comm"));
	uint64_t count = (uint64_t)json_integer_value(json_object_get(t, "count"));

	memset(out, 0, sizeof(*out));
	out->pid = (uint32_t)json_integer_value(json_object_get(t, "pid"));
	out->tgid = (uint32_t)json_integer_value(json_object_get(t, "tgid"));
	out->policy = 1;	/* all FIFO in the recording */
	out->prio = 99 - (int)json_integer_value(json_object_get(t, "rt_priority"));
	out->count = count;
	out->sum_ns = (uint64_t)json_integer_value(json_object_get(t, "avg_ns")) * count;
	out->max_ns = (uint64_t)json_integer_value(json_object_get(t, "max_ns"));
	out->above = (uint64_t)json_integer_value(json_object_get(t, "above"));
	snprintf(out->comm, sizeof(out->comm), "%s", comm ? comm : "?");
}

/* The plain form's wakeup lines of @mo, in a string to free. */
static char *wakeup_plain(const struct rtm_mon *mo)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	rtm_dash_wakeup_plain(mo, f);
	fclose(f);
	return text;
}

/*
 * monitor --wakeup: the tasks of a recorded wakeup run (tests/data/results/
 * vm-6.18-wakeup: cyclictest at FIFO 80 and two rtmeasure runs' probe threads,
 * of processes 23284 and 24290) as the monitor of process 23284 shows them:
 * its own threads left out, the worst first, the figures through rtm_fmt_ns.
 */
static void wakeup_rows(void)
{
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
	char path[4096], cells[RTM_DASH_WK_CELLS][64], *text;
	struct rtm_wakeup_snap *s = rtm_wakeup_snap_alloc(2, 32);
	const json_t *tasks;
	struct rtm_mon mo;
	json_t *doc;
	size_t i, n;
	uint32_t k;

	snprintf(path, sizeof(path), "%s/results/vm-6.18-wakeup/result.json", data);
	doc = json_load_file(path, 0, NULL);
	tasks = json_object_get(json_object_get(json_object_get(doc, "sections"), "wakeup"),
				"tasks");
	n = json_array_size(tasks);
	if (!ok(s && n == 7, "the recorded tasks (%zu)", n))
		goto out;
	for (i = 0; i < n; i++)		/* the table's order is the map's: not sorted */
		wk_task_of(json_array_get(tasks, n - 1 - i), &s->tasks[i]);
	s->ntasks = (uint32_t)n;
	rtm_mon_wakeup_others(s, 23284);
	is_int((int)s->ntasks, 5, "the monitor's own 2 threads left out");
	for (k = 0; k < s->ntasks; k++)
		if (s->tasks[k].tgid == 23284 || (k && s->tasks[k].max_ns > s->tasks[k - 1].max_ns))
			break;
	ok(k == s->ntasks, "none of its process, sorted by max, longest first");
	rtm_dash_wakeup_cells(&s->tasks[1], cells);
	ok(!strcmp(cells[0], "cyclictest") && !strcmp(cells[1], "22862") &&
	   !strcmp(cells[2], "FIFO 80") && !strcmp(cells[3], "4974") &&
	   !strcmp(cells[4], "8.29 us") && !strcmp(cells[5], "177 us") && !strcmp(cells[6], "2"),
	   "cyclictest's cells: %s %s %s %s %s %s %s", cells[0], cells[1], cells[2], cells[3],
	   cells[4], cells[5], cells[6]);
	rtm_mon_init(&mo);
	mo.wk_on = true;
	mo.wk_snap = s;
	mo.nwk = (int)s->ntasks;
	mo.wk_sel.above_ns = 100000;
	text = wakeup_plain(&mo);
	ok(text && !strcmp(text,
	   "wakeup rtm-probe/1 pid 24381 FIFO 95: 1002 wake-ups, avg 11.7 us, max 279 us, "
	   "3 over 100 us\n"
	   "wakeup cyclictest pid 22862 FIFO 80: 4974 wake-ups, avg 8.29 us, max 177 us, "
	   "2 over 100 us\n"
	   "wakeup rtm-probe/0 pid 24377 FIFO 95: 994 wake-ups, avg 7.72 us, max 72.3 us, "
	   "0 over 100 us\n"
	   "wakeup migration/1 pid 23 FIFO 99: 38 wake-ups, avg 3.37 us, max 12.9 us, "
	   "0 over 100 us\n"
	   "wakeup migration/0 pid 18 FIFO 99: 44 wake-ups, avg 2.45 us, max 7.50 us, "
	   "0 over 100 us\n"),
	   "the plain lines, a task each, the worst first");
	if (text)
		fprintf(stderr, "%s", text);
	free(text);
	/* more tasks than the plain form prints: the worst RTM_WAKEUP_TOP and "+N more" */
	for (k = 0; k < 25; k++) {
		s->tasks[k] = s->tasks[0];
		s->tasks[k].pid = 1000 + k;
		s->tasks[k].max_ns = 1000000 - k;
	}
	mo.nwk = 25;
	text = wakeup_plain(&mo);
	ok(text && strstr(text, "pid 1019 ") && !strstr(text, "pid 1020 ") &&
	   strstr(text, "\nwakeup: +5 more tasks\n"), "25 tasks: 20 lines and \"+5 more\"");
	free(text);
	mo.nwk = 0;
	text = wakeup_plain(&mo);
	ok(text && !strcmp(text, "wakeup: no wake-up of a selected task yet\n"),
	   "no task yet: said so");
	free(text);
	mo.wk_on = false;
	text = wakeup_plain(&mo);
	ok(text && !text[0], "no --wakeup: no line");
	free(text);
	rtm_session_opts_release(&mo.m);
out:
	rtm_wakeup_snap_free(s);
	json_decref(doc);
}

/* The lines of @page that start with @prefix, in a string to free. */
static char *lines_of(const char *page, const char *prefix)
{
	char *text = NULL;
	size_t len = 0, n;
	FILE *f = open_memstream(&text, &len);
	const char *l;

	if (!f)
		return NULL;
	for (l = page; l && *l; l += n + (l[n] == '\n')) {
		n = strcspn(l, "\n");
		if (!strncmp(l, prefix, strlen(prefix)))
			fprintf(f, "%.*s\n", (int)n, l);
	}
	fclose(f);
	return text;
}

/* The live page of @r as the monitor's --prometheus writes it: one CPU of the timer probe. */
static char *live_page(const struct rtm_result *r)
{
	struct rtm_prom_run run = { .trace_lost = -1, .spikes_captured = -1 };
	struct rtm_prom_target t;
	struct rtm_prom_cpu cpu = { .cpu = 0 };
	struct rtm_hist *h = rtm_hist_alloc();
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f && h) {
		rtm_hist_record(h, 5000);
		rtm_prom_hist_from(&cpu.run, h, 0, 0);
		rtm_prom_target_from_sysinfo(&t, r->sysinfo, "timer", 0);
		rtm_prom_run_wakeup(&run, r);
		rtm_prom_write(f, RTM_PROM_TEXT, &t, &cpu, 1, &run);
	}
	if (f)
		fclose(f);
	rtm_hist_free(h);
	return text;
}

/* export --prometheus of @r, in a string to free. */
static char *export_page(const struct rtm_result *r)
{
	struct rtm_error err = { "" };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f) {
		rtm_prom_write_result(f, RTM_PROM_TEXT, r, &err);
		fclose(f);
	}
	return text;
}

/*
 * monitor --wakeup's tasks (the recorded ones, as wakeup_rows has them) where
 * -o has them: in the live result of --prometheus at each refresh, whose page
 * then has export's tasks' series beside the timer probe's CPU, and in a
 * snapshot (the s key), marked beside_probe as -o marks them.
 */
static void wakeup_results(void)
{
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
	char path[4096], tmp[4096], *live, *exp, *a, *b;
	struct rtm_wakeup_snap *s = rtm_wakeup_snap_alloc(2, 32);
	struct rtm_error err = { "" };
	struct rtm_result *snap;
	const json_t *tasks, *sec;
	struct rtm_mon mo;
	json_t *doc;
	size_t i, n;

	snprintf(path, sizeof(path), "%s/results/vm-6.18-wakeup/result.json", data);
	doc = json_load_file(path, 0, NULL);
	tasks = json_object_get(json_object_get(json_object_get(doc, "sections"), "wakeup"),
				"tasks");
	n = json_array_size(tasks);
	snprintf(tmp, sizeof(tmp), "%s/rtm-dashfmt-XXXXXX", getenv("TMPDIR") ?: "/tmp");
	if (!ok(s && n == 7 && mkdtemp(tmp), "the recorded tasks (%zu), a folder", n))
		goto out;
	for (i = 0; i < n; i++)
		wk_task_of(json_array_get(tasks, i), &s->tasks[i]);
	s->ntasks = (uint32_t)n;
	rtm_mon_wakeup_others(s, 23284);
	rtm_mon_init(&mo);
	mo.wk_on = true;
	mo.wk_snap = s;
	mo.wk_sel.above_ns = 100000;
	mo.live = rtm_result_alloc("monitor");

	/* --prometheus: the refresh puts the tasks in the live result */
	rtm_mon_wakeup_refresh(&mo);
	sec = mo.live ? json_object_get(mo.live->sections, "wakeup") : NULL;
	ok(json_is_true(json_object_get(sec, "beside_probe")) &&
	   json_array_size(json_object_get(sec, "tasks")) == 5 &&
	   json_integer_value(json_object_get(sec, "above_ns")) == 100000,
	   "a refresh: the live result's sections.wakeup, its 5 tasks beside the probe");
	live = sec ? live_page(mo.live) : NULL;
	exp = sec ? export_page(mo.live) : NULL;
	a = live ? lines_of(live, "rtmeasure_task_") : NULL;
	b = exp ? lines_of(exp, "rtmeasure_task_") : NULL;
	ok(a && b && strstr(a, "rtmeasure_task_wakeup_per_task_wakeups_total{probe=\"timer\","
	   "host=\"unknown\",kernel=\"unknown\",preempt_model=\"unknown\",comm=\"cyclictest\","
	   "pid=\"22862\",tgid=\"22860\"} 4974\n") && !strcmp(a, b),
	   "the live page: export's tasks' series, probe=\"timer\"");
	ok(live && strstr(live, "\nrtmeasure_wakeup_latency_seconds_count{cpu=\"0\"") &&
	   !strstr(live, "rtmeasure_task_wakeup_latency_seconds"),
	   "its CPU the timer probe's, not the tasks' waits");
	if (a)
		diag("%.*s", (int)strcspn(a, "\n"), a);
	free(a);
	free(b);
	free(live);
	free(exp);

	/* the s key: a snapshot with the tasks, which loads as a result */
	mo.m.out.outdir = tmp;
	rtm_mon_save_snapshot(&mo);
	snprintf(path, sizeof(path), "%s/snapshot-001", tmp);
	snap = rtm_result_load(path, &err);
	sec = snap ? json_object_get(snap->sections, "wakeup") : NULL;
	ok(!strncmp(mo.message, "saved ", 6) && json_is_true(json_object_get(sec, "beside_probe")) &&
	   json_array_size(json_object_get(sec, "tasks")) == 5 &&
	   !strcmp(json_string_value(json_object_get(json_array_get(json_object_get(sec, "tasks"),
	   1), "comm")) ?: "", "cyclictest"), "a snapshot has sections.wakeup as -o (%s%s)",
	   mo.message, err.msg);
	rtm_result_free(snap);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmp);
	if (system(path))
		diag("cannot remove %s", tmp);
	mo.m.out.outdir = NULL;
	rtm_result_free(mo.live);
	rtm_session_opts_release(&mo.m);
out:
	rtm_wakeup_snap_free(s);
	json_decref(doc);
}

int main(void)
{
	levels();
	sparklines();
	layouts();
	noise_layouts();
	columns();
	wraps();
	plain_irqs();
	io_layouts();
	io_line();
	wakeup_layouts();
	wakeup_rows();
	wakeup_results();
	return tap_done();
}
