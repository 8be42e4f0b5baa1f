// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the report of a noise result (lib/present/report_noise.c) on the noise
 * run recorded here (tests/data/results/vm-6.18-noise): the per-CPU table's
 * cells are result.json's figures, a null in the section shows as unknown, the
 * gap causes (built onto the recorded section as noise --trace writes them) and
 * osnoise's interference counts get their tables, the long gaps are listed with
 * their main cause, and a damaged section is refused in one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/report.h"
#include "core/units.h"
#include "../tap.h"

#define NOISE_RESULT RTM_SRCDIR "/tests/data/results/vm-6.18-noise/result.json"
/* a run --noise result: latency CPUs and sections.noise with its phase */
#define RUN_NOISE_RESULT RTM_SRCDIR "/tests/data/compare/noise-a1/result.json"

static char *page(const struct rtm_result *r, bool html, const char *img, bool pdf)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	rtm_report_noise_page(f, r, html, img, pdf, RTM_REPORT_NOISE_GAPS);
	fclose(f);
	return text;
}

static json_t *cpu_of(const struct rtm_result *r, size_t i)
{
	return json_array_get(json_object_get(json_object_get(r->sections, "noise"), "cpus"), i);
}

/* Every CPU's row against its JSON, then CPU 0's figures as written out. */
static void rows(const struct rtm_result *r)
{
	struct rtm_report_noise_row rw;
	const json_t *c;
	char want[32];
	size_t i;

	json_array_foreach(json_object_get(json_object_get(r->sections, "noise"), "cpus"), i, c) {
		ok(rtm_report_noise_row(c, &rw) == 0, "CPU %zu: a row", i);
		is_int(rw.cpu, json_integer_value(json_object_get(c, "cpu")), "its CPU number");
		rtm_fmt_us(want, sizeof(want),
			   (uint64_t)json_integer_value(json_object_get(c, "sampled_ns")));
		is_str(rw.runtime, want, "runtime = sampled_ns in us");
		rtm_fmt_us(want, sizeof(want),
			   (uint64_t)json_integer_value(json_object_get(c, "noise_ns")));
		is_str(rw.noise, want, "noise = noise_ns in us");
		rtm_fmt_us(want, sizeof(want),
			   (uint64_t)json_integer_value(json_object_get(c, "max_gap_ns")));
		is_str(rw.max_gap, want, "max single gap = max_gap_ns in us");
		snprintf(want, sizeof(want), "%lld", json_integer_value(json_object_get(c, "gaps")));
		is_str(rw.gaps, want, "gaps = gaps");
		snprintf(want, sizeof(want), "%lld",
			 json_integer_value(json_object_get(c, "above_report")));
		is_str(rw.above, want, "gaps above report_above_ns = above_report");
	}
	rtm_report_noise_row(cpu_of(r, 0), &rw);
	ok(!strcmp(rw.runtime, "999822.7") && !strcmp(rw.noise, "27676.9") &&
	   !strcmp(rw.avail, "97.23182") && !strcmp(rw.max_gap, "680.0") &&
	   !strcmp(rw.gaps, "1307") && !strcmp(rw.period, "11.4") && !strcmp(rw.above, "830"),
	   "CPU 0: runtime 999822.7 us, noise 27676.9 us, 97.23182 %% available, max 680.0 us, "
	   "1307 gaps, period 11.4 ns, 830 above 20 us (%s %s %s %s %s %s %s)", rw.runtime,
	   rw.noise, rw.avail, rw.max_gap, rw.gaps, rw.period, rw.above);
	rtm_report_noise_row(cpu_of(r, 1), &rw);
	is_str(rw.avail, "97.28621", "CPU 1: 100 - 100 x 27134058 / 999857980 % available");
}

