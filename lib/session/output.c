// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output.c - what a session leaves: the results folder (result.json, histogram.txt,
 * the report through the command's hook), --histfile and --json=FILE, the options
 * as result.json records them, and what the user reads at the end (the summary,
 * the notes, the bounds of --fail-above).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "box/sysinfo.h"
#include "core/fileio.h"
#include "core/stage.h"
#include "core/units.h"
#include "result/export.h"
#include "result/io_summary.h"
#include "result/disturb.h"
#include "result/histfile.h"
#include "result/resultdir.h"
#include "session/session_priv.h"

int rtm_session_write_results(const struct rtm_session_opts *m, const struct rtm_result *r,
			      const char *dir, struct rtm_error *err)
{
	char path[PATH_MAX];
	char *text;
	size_t len;
	int ret;

	ret = rtm_result_save(r, dir, err);
	if (ret)
		return ret;
	ret = rtm_session_histogram_text(m, r, &text, &len);
	if (ret)
		return rtm_error_setn(err, ret, "out of memory writing histogram.txt");
	if (!text)
		return 0;
	snprintf(path, sizeof(path), "%s/histogram.txt", dir);
	ret = rtm_write_atomic(path, text, len);
	free(text);
	if (ret)
		return rtm_error_setn(err, ret, "cannot write %s: %s", path,
				      rtm_write_strerror(ret));
	return 0;
}

int rtm_session_save_results(const struct rtm_session_opts *m, const struct rtm_result *r,
			 const char *dir)
{
	struct rtm_error err = { "" };

	if (rtm_session_write_results(m, r, dir, &err))
		return rtm_session_fail(m, "%s", err.msg);
	return 0;
}

/* The noise probe's options as result.json records them. */
static json_t *noise_options_json(const struct rtm_session_opts *m, const char *cpus)
{
	return json_pack("{s:s, s:s, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:i, s:b, s:b}",
		"probe", m->ops->name,
		"cpus", cpus,
		"sched", rtm_sched_to_json(&m->probe.sched),
		"duration_ns", (json_int_t)m->probe.duration_ns,
		"window_ns", (json_int_t)m->noise.window_ns,
		"width_ns", (json_int_t)m->noise.width_ns,
		"threshold_ns", (json_int_t)m->noise.threshold_ns,
		"report_above_ns", (json_int_t)m->noise.report_above_ns,
		"max_gaps", (json_int_t)m->noise.max_gaps,
		"mlockall", m->probe.lock_memory,
		"dma_latency_us", m->probe.dma_latency_us,
		"rt", !m->box.no_rt,
		"trace", rtm_session_noise_trace_wanted(m));
}

json_t *rtm_session_options_json(const struct rtm_session_opts *m)
{
	char cpus[1024];
	json_t *o;

	rtm_cpulist_format(&m->probe.cpus, cpus, sizeof(cpus));
	if (!rtm_session_latency_probe(m))
		return noise_options_json(m, cpus);
	o = json_pack("{s:s, s:I, s:I, s:o, s:s, s:I, s:I, s:I, s:b, s:i, s:b, s:I, s:I}",
		"cpus", cpus,
		"interval_ns", (json_int_t)m->probe.interval_ns,
		"distance_ns", (json_int_t)m->probe.distance_ns,
		"sched", rtm_sched_to_json(&m->probe.sched),
		"mode", m->ops == &rtm_probe_timerlat_ops ? "timerlat" :
			rtm_timer_mode_name(m->probe.mode),
		"duration_ns", (json_int_t)m->probe.duration_ns,
		"loops", (json_int_t)m->probe.loops,
		"break_ns", (json_int_t)m->probe.break_ns,
		"mlockall", m->probe.lock_memory,
		"dma_latency_us", m->probe.dma_latency_us,
		"rt", !m->box.no_rt,
		"series_interval_ns", (json_int_t)m->ts_interval_ns,
		"log_above_ns", (json_int_t)m->probe.log_above_ns);
	if (o && m->box.housekeeping.n) {
		rtm_cpulist_format(&m->box.housekeeping, cpus, sizeof(cpus));
		json_object_set_new(o, "housekeeping", json_string(cpus));
	}
	/* the probe that measured: timer (rtmeasure's) or timerlat (the kernel's) */
	if (o) {
		json_object_set_new(o, "backend", json_string(m->ops->name));
		if (m->timerlat.backend_reason)
			json_object_set_new(o, "backend_reason",
					    json_string(m->timerlat.backend_reason));
	}
	if (o && m->box.deepest_idle >= -1)
		json_object_set_new(o, "deepest_idle_state", json_integer(m->box.deepest_idle));
	if (o && m->io.on)	/* run --io */
		json_object_set_new(o, "io", rtm_session_io_options_json(m));
	return o;
}


