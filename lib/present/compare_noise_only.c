// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare_noise_only.c - a comparison of results of rtmeasure noise alone (no
 * wake-up latency measured): each side's host and kernel, what disturbed it
 * (result/disturb.h: another rtmeasure on its CPUs, an interrupted run, a
 * hypervisor), then the noise part of compare_noise.c, as text, JSON and pages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/compare_priv.h"
#include "core/fileio.h"
#include "core/jsonutil.h"
#include "core/stage.h"
#include "present/html.h"

static char *sysinfo_str(const struct rtm_result *r, const char *path)
{
	const char *s = rtm_json_path_str(r->sysinfo, path);

	return s ? strdup(s) : NULL;
}

int rtm_compare_noise_add(struct rtm_compare *c, const struct rtm_result *r, const char *label,
			  const char *path, bool round, struct rtm_error *err)
{
	struct rtm_compare_run *run;
	const char *what = path ? path : label;
	size_t len;

	if (!json_is_object(json_object_get(r->sections, "noise")))
		return rtm_error_setn(err, -EINVAL, "%s has no noise section (sections.noise): "
				      "nothing to compare with noise results", what);
	if (round && !c->nruns)
		return rtm_error_setn(err, -EINVAL, "a round needs a run to belong to");
	if (!round && c->nruns >= RTM_COMPARE_MAX_RUNS)
		return rtm_error_setn(err, -E2BIG, "at most %d runs can be compared at once",
				      RTM_COMPARE_MAX_RUNS);
	if (!round) {
		run = &c->runs[c->nruns++];	/* freed with the comparison from here on */
		memset(run, 0, sizeof(*run));
		snprintf(run->label, sizeof(run->label), "%s", label);
		snprintf(run->path, sizeof(run->path), "%s", path ? path : "");
		run->fp[RTM_FP_HOST] = sysinfo_str(r, "hostname");
		run->fp[RTM_FP_KERNEL] = sysinfo_str(r, "kernel.release");
		run->fp[RTM_FP_PREEMPT] = sysinfo_str(r, "kernel.preempt.model");
		run->duration_ns = r->duration_ns;
	} else {
		run = &c->runs[c->nruns - 1];
		if (run->nrounds >= RTM_COMPARE_MAX_ROUNDS)
			return rtm_error_setn(err, -E2BIG, "at most %d runs on one side (%s)",
					      RTM_COMPARE_MAX_ROUNDS, run->label);
		len = strlen(run->path);
		if (path && len + 1 < sizeof(run->path))
			snprintf(run->path + len, sizeof(run->path) - len, ",%s", path);
	}
	run->nrounds++;
	rtm_compare_disturb_digest(run, r);	/* shared CPUs, interrupted, run->vm */
	if (rtm_compare_noise_digest(run, r, err)) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return rtm_error_setn(err, -EINVAL, "%s: %.400s", what, why);
	}
	return 0;
}

/* Each side's warnings: at most one a kind (result/disturb.h) but the hypervisor's. */
#define DISTURB_MAX	(RTM_COMPARE_MAX_RUNS * RTM_DISTURB_NKEYS)

/* The comparison's one warning when a side ran under a hypervisor or emulated; its id. */
static bool vm_warning(const struct rtm_compare *c, const char **id, char *buf, size_t len)
{
	bool vm = false, emulated = false;
	int i;

	for (i = 0; i < c->nruns; i++) {
		vm |= c->runs[i].vm;
		emulated |= c->runs[i].emulated;
	}
	if (id)
		*id = emulated ? "emulated" : "hypervisor";
	if (emulated)
		snprintf(buf, len, "ran emulated (QEMU TCG): the gaps are the emulator's, and say "
			 "nothing about real hardware");
	else if (vm)
		snprintf(buf, len, "ran in a virtual machine: the gaps include the hypervisor's "
			 "scheduling of the vCPUs");
	return vm;
}

/* "warnings": the virtual machine's, each side's disturbances, the noise settings'. */
static json_t *warnings_json(const struct rtm_compare *c)
{
	struct rtm_compare_warning w[DISTURB_MAX];
	json_t *a = json_array(), *nw = rtm_compare_noise_warnings_json(c);
	char line[640];
	const char *id;
	int i, n;

	if (vm_warning(c, &id, line, sizeof(line)))
		json_array_append_new(a, json_pack("{s:s, s:s}", "id", id, "message", line));
	n = rtm_compare_disturb_warnings(c, w, DISTURB_MAX);
	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:s}", "id", w[i].id, "message",
						   w[i].text));
	json_array_extend(a, nw);
	json_decref(nw);
	return a;
}

/* The same above the Noise part of compare.html (@html) or compare.md. */
static void page_warnings(const struct rtm_compare *c, FILE *f, bool html)
{
	struct rtm_compare_warning w[DISTURB_MAX + 1];
	int i, n = 0;

	if (vm_warning(c, &w[0].id, w[0].text, sizeof(w[0].text)))
		n++;
	n += rtm_compare_disturb_warnings(c, w + n, DISTURB_MAX);
	for (i = 0; i < n; i++) {
		fputs(html ? "<p class=\"warn\">Warning: " : "**Warning:** ", f);
		if (html)
			rtm_html_text(f, w[i].text);
		else
			rtm_md_text(f, w[i].text);
		fputs(html ? "</p>\n" : "\n\n", f);
	}
}

