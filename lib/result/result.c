// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * result.c - a run's result and its JSON form (schema rtmeasure-result/1).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "box/cost.h"
#include "core/fileio.h"
#include "core/grow.h"
#include "core/jsonutil.h"
#include "result/result.h"
#include "trace/noiseattr.h"
#include "trace/rtholds.h"
#include "trace/census.h"
#include "trace/timerirq.h"

struct rtm_result *rtm_result_alloc(const char *command)
{
	struct rtm_result *r = calloc(1, sizeof(*r));
	struct tm tm;
	time_t now;

	if (!r)
		return NULL;
	snprintf(r->tool, sizeof(r->tool), "%s %s", "rtmeasure", PACKAGE_VERSION);
	snprintf(r->command, sizeof(r->command), "%s", command ? command : "");
	now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(r->created, sizeof(r->created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	r->options = json_object();
	r->events = json_array();
	r->sections = json_object();
	if (!r->options || !r->events || !r->sections) {
		rtm_result_free(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

void rtm_result_free(struct rtm_result *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < r->ncpus; i++) {
		rtm_hist_free(r->cpus[i].raw);
		rtm_hist_free(r->cpus[i].corrected);
		rtm_ts_free(r->cpus[i].ts);
	}
	free(r->cpus);
	json_decref(r->sysinfo);
	json_decref(r->options);
	json_decref(r->events);
	json_decref(r->sections);
	free(r);
}

struct rtm_result_cpu *rtm_result_add_cpu(struct rtm_result *r, int cpu, bool with_corrected,
					  uint64_t ts_interval_ns)
{
	struct rtm_result_cpu *cpus, *c;

	cpus = rtm_grow(r->cpus, &r->cpus_cap, (size_t)r->ncpus, sizeof(*cpus), 16);
	if (!cpus)
		return NULL;
	r->cpus = cpus;
	c = &cpus[r->ncpus];
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->raw = rtm_hist_alloc();
	if (with_corrected)
		c->corrected = rtm_hist_alloc();
	if (ts_interval_ns)
		c->ts = rtm_ts_alloc(ts_interval_ns, 0);
	if (!c->raw || (with_corrected && !c->corrected) || (ts_interval_ns && !c->ts)) {
		rtm_hist_free(c->raw);
		rtm_hist_free(c->corrected);
		rtm_ts_free(c->ts);
		errno = ENOMEM;
		return NULL;
	}
	r->ncpus++;
	return c;
}

void rtm_result_total(const struct rtm_result *r, struct rtm_hist *raw,
		      struct rtm_hist *corrected)
{
	int i;

	rtm_hist_reset(raw);
	if (corrected)
		rtm_hist_reset(corrected);
	for (i = 0; i < r->ncpus; i++) {
		rtm_hist_merge(raw, r->cpus[i].raw);
		if (corrected && r->cpus[i].corrected)
			rtm_hist_merge(corrected, r->cpus[i].corrected);
	}
}

/* ------------------------------------------------------------ to JSON */

uint64_t rtm_result_unplaced_cpu(const struct rtm_result *r, int cpu)
{
	const json_t *cpus = json_object_get(json_object_get(r->sections, "provenance"), "cpus");
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < json_array_size(cpus); i++) {
		const json_t *c = json_array_get(cpus, i);
		json_int_t o = json_integer_value(json_object_get(c, "overflows"));
		json_int_t p = json_integer_value(json_object_get(c, "overflows_placed"));

		if (o > p && (cpu < 0 || json_integer_value(json_object_get(c, "cpu")) == cpu))
			n += (uint64_t)(o - p);
	}
	return n;
}

uint64_t rtm_result_unplaced_overflows(const struct rtm_result *r)
{
	return rtm_result_unplaced_cpu(r, -1);
}

/*
 * @implied = corrected - raw, when raw + it gives corrected back exactly and it
 * reads back as a histogram (a corrected histogram that is not raw + something,
 * as in an edited file, can leave a difference whose sum of squares no
 * histogram has); @check is scratch.
 */
static bool implied_fits(const struct rtm_result_cpu *c, struct rtm_hist *implied,
			 struct rtm_hist *check)
{
	json_t *j;
	bool ok;

	if (!implied || !check || rtm_hist_diff(implied, c->corrected, c->raw) ||
	    !(implied->count || (!implied->sum_ns && !implied->max_ns && !implied->sum_sq)))
		return false;
	rtm_hist_copy(check, c->raw);
	rtm_hist_merge(check, implied);
	if (memcmp(check, c->corrected, sizeof(*check)))
		return false;
	j = rtm_hist_to_json(implied);
	ok = j && rtm_hist_from_json(check, j, NULL) == 0;
	json_decref(j);
	return ok;
}

json_t *rtm_result_to_json(const struct rtm_result *r)
{
	json_t *cpus = json_array(), *root;
	int i;

	struct rtm_hist *implied = rtm_hist_alloc(), *check = rtm_hist_alloc();

	for (i = 0; i < r->ncpus; i++) {
		const struct rtm_result_cpu *c = &r->cpus[i];
		json_t *o;

		o = json_pack("{s:i, s:I, s:o}", "cpu", c->cpu, "overruns", (json_int_t)c->overruns,
			      "hist", rtm_hist_to_json(c->raw));
		/*
		 * The corrected histogram is raw + the samples stalls swallowed: only
		 * those are written (usually a few buckets; half the file otherwise),
		 * when raw + them gives it back exactly; else the whole of it.
		 */
		if (!c->corrected) {
			json_object_set_new(o, "hist_implied", json_null());
		} else if (implied_fits(c, implied, check)) {
			json_object_set_new(o, "hist_implied", rtm_hist_to_json(implied));
		} else {
			json_object_set_new(o, "hist_corrected", rtm_hist_to_json(c->corrected));
		}
		json_object_set_new(o, "timeseries", c->ts ? rtm_ts_to_json(c->ts) : json_null());
		json_array_append_new(cpus, o);
	}
	rtm_hist_free(implied);
	rtm_hist_free(check);
	root = json_pack("{s:s, s:o, s:s, s:s, s:I, s:b, s:O, s:O, s:o, s:O, s:O}",
		"schema", RTM_RESULT_SCHEMA,
		"tool", rtm_json_text(r->tool),
		"command", r->command,
		"created", r->created,
		"duration_ns", (json_int_t)r->duration_ns,
		"interrupted", r->interrupted,
		"sysinfo", r->sysinfo ? r->sysinfo : json_null(),
		"options", r->options,
		"cpus", cpus,
		"events", r->events,
		"sections", r->sections);
	if (root && r->interrupted && r->stop_signal[0])
		json_object_set_new(root, "stop_signal", json_string(r->stop_signal));
	return root;
}

/* ------------------------------------------------------------ from JSON */

static int get_string(const json_t *o, const char *key, char *buf, size_t len, bool required,
		      const char *what, struct rtm_error *err)
{
	const json_t *v = json_object_get(o, key);

	if (!v) {
		if (!required) {
			buf[0] = '\0';
			return 0;
		}
		return rtm_error_set(err, "%s: missing \"%s\"", what, key);
	}
	if (!json_is_string(v))
		return rtm_error_set(err, "%s: \"%s\" must be a string", what, key);
	snprintf(buf, len, "%s", json_string_value(v));
	return 0;
}

static int get_uint(const json_t *o, const char *key, uint64_t *out, const char *what,
		    struct rtm_error *err)
{
	const json_t *v = json_object_get(o, key);

	if (!v)
		return rtm_error_set(err, "%s: missing \"%s\"", what, key);
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return rtm_error_set(err, "%s: \"%s\" must be a non-negative integer", what, key);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static int load_cpu(struct rtm_result *r, const json_t *jc, size_t idx, const char *what,
		    struct rtm_error *err)
{
	const json_t *jcorr, *jimp, *jts, *jhist;
	struct rtm_result_cpu *c;
	struct rtm_error sub = { "" };
	char where[PATH_MAX + 64];
	uint64_t cpu, overruns;

	snprintf(where, sizeof(where), "%s: cpus[%zu]", what, idx);
	if (!json_is_object(jc))
		return rtm_error_set(err, "%s must be an object", where);
	if (get_uint(jc, "cpu", &cpu, where, err) || get_uint(jc, "overruns", &overruns, where, err))
		return -EINVAL;
	if (cpu >= INT_MAX)
		return rtm_error_set(err, "%s: cpu %llu out of range", where,
				     (unsigned long long)cpu);
	jhist = json_object_get(jc, "hist");
	if (!json_is_object(jhist))
		return rtm_error_set(err, "%s: missing \"hist\" object", where);
	/* written since 0.1: "hist_implied" (corrected - raw); earlier: "hist_corrected" */
	jimp = json_object_get(jc, "hist_implied");
	jcorr = json_object_get(jc, "hist_corrected");
	jts = json_object_get(jc, "timeseries");
	if (jcorr && !json_is_null(jcorr) && !json_is_object(jcorr))
		return rtm_error_set(err, "%s: \"hist_corrected\" must be an object or null", where);
	if (jimp && !json_is_null(jimp) && !json_is_object(jimp))
		return rtm_error_set(err, "%s: \"hist_implied\" must be an object or null", where);
	if (jts && !json_is_null(jts) && !json_is_object(jts))
		return rtm_error_set(err, "%s: \"timeseries\" must be an object or null", where);

	c = rtm_result_add_cpu(r, (int)cpu, json_is_object(jcorr) || json_is_object(jimp), 0);
	if (!c)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	c->overruns = overruns;
	if (rtm_hist_from_json(c->raw, jhist, &sub))
		return rtm_error_set(err, "%s.hist: %s", where, sub.msg);
	if (json_is_object(jimp)) {
		if (rtm_hist_from_json(c->corrected, jimp, &sub))
			return rtm_error_set(err, "%s.hist_implied: %s", where, sub.msg);
		rtm_hist_merge(c->corrected, c->raw);
	} else if (c->corrected && rtm_hist_from_json(c->corrected, jcorr, &sub)) {
		return rtm_error_set(err, "%s.hist_corrected: %s", where, sub.msg);
	}
	if (json_is_object(jts)) {
		c->ts = rtm_ts_from_json(jts, &sub);
		if (!c->ts)
			return rtm_error_set(err, "%s.timeseries: %s", where, sub.msg);
	}
	return 0;
}

static int check_schema(const json_t *root, const char *what, struct rtm_error *err)
{
	const json_t *schema;

	if (!json_is_object(root))
		return rtm_error_set(err, "%s: not a JSON object", what);
	schema = json_object_get(root, "schema");
	if (!json_is_string(schema))
		return rtm_error_set(err, "%s has no \"schema\": not an rtmeasure result (import "
				     "other tools' output with rtmeasure import)", what);
	if (strcmp(json_string_value(schema), RTM_RESULT_SCHEMA) != 0)
		return rtm_error_set(err, "%s has schema '%s', this rtmeasure reads '%s' (use the "
				     "rtmeasure version that wrote it)", what,
				     json_string_value(schema), RTM_RESULT_SCHEMA);
	return 0;
}

/* tool, command, created, duration_ns, interrupted, stop_signal and sysinfo */
static int load_header(struct rtm_result *r, const json_t *root, const char *what,
		       struct rtm_error *err)
{
	const json_t *v;
	uint64_t dur;

	if (get_string(root, "tool", r->tool, sizeof(r->tool), true, what, err) ||
	    get_string(root, "command", r->command, sizeof(r->command), true, what, err) ||
	    get_string(root, "created", r->created, sizeof(r->created), true, what, err) ||
	    get_uint(root, "duration_ns", &dur, what, err))
		return -EINVAL;
	r->duration_ns = dur;
	v = json_object_get(root, "interrupted");
	if (v && !json_is_boolean(v))
		return rtm_error_set(err, "%s: \"interrupted\" must be true or false", what);
	r->interrupted = json_is_true(v);
	if (get_string(root, "stop_signal", r->stop_signal, sizeof(r->stop_signal), false, what,
		       err))
		return -EINVAL;

	v = json_object_get(root, "sysinfo");
	if (v && !json_is_null(v)) {
		if (!json_is_object(v))
			return rtm_error_set(err, "%s: \"sysinfo\" must be an object or null",
					     what);
		r->sysinfo = json_deep_copy(v);
	}
	return 0;
}

/* options, events and sections, copied as they are */
static int copy_members(struct rtm_result *r, const json_t *root, const char *what,
			struct rtm_error *err)
{
	const json_t *v;

#define COPY_MEMBER(key, field, check, kind)						\
	do {										\
		v = json_object_get(root, key);						\
		if (v) {								\
			if (!check(v))							\
				return rtm_error_set(err, "%s: \"" key "\" must be " kind,	\
						     what);				\
			json_decref(r->field);						\
			r->field = json_deep_copy(v);					\
		}									\
	} while (0)
	COPY_MEMBER("options", options, json_is_object, "an object");
	COPY_MEMBER("events", events, json_is_array, "an array");
	COPY_MEMBER("sections", sections, json_is_object, "an object");
#undef COPY_MEMBER
	return 0;
}

/* The sections other modules read back, checked by their owners. */
static int check_sections(const struct rtm_result *r, const char *what, struct rtm_error *err)
{
	const json_t *v;

	/* sections.rt_holds is read by summary and report: checked here (lib/trace/rtholds.c) */
	v = json_object_get(r->sections, "rt_holds");
	if (v && rtm_rtholds_check(v, what, err))
		return -EINVAL;
	/* sections.timer_irq too (--timer-irq, lib/trace/timerirq.c) */
	v = json_object_get(r->sections, "timer_irq");
	if (v && rtm_timerirq_check(v, what, err))
		return -EINVAL;
	/* sections.spike_census (--trace --capture-above, lib/trace/census.c) */
	v = json_object_get(r->sections, "spike_census");
	if (v && rtm_census_check(v, what, err))
		return -EINVAL;
	/* sections.noise's gap causes (noise --trace, lib/trace/noiseattr.c), read by the summary */
	v = json_object_get(r->sections, "noise");
	if (v) {
		json_t *cpu;
		char why[160];
		size_t k;

		json_array_foreach(json_object_get(v, "cpus"), k, cpu)
			if (rtm_noiseattr_check(cpu, why, sizeof(why)))
				return rtm_error_set(err, "%s: sections.noise.cpus[%zu]: %s", what,
						     k, why);
	}
	/* run --throughput's scores, read by report and compare (lib/box/cost.c) */
	v = json_object_get(r->sections, "throughput");
	if (v) {
		struct rtm_cost_summary cs;
		struct rtm_error e = { "" };

		if (rtm_cost_summary_read(v, &cs, &e))
			return rtm_error_set(err, "%s: %s", what, e.msg);
	}
	return 0;
}

struct rtm_result *rtm_result_from_json(const json_t *root, const char *what,
					struct rtm_error *err)
{
	const json_t *cpus, *jc;
	struct rtm_result *r;
	size_t i;

	if (!what)
		what = "result";
	if (check_schema(root, what, err))
		return NULL;
	r = rtm_result_alloc(NULL);
	if (!r) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	if (load_header(r, root, what, err) || copy_members(r, root, what, err) ||
	    check_sections(r, what, err))
		goto fail;

	cpus = json_object_get(root, "cpus");
	if (!json_is_array(cpus)) {
		rtm_error_set(err, "%s: missing \"cpus\" array", what);
		goto fail;
	}
	json_array_foreach(cpus, i, jc) {
		if (load_cpu(r, jc, i, what, err))
			goto fail;
	}
	return r;
fail:
	rtm_result_free(r);
	return NULL;
}

/* ------------------------------------------------------------ files */

int rtm_result_save(const struct rtm_result *r, const char *dir, struct rtm_error *err)
{
	char path[PATH_MAX];
	json_t *j;
	char *text;
	int ret;

	ret = rtm_mkdir_p(dir);
	if (ret)
		return rtm_error_setn(err, ret, "cannot create results folder %s: %s", dir,
				      rtm_write_strerror(ret));
	if (snprintf(path, sizeof(path), "%s/%s", dir, RTM_RESULT_FILE) >= (int)sizeof(path))
		return rtm_error_setn(err, -ENAMETOOLONG, "results folder name too long: %s", dir);
	j = rtm_result_to_json(r);
	if (!j)
		return rtm_error_setn(err, -ENOMEM, "out of memory building %s", path);
	text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(j);
	if (!text)
		return rtm_error_setn(err, -ENOMEM, "out of memory writing %s", path);
	ret = rtm_write_atomic(path, text, strlen(text));
	free(text);
	if (ret)
		return rtm_error_setn(err, ret, "cannot write %s: %s", path,
				      rtm_write_strerror(ret));
	return 0;
}

struct rtm_result *rtm_result_load(const char *path, struct rtm_error *err)
{
	char file[PATH_MAX];
	struct rtm_result *r;
	json_error_t jerr;
	struct stat st;
	json_t *root;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(file, sizeof(file), "%s/%s", path, RTM_RESULT_FILE);
	else
		snprintf(file, sizeof(file), "%s", path);
	if (stat(file, &st) < 0) {
		rtm_error_setn(err, -errno, "cannot read %s: %s (give a results folder or its "
			       "result.json)", file, strerror(errno));
		return NULL;
	}
	root = json_load_file(file, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		rtm_error_set(err, "%s is not valid JSON (line %d, column %d: %s): the file is "
			      "truncated or corrupt", file, jerr.line, jerr.column, jerr.text);
		return NULL;
	}
	r = rtm_result_from_json(root, file, err);
	json_decref(root);
	return r;
}