/* The summary as --json prints it and --json=FILE writes it. */
static json_t *summary_json(const struct rtm_session_opts *m, const struct rtm_result *r,
			    const char *dir)
{
	struct rtm_disturbances d;
	json_t *j;

	if (rtm_session_latency_probe(m)) {
		j = rtm_summary_to_json(r);
		if (json_object_get(r->sections, "noise"))	/* run --noise */
			json_object_set_new(j, "noise", rtm_noise_summary_json(
						json_object_get(r->sections, "noise")));
	} else {
		j = json_object();
		json_object_set_new(j, "noise", rtm_noise_summary_json(
					json_object_get(r->sections, "noise")));
	}
	if (json_object_get(r->sections, "io"))		/* run --io */
		json_object_set_new(j, "io", rtm_io_summary_json(json_object_get(r->sections,
										 "io")));
	if (json_object_get(r->sections, "throughput"))	/* run --throughput */
		json_object_set(j, "throughput", json_object_get(r->sections, "throughput"));
	json_object_set_new(j, "result_dir", dir ? json_string(dir) : json_null());
	json_object_set_new(j, "interrupted", json_boolean(r->interrupted));
	rtm_result_disturbances(r, &d);
	json_object_set_new(j, "warnings", rtm_disturbances_to_json(&d));
	json_object_set_new(j, "duration_ns", json_integer((json_int_t)r->duration_ns));
	json_object_set(j, "events", r->events);
	return j;
}

int rtm_session_check_out_file(const struct rtm_session_opts *m, const char *path,
			       const char *opt, int *fd)
{
	unsigned int flags = m->out.follow ? RTM_OUT_FOLLOW : 0;
	int ret = rtm_target_check(path, flags);

	*fd = -1;
	if (ret == RTM_TARGET_STREAM) {	/* held open: its reader is there at the end too */
		*fd = rtm_stream_open(path, flags);
		ret = *fd < 0 ? *fd : 0;
	}
	if (ret < 0)
		return rtm_session_fail(m, "%s: %s %s: cannot write it: %s", m->command, opt, path,
					rtm_write_strerror(ret));
	return 0;
}

/* The staging folders a killed report left in @dir, said on stderr. */
static void remove_stale_stages(const struct rtm_session_opts *m, const char *dir)
{
	char names[256];
	int n = rtm_stage_remove_stale(dir, names, sizeof(names));

	if (n > 0)
		fprintf(stderr, "rtmeasure %s: removed %s of a killed report in %s: %s\n",
			m->command, n > 1 ? "the staging folders" : "the staging folder", dir,
			names);
}

/*
 * The results folder, before anything is measured: created if missing; a
 * symlink only with --follow; not a file; an earlier result in it only with
 * --force, which clears the files rtmeasure wrote there.
 */
int rtm_session_check_outdir(const struct rtm_session_opts *m, const char *dir)
{
	char what[32];
	int fd, ret;

	fd = rtm_dir_open(dir, RTM_OUT_CREATE | (m->out.follow ? RTM_OUT_FOLLOW : 0));
	if (fd == -ELOOP)
		return rtm_session_fail(m, "%s: -o %s is a symbolic link (give --follow to write "
					"the results where it points)", m->command, dir);
	if (fd == -ENOTDIR)
		return rtm_session_fail(m, "%s: -o %s exists and is not a folder (give a folder "
					"name)", m->command, dir);
	if (fd < 0)
		return rtm_session_fail(m, "%s: cannot create results folder %s: %s", m->command,
					dir, rtm_write_strerror(fd));
	ret = 0;
	if (faccessat(fd, ".", W_OK, AT_EACCESS) < 0)
		ret = rtm_session_fail(m, "%s: cannot write in results folder %s: %s", m->command,
				       dir, rtm_write_strerror(-errno));
	else if (rtm_resultdir_find(fd, what, sizeof(what)) && !m->out.force)
		ret = rtm_session_fail(m, "%s: -o %s already holds a result (%s): give another "
				       "folder, or --force to replace it", m->command, dir, what);
	else if (m->out.force && (ret = rtm_resultdir_clear(fd)))
		ret = rtm_session_fail(m, "%s: --force: cannot clear the earlier result in %s: %s",
				       m->command, dir, rtm_write_strerror(ret));
	close(fd);
	if (!ret)
		remove_stale_stages(m, dir);
	return ret;
}