/* Each side: host, kernel, preemption model, VM, runs. */
static void side_line(const struct rtm_compare_run *run, char *buf, size_t len)
{
	snprintf(buf, len, "%s: host %s, kernel %s, preemption %s%s, %d run%s", run->label,
		 run->fp[RTM_FP_HOST] ?: "unknown", run->fp[RTM_FP_KERNEL] ?: "unknown",
		 run->fp[RTM_FP_PREEMPT] ?: "unknown", run->vm ? ", a VM" : "", run->nrounds,
		 run->nrounds == 1 ? "" : "s");
}

void rtm_compare_noise_only_fprint(const struct rtm_compare *c, FILE *f)
{
	struct rtm_compare_warning w[DISTURB_MAX];
	char line[640];
	int i, n;

	fprintf(f, "noise results (rtmeasure noise: no wake-up latency measured), %s the "
		"baseline:\n", c->runs[0].label);
	for (i = 0; i < c->nruns; i++) {
		side_line(&c->runs[i], line, sizeof(line));
		fprintf(f, "  %s\n", line);
	}
	if (vm_warning(c, NULL, line, sizeof(line)))
		fprintf(f, "warning: %s\n", line);
	n = rtm_compare_disturb_warnings(c, w, DISTURB_MAX);
	for (i = 0; i < n; i++)
		fprintf(f, "warning: %s\n", w[i].text);
	rtm_compare_noise_fprint(c, f);
}

json_t *rtm_compare_noise_only_json(const struct rtm_compare *c)
{
	json_t *runs = json_array(), *cmps = json_array();
	int i;

	for (i = 0; i < c->nruns; i++) {
		const struct rtm_compare_run *run = &c->runs[i];

		json_array_append_new(runs, json_pack("{s:s, s:s, s:b, s:o, s:o, s:o, s:b, s:i, "
			"s:o, s:o}", "label", run->label, "path", run->path, "baseline", i == 0,
			"host", run->fp[RTM_FP_HOST] ? json_string(run->fp[RTM_FP_HOST]) :
				json_null(),
			"kernel", run->fp[RTM_FP_KERNEL] ? json_string(run->fp[RTM_FP_KERNEL]) :
				  json_null(),
			"preempt_model", run->fp[RTM_FP_PREEMPT] ?
					 json_string(run->fp[RTM_FP_PREEMPT]) : json_null(),
			"vm", run->vm, "rounds", run->nrounds,
			"noise", rtm_compare_noise_run_json(run),
			"warnings", rtm_compare_disturb_run_json(run)));
	}
	for (i = 1; i < c->nruns; i++)
		json_array_append_new(cmps, json_pack("{s:s, s:s, s:o, s:o}", "run",
			c->runs[i].label, "baseline", c->runs[0].label,
			"noise", rtm_compare_noise_json(c, i),
			"shared_cpus", rtm_compare_disturb_shared_json(c, i)));
	return json_pack("{s:s, s:s, s:f, s:o, s:o, s:o}", "schema", "rtmeasure-compare/1",
			 "kind", "noise", "confidence", RTM_COMPARE_CONF, "runs", runs,
			 "warnings", warnings_json(c), "comparisons", cmps);
}

static int noise_only_page(const struct rtm_compare *c, const char *out_dir, bool html,
			   struct rtm_error *err)
{
	char path[4200], line[640], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i, ret;

	if (!f)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	if (html) {
		rtm_html_begin(f, "Noise comparison");
		fputs("<h1>Noise comparison</h1>\n", f);
	} else {
		fputs("# Noise comparison\n\n", f);
	}
	for (i = 0; i < c->nruns; i++) {
		side_line(&c->runs[i], line, sizeof(line));
		fputs(html ? "<p>" : "- ", f);
		if (html)
			rtm_html_text(f, line);
		else
			rtm_md_text(f, line);
		fputs(html ? "</p>\n" : "\n", f);
	}
	if (!html)
		fputc('\n', f);
	page_warnings(c, f, html);
	rtm_compare_noise_page(c, f, html);
	if (html)
		rtm_html_end(f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/compare.%s", out_dir, html ? "html" : "md");
	ret = buf ? rtm_write_atomic(path, buf, len) : -ENOMEM;
	free(buf);
	if (ret)
		return rtm_error_setn(err, ret, "cannot write %s: %s", path,
				      rtm_write_strerror(ret));
	return 0;
}

/* Both pages into the staging folder @dir (rtm_stage_write()). */
static int noise_only_staged(const char *dir, void *arg, struct rtm_error *err)
{
	const struct rtm_compare *c = arg;
	int ret = noise_only_page(c, dir, true, err);

	return ret ? ret : noise_only_page(c, dir, false, err);
}

int rtm_compare_noise_only_write(const struct rtm_compare *c, const char *out_dir,
				 struct rtm_error *err)
{
	/* all or nothing: never compare.html without compare.md on a full disk */
	return rtm_stage_write(out_dir, noise_only_staged, (void *)c, err);
}