/* hwlat's section: runtime, noise, loops, period are null there. */
static void nulls(void)
{
	json_t *c = json_pack("{s:i, s:n, s:n, s:n, s:n, s:n, s:i, s:i}", "cpu", 3, "sampled_ns",
			      "noise_ns", "loops", "sample_period_ns", "windows", "max_gap_ns",
			      12345, "gaps", 4);
	struct rtm_report_noise_row rw;

	ok(rtm_report_noise_row(c, &rw) == 0, "a hwlat CPU: a row");
	ok(!strcmp(rw.runtime, "unknown") && !strcmp(rw.noise, "unknown") &&
	   !strcmp(rw.avail, "unknown") && !strcmp(rw.period, "unknown"),
	   "null runtime, noise, period: unknown, and so is %% available (%s %s %s %s)",
	   rw.runtime, rw.noise, rw.avail, rw.period);
	ok(!strcmp(rw.max_gap, "12.3") && !strcmp(rw.gaps, "4") && !strcmp(rw.above, "unknown"),
	   "the figures it has are shown, an absent one unknown (%s %s %s)", rw.max_gap, rw.gaps,
	   rw.above);
	json_object_set_new(c, "sampled_ns", json_integer(0));
	json_object_set_new(c, "noise_ns", json_integer(0));
	rtm_report_noise_row(c, &rw);
	is_str(rw.avail, "unknown", "nothing sampled: % available unknown, not 100");
	json_object_del(c, "cpu");
	ok(rtm_report_noise_row(c, &rw) == -EINVAL, "no cpu number: no row");
	json_decref(c);
}

static void recorded_page(const struct rtm_result *r)
{
	char *md = page(r, false, "/x/plots/noise_hist.png", false), *html = page(r, true, NULL, true);

	ok(strstr(md, "| 0 | 999822.7 | 27676.9 | 97.23182 | 680.0 | 1307 | 11.4 | 830 |\n") &&
	   strstr(md, "| 1 | 999858.0 | 27134.1 | 97.28621 | 686.0 | 1311 | 11.2 | 631 |\n"),
	   "report.md: the per-CPU table with result.json's figures");
	ok(strstr(md, "| host | vm |") && strstr(md, "| kernel | 6.18.44-fc-v1252 |") &&
	   strstr(md, "| preemption model | none (PREEMPT\\_DYNAMIC) |") &&
	   strstr(md, "busy 500 ms of every 1.00 s; a gap is longer than 1.00 us; gaps above "
		  "20.0 us listed"),
	   "report.md: host, kernel, preemption model, window/width/threshold");
	/* the busy parts sampled, not the run's length: a duty cycle samples half of it */
	ok(strstr(md, "| time | sampled 1.000 s per CPU in 1.506 s of wall time (duty cycle 50%: "
		  "busy 500 ms of every 1.00 s) |") != NULL,
	   "report.md: the time sampled per CPU against the wall time, with the duty cycle");
	ok(strstr(md, "| backend | user: no reason recorded"),
	   "a result from before the backends: user, and no reason made up");
	ok(!strstr(md, "Gap causes") && !strstr(md, "Interference"),
	   "untraced busy loop: no causes table, no interference table");
	ok(strstr(md, "| 0 | 0.000711 | 41.3 | not traced (noise --trace) |\n") != NULL,
	   "CPU 0's 41.3 us gap at 0.000711 s is listed");
	ok(!strstr(md, "| 0 | 0.002145 |"), "its 18.8 us gap (below 20 us) is not");
	ok(strstr(md, "2578 gaps were counted but not kept") != NULL,
	   "the gaps --max-gaps dropped (1287 + 1291) are said");
	ok(strstr(md, "](plots/noise_hist.png)") && !strstr(md, ".pdf"),
	   "report.md links the plot, and no PDF when none was asked for");
	ok(strstr(html, "<td class=\"l\">0</td><td>999822.7</td><td>27676.9</td>"
		  "<td>97.23182</td><td>680.0</td><td>1307</td>") != NULL,
	   "report.html: the same row");
	ok(strstr(html, "No CPU had a gap: nothing to plot.") && strstr(html, "</html>") &&
	   !strstr(html, ".pdf"), "report.html without a plot says so (no PDF link) and is whole");
	free(md);
	free(html);
}