/* @text to --histfile or --json=FILE: the stream opened at the check, or the file. */
static int save_extra(const struct rtm_session_opts *m, const char *path, int fd,
		      const char *text, size_t len)
{
	if (fd >= 0)
		return rtm_stream_write(fd, text, len);
	return rtm_write_target(path, text, len, m->out.follow ? RTM_OUT_FOLLOW : 0);
}

/* --histfile and --json=FILE, besides the results folder; 2 after the message. */
static int save_extra_files(const struct rtm_session *s, const char *dir)
{
	const struct rtm_session_opts *m = s->o;
	const struct rtm_result *r = s->r;
	char *text = NULL;
	size_t len = 0;
	int ret = 0, bad = 0;
	FILE *f;

	if (m->out.histfile) {
		f = open_memstream(&text, &len);
		ret = f ? 0 : -ENOMEM;
		if (f) {
			ret = m->out.histofall ? rtm_histfile_write_all(r, f, m->out.hist_rows) :
					     rtm_histfile_write(r, f, m->out.hist_rows);
			fclose(f);
		}
		if (!ret)
			ret = save_extra(m, m->out.histfile, s->histfile_fd, text, len);
		free(text);
		if (ret)
			bad = rtm_session_fail(m, "cannot write --histfile %s: %s", m->out.histfile,
					       rtm_write_strerror(ret));
	}
	if (m->out.json_file) {
		/* cyclic's is cyclictest's option: rt-tests' layout, ended as cyclictest ends it */
		json_t *j = m->out.json_file_rttests ?
			    rtm_export_cyclictest_json(r, m->out.cmdline) : summary_json(m, r, dir);

		text = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
		json_decref(j);
		if (text && m->out.json_file_rttests) {
			char *t = realloc(text, strlen(text) + 2);

			if (t)
				strcat(t, "\n");
			else
				free(text);
			text = t;
		}
		ret = text ? save_extra(m, m->out.json_file, s->json_fd, text, strlen(text)) :
		      -ENOMEM;
		free(text);
		if (ret)
			bad = rtm_session_fail(m, "cannot write --json %s: %s", m->out.json_file,
					       rtm_write_strerror(ret));
	}
	return bad;
}

static void print_notes(const struct rtm_sysinfo *si, const struct rtm_session_opts *m, FILE *f)
{
	int i;

	if (m->box.no_rt)
		fprintf(f, "note: measured at SCHED_OTHER (--no-rt): not real-time latency\n");
	if (!si)
		return;
	for (i = 0; i < si->nchecks; i++)
		if (si->checks[i].level == RTM_CHECK_WARN)
			fprintf(f, "note: %s\n", si->checks[i].text);
}

/*
 * What disturbed the run (result/disturb.h) under the summary; the box's
 * hypervisor is print_notes()' already.
 */
static void print_disturbances(const struct rtm_result *r, FILE *f)
{
	struct rtm_disturbances d;
	int i;

	rtm_result_disturbances(r, &d);
	for (i = 0; i < d.n; i++)
		if (strcmp(d.d[i].key, "hypervisor") && strcmp(d.d[i].key, "emulated"))
			fprintf(f, "note: %s\n", d.d[i].text);
}

/* The summary table (or the noise table): the command's printer (ops->summary). */
static void print_summary(const struct rtm_session *s, FILE *f)
{
	if (s->ops->summary)
		s->ops->summary(s->o, s->r, f);
}

/*
 * The results folder could not take the result (a full disk): the folder
 * removed when the run made it and it stayed empty, the result saved
 * elsewhere, the extra files and the table (or the JSON, holding the whole
 * result when it could be saved nowhere). RTM_SESSION_EXIT_USAGE.
 */
static int outcome_rescue(struct rtm_session *s)
{
	const struct rtm_session_opts *m = s->o;
	char where[PATH_MAX];
	bool saved;
	json_t *j;

	if (s->dir_made)
		rmdir(s->dir);	/* only when empty */
	saved = rtm_session_rescue(m, s->r, s->dir, where, sizeof(where)) == 0;
	save_extra_files(s, saved ? where : NULL);
	if (!m->out.json) {
		fprintf(m->outf, "\n");
		print_summary(s, m->outf);
		if (saved)
			fprintf(m->outf, "results: %s/\n", where);
		return RTM_SESSION_EXIT_USAGE;
	}
	j = summary_json(m, s->r, saved ? where : NULL);
	if (!saved)	/* nothing lost: result.json is .result */
		json_object_set_new(j, "result", rtm_result_to_json(s->r));
	json_dumpf(j, m->outf, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', m->outf);
	json_decref(j);
	return RTM_SESSION_EXIT_USAGE;
}

/* Outcome 2: the results folder and its report; the table goes out even if they fail. */
int rtm_session_outcome_save(struct rtm_session *s)
{
	const struct rtm_session_opts *m = s->o;
	int ret = rtm_session_save_results(m, s->r, s->dir);

	if (ret)
		return outcome_rescue(s);
	if (m->out.report && s->ops->report) {	/* a noise result gets its own pages */
		/* the measurement is saved whatever happens to its report */
		ret = s->ops->report(s->r, s->dir, &s->err);
		s->reported = ret == 0;
		s->report_failed = ret < 0;	/* exit 2 at the end, the table printed */
		if (!s->reported)
			fprintf(m->errf, "rtmeasure: no report: %s; the results are saved "
				"(rtmeasure report %s, once fixed)\n", s->err.msg, s->dir);
	}
	return 0;
}

/* -b: the wake-up that stopped the run. */
static void print_break(const struct rtm_session_opts *m, const struct rtm_result *r)
{
	char lat[16], thr[16];
	size_t i;

	for (i = 0; i < json_array_size(r->events); i++) {
		json_t *e = json_array_get(r->events, i);

		if (strcmp(json_string_value(json_object_get(e, "type")) ?: "", "break"))
			continue;
		rtm_fmt_ns(lat, sizeof(lat), (uint64_t)json_integer_value(
				json_object_get(e, "latency_ns")));
		rtm_fmt_ns(thr, sizeof(thr), m->probe.break_ns);
		fprintf(m->errf, "rtmeasure: break: CPU %lld woke %s late (> %s) at %.3f s, "
			"sample %lld\n", json_integer_value(json_object_get(e, "cpu")), lat, thr,
			(double)json_integer_value(json_object_get(e, "planned_ns")) / 1e9,
			json_integer_value(json_object_get(e, "sample")));
	}
}

/*
 * --fail-above: RTM_SESSION_EXIT_BOUND when one is exceeded; a bound the
 * samples cannot decide (the table shows "-") is no pass: USAGE, with the fix.
 */
static int check_bounds(const struct rtm_session_opts *m, const struct rtm_result *r)
{
	int status = RTM_SESSION_EXIT_OK, i;
	char what[160];

	for (i = 0; i < m->out.nbounds; i++) {
		if (!rtm_bound_checkable(r, &m->out.bounds[i], what, sizeof(what))) {
			fprintf(m->errf, "rtmeasure: --fail-above %s not checked: %s (measure "
				"longer: -D or -l)\n", m->out.bounds[i].text, what);
			status = RTM_SESSION_EXIT_USAGE;
		} else if (rtm_bound_describe(r, &m->out.bounds[i], what, sizeof(what))) {
			fprintf(m->errf, "rtmeasure: --fail-above %s exceeded: %s\n",
				m->out.bounds[i].text, what);
			if (status == RTM_SESSION_EXIT_OK)
				status = RTM_SESSION_EXIT_BOUND;
		}
	}
	return status;
}

/* Outcome 3: what the user reads (or --json), the extra files, the bounds. */
int rtm_session_outcome_print(struct rtm_session *s)
{
	const struct rtm_session_opts *m = s->o;
	const struct rtm_result *r = s->r;
	int status = RTM_SESSION_EXIT_OK, ret;

	if (r->interrupted)
		fprintf(m->errf, "rtmeasure: interrupted after %.1f s; results saved in %s/\n",
			(double)r->duration_ns / 1e9, s->dir);
	print_break(m, r);
	rtm_session_trace_print(r, s->dir, m->errf);
	if (save_extra_files(s, s->dir) || s->throughput_failed || s->noise_failed ||
	    s->report_failed)
		status = RTM_SESSION_EXIT_USAGE;
	if (m->out.json) {
		json_t *j = summary_json(m, r, s->dir);

		json_dumpf(j, m->outf, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', m->outf);
		json_decref(j);
	} else {
		fprintf(m->outf, "\n");
		print_summary(s, m->outf);
		rtm_session_irq_print(s->irq, m->outf);
		if (s->ops->throughput_table)	/* run --throughput */
			s->ops->throughput_table(json_object_get(r->sections, "throughput"),
						 m->outf);
		print_notes(s->si, m, m->outf);
		print_disturbances(r, m->outf);
		fprintf(m->outf, "results: %s/%s\n", s->dir, s->reported ? " (report.html)" : "");
	}
	ret = check_bounds(m, r);	/* the bounds are named even after a USAGE error */
	return status == RTM_SESSION_EXIT_OK ? ret : status;
}