/* The recorded section with what noise --trace and osnoise add. */
static void traced(struct rtm_result *r)
{
	json_t *noise = json_object_get(r->sections, "noise"), *c0 = cpu_of(r, 0), *gc;
	char *md, *html;
	size_t i;

	json_object_set_new(noise, "attribution",
			    json_pack("{s:i, s:i, s:i, s:i, s:b}", "tolerance_base_ns", 5000,
				      "tolerance_ppm", 100, "events_lost", 0,
				      "intervals_dropped", 0, "complete", 1));
	json_object_set_new(c0, "causes", json_pack(
		"{s:I, s:i, s:i, s:I, s:I, s:i, s:i, s:i, s:i, s:i, s:[{s:s, s:s, s:s, s:i, "
		"s:s, s:I, s:i, s:i}, {s:s, s:s, s:s, s:i, s:s, s:I, s:i, s:i}], s:n, s:s}",
		"irq_ns", (json_int_t)18500000, "softirq_ns", 0, "nmi_ns", 0,
		"thread_ns", (json_int_t)41000, "unexplained_ns", (json_int_t)900000,
		"irq_gaps", 1250, "softirq_gaps", 0, "nmi_gaps", 0, "thread_gaps", 1,
		"unexplained_gaps", 56, "contributors",
		"class", "irq", "kind", "vector", "name", "local_timer", "id", 236,
		"label", "vector local_timer", "ns", (json_int_t)18500000, "gaps", 1300,
		"main_of", 1250,
		"class", "thread", "kind", "thread", "name", "kworker<1>", "id", 77,
		"label", "thread kworker<1> pid 77 (other 120)", "ns", (json_int_t)41000,
		"gaps", 1, "main_of", 1,
		"steal_ns", "unexplained", "not seen by any event: firmware or the hypervisor"));
	gc = json_array();
	for (i = 0; i < json_array_size(json_object_get(c0, "gap_list")); i++)
		json_array_append_new(gc, json_pack("[i, i, i]", i == 1 ? 1 : i == 4 ? -1 : 0,
						     1000, 0));
	json_object_set_new(c0, "gap_causes", gc);
	/* RT throttling: a class of its own; older results call it unknown */
	json_object_set_new(json_object_get(c0, "causes"), "rt_throttling_ns",
			    json_integer(53000000));
	json_object_set_new(json_object_get(c0, "causes"), "rt_throttling_gaps", json_integer(1));
	json_object_set_new(cpu_of(r, 1), "interference",
			    json_pack("{s:i, s:i, s:i, s:i, s:i}", "hw", 0, "nmi", 2, "irq", 1040,
				      "softirq", 3, "thread", 17));
	md = page(r, false, NULL, false);
	html = page(r, true, NULL, false);
	ok(strstr(md, "## Gap causes (tracepoints)") != NULL, "traced: the causes table");
	ok(strstr(md, "| 0 | 1250 gaps, 18500.0 us | 0 gaps, 0.0 us | 0 gaps, 0.0 us | "
		  "1 gaps, 41.0 us | 1 gaps, 53000.0 us | 56 gaps, 900.0 us |\n") != NULL,
	   "CPU 0's classes: main-cause gaps and time, as in causes");
	ok(strstr(md, "| 0 | vector local\\_timer | 18500.0 | 1300 | 1250 |\n") &&
	   strstr(md, "| 0 | thread kworker\\<1\\> pid 77 (other 120) | 41.0 | 1 | 1 |\n"),
	   "the top contributors with their time, gaps and main-cause counts");
	ok(strstr(md, "CPU 0: 900.0 us unexplained (not seen by any event: firmware or the "
		  "hypervisor)") != NULL, "the unexplained time with its wording");
	ok(strstr(md, "| 0 | 0.000711 | 41.3 | thread kworker\\<1\\> pid 77 (other 120) |\n") &&
	   strstr(md, "| 0 | 0.000145 | 20.5 | vector local\\_timer |\n") &&
	   strstr(md, "| 0 | 0.003146 | 20.9 | unexplained |\n"),
	   "each listed gap with its main cause from gap_causes (-1: unexplained)");
	ok(strstr(md, "| 1 | 0.000710 | 37.6 | not traced (noise --trace) |\n") != NULL,
	   "a CPU without gap_causes: not traced");
	ok(strstr(md, "| 1 | 0 | 2 | 1040 | 3 | 17 |\n") != NULL,
	   "osnoise's interference counts of CPU 1");
	ok(strstr(html, "thread kworker&lt;1&gt; pid 77") != NULL, "HTML escapes the labels");
	json_object_set(json_object_get(noise, "attribution"), "complete", json_false());
	free(md);
	md = page(r, false, "plots/noise_hist.svg", true);
	ok(strstr(md, "[noise_hist.pdf](plots/noise_hist.pdf)") != NULL,
	   "--format pdf: report.md links the PDF");
	ok(strstr(md, "Incomplete: 0 events lost") != NULL, "incomplete attribution is said");
	free(md);
	free(html);
}

static void check(struct rtm_result *r)
{
	json_t *noise = json_object_get(r->sections, "noise"), *bad;
	struct rtm_error err = { "" };

	ok(rtm_report_noise_check(noise, &err) == 0, "the recorded section is fine (%s)", err.msg);
	bad = json_deep_copy(noise);
	json_object_set_new(json_object_get(json_array_get(json_object_get(bad, "cpus"), 1),
					    "hist"), "buckets", json_string("x"));
	ok(rtm_report_noise_check(bad, &err) == -EINVAL && one_line(err.msg) &&
	   strstr(err.msg, "sections.noise.cpus[1].hist"),
	   "a damaged histogram: refused, naming it (%s)", err.msg);
	json_decref(bad);
	bad = json_deep_copy(noise);
	json_object_set_new(json_array_get(json_object_get(bad, "cpus"), 0), "noise_ns",
			    json_string("lots"));
	ok(rtm_report_noise_check(bad, &err) == -EINVAL && one_line(err.msg) &&
	   strstr(err.msg, "sections.noise.cpus[0].noise_ns"),
	   "a noise_ns that is not a number: refused (%s)", err.msg);
	json_object_set_new(bad, "cpus", json_integer(2));
	ok(rtm_report_noise_check(bad, &err) == -EINVAL && one_line(err.msg),
	   "cpus not an array: refused (%s)", err.msg);
	json_decref(bad);
}

/* run --noise: the same tables as a section of the latency report, not a page. */
static void run_section(void)
{
	struct rtm_error err = { "" };
	struct rtm_result *r = rtm_result_load(RUN_NOISE_RESULT, &err);
	char *md = NULL, *html = NULL;
	size_t len = 0;
	FILE *f;

	ok(r && r->ncpus == 2 && json_object_get(r->sections, "noise"),
	   "the recorded run --noise result loads, with latency CPUs and noise (%s)", err.msg);
	if (!r)
		return;
	f = open_memstream(&md, &len);
	rtm_report_noise_section(f, r, false, "/x/plots/noise_hist.png", false, 5);
	fclose(f);
	f = open_memstream(&html, &len);
	rtm_report_noise_section(f, r, true, NULL, false, 5);
	fclose(f);
	ok(!strncmp(md, "## Noise\n\n", 10) && strstr(md, "\n### Noise per CPU\n") &&
	   strstr(md, "\n### Gap causes (tracepoints)\n") && !strstr(md, "\n# "),
	   "report.md's section: one ## heading, its parts ### below it, no page title");
	ok(strstr(md, "after the latency phase, on the same CPUs |") &&
	   strstr(md, "| backend | user: run --noise: the busy loop"),
	   "the duration says it came after the latency phase; the backend why");
	ok(!strncmp(html, "<h2>Noise</h2>", 14) && strstr(html, "<h3>Noise per CPU</h3>") &&
	   !strstr(html, "<html") && !strstr(html, "</html>"),
	   "report.html's section: h2 then h3 parts, inside the latency page (no html element)");
	free(md);
	free(html);
	md = NULL;
	f = open_memstream(&md, &len);
	json_object_del(r->sections, "noise");
	rtm_report_noise_section(f, r, false, NULL, false, 5);
	fclose(f);
	ok(md && !*md, "without sections.noise: nothing");
	free(md);
	rtm_result_free(r);
}

int main(void)
{
	struct rtm_error err = { "" };
	struct rtm_result *r = rtm_result_load(NOISE_RESULT, &err);

	ok(r != NULL, "the recorded noise result loads (%s)", err.msg);
	if (!r)
		return tap_done();
	rows(r);
	nulls();
	recorded_page(r);
	check(r);
	traced(r);
	rtm_result_free(r);
	run_section();
	return tap_done();
}
