// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare_io.c - storage runs (sections.io) compared per operation: the sides'
 * set-ups and the differences that make it unfair, a table of the latency from
 * the planned issue time with a row of ratios, and verdicts from the latency
 * comparison's statistics (compare.c). See compare_io.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonutil.h"
#include "core/units.h"
#include "present/compare_io.h"

static const struct {
	const char *id, *name;
	const char *unfair;	/* why a difference makes it unfair; NULL: what is compared */
} fp_info[RTM_CIO_NFP] = {
	[RTM_CIO_HOST] = { "host", "host", NULL },
	[RTM_CIO_KERNEL] = { "kernel", "kernel", NULL },
	[RTM_CIO_DISK] = { "disk", "disk", "the device decides most of the service time" },
	[RTM_CIO_TARGET] = { "target", "target",
			     "a file system's path (journal, extents) is not a device's" },
	[RTM_CIO_SCHEDULER] = { "scheduler", "I/O scheduler", NULL },
	[RTM_CIO_IOPRIO] = { "ioprio", "I/O priority", NULL },
	[RTM_CIO_THREAD] = { "thread", "probe thread",
			     "policy and priority decide how late a request is issued" },
	[RTM_CIO_OPS] = { "ops", "operations", "the operations in turn load the device "
			  "differently" },
	[RTM_CIO_SIZE] = { "size", "request size", "a larger request takes longer" },
	[RTM_CIO_INTERVAL] = { "interval", "interval",
			       "the request rate changes the device's queue and idle state" },
	[RTM_CIO_DEADLINE] = { "deadline", "deadline", "misses are counted against "
			       "different deadlines" },
	[RTM_CIO_DURATION] = { "duration", "duration", "a longer run sees rarer events: high "
			       "percentiles and the maximum grow with the run's length" },
};

struct rtm_compare_io *rtm_compare_io_alloc(void)
{
	return calloc(1, sizeof(struct rtm_compare_io));
}

void rtm_compare_io_free(struct rtm_compare_io *c)
{
	int i, k;

	if (!c)
		return;
	for (i = 0; i < c->nsides; i++) {
		for (k = 0; k < RTM_CIO_NFP; k++)
			free(c->sides[i].fp[k]);
		for (k = 0; k < c->sides[i].nops; k++)
			rtm_hist_free(c->sides[i].ops[k].lat);
	}
	free(c);
}

/* ---- digest */

static char *fmt_dup(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return strdup(buf);
}

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* One round's set-up, each field malloc()ed (NULL: unknown or out of memory). */
static void fill_fp(char **fp, const struct rtm_result *r, const json_t *io)
{
	const json_t *t = json_object_get(io, "target"), *seq = json_object_get(io, "op_sequence");
	const json_t *sched = json_object_get(io, "sched");
	char buf[256] = "", ns[32];
	size_t k, len = 0;
	uint64_t dl = (uint64_t)json_integer_value(json_object_get(io, "deadline_ns"));

	fp[RTM_CIO_HOST] = fmt_dup("%s", rtm_json_path_str(r->sysinfo, "hostname") ?: "unknown");
	fp[RTM_CIO_KERNEL] = fmt_dup("%s", rtm_json_path_str(r->sysinfo, "kernel.release") ?:
				     "unknown");
	fp[RTM_CIO_DISK] = fmt_dup("%s (%s)", str(t, "disk") ?: "unknown", str(t, "dev") ?: "?");
	fp[RTM_CIO_TARGET] = fmt_dup("%s%s%s", str(t, "kind") ?: "unknown",
				     str(t, "fstype") ? " on " : "", str(t, "fstype") ?: "");
	fp[RTM_CIO_SCHEDULER] = fmt_dup("%s", str(t, "scheduler_set") ?: str(t, "scheduler") ?:
					"unknown");
	fp[RTM_CIO_IOPRIO] = fmt_dup("%s", str(io, "ioprio") ?: "unknown");
	fp[RTM_CIO_THREAD] = fmt_dup("%s %lld", str(sched, "policy") ?: "?",
				     (long long)json_integer_value(json_object_get(sched,
								   "priority")));
	for (k = 0; k < json_array_size(seq) && len < sizeof(buf); k++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", k ? "," : "",
					json_string_value(json_array_get(seq, k)) ?: "?");
	fp[RTM_CIO_OPS] = fmt_dup("%s", buf);
	fp[RTM_CIO_SIZE] = fmt_dup("%lld bytes",
				   (long long)json_integer_value(json_object_get(io, "size")));
	fp[RTM_CIO_INTERVAL] = fmt_dup("%s", rtm_fmt_ns(ns, sizeof(ns), (uint64_t)
				       json_integer_value(json_object_get(io, "interval_ns"))));
	fp[RTM_CIO_DEADLINE] = fmt_dup("%s", dl ? rtm_fmt_ns(ns, sizeof(ns), dl) : "none");
	fp[RTM_CIO_DURATION] = fmt_dup("%s", rtm_fmt_duration(ns, sizeof(ns), r->duration_ns));
}

/* A later round's set-up joined to the side's where it differs ("a | b"). */
static void merge_fp(char **fp, char **add)
{
	int k;

	for (k = 0; k < RTM_CIO_NFP; k++) {
		char *j;

		if (!fp[k] || !add[k] || strstr(fp[k], add[k]) || k == RTM_CIO_DURATION)
			continue;
		j = fmt_dup("%s | %s", fp[k], add[k]);
		if (j) {
			free(fp[k]);
			fp[k] = j;
		}
	}
}

static struct rtm_compare_io_op *side_op(struct rtm_compare_io_side *s, const char *name)
{
	struct rtm_compare_io_op *op;
	int i;

	for (i = 0; i < s->nops; i++)
		if (!strcmp(s->ops[i].name, name))
			return &s->ops[i];
	if (s->nops == RTM_COMPARE_IO_MAX_OPS)
		return NULL;
	op = &s->ops[s->nops];
	memset(op, 0, sizeof(*op));
	snprintf(op->name, sizeof(op->name), "%s", name);
	op->lat = rtm_hist_alloc();
	if (!op->lat)
		return NULL;
	s->nops++;
	return op;
}

/* The round's operations into the side: merged latency, the round's percentiles. */
static int digest_ops(struct rtm_compare_io_side *s, const json_t *io, const char *what,
		      struct rtm_error *err)
{
	const json_t *ops = json_object_get(io, "ops"), *o;
	struct rtm_hist *h = rtm_hist_alloc();
	struct rtm_error herr = { "" };
	const char *name;
	int ret = 0;

	if (!h)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	if (!json_object_size(ops))
		ret = rtm_error_setn(err, -EINVAL, "%s: sections.io.ops holds no operation", what);
	json_object_foreach((json_t *)ops, name, o) {
		struct rtm_compare_io_op *op;
		struct rtm_compare_round *rd;

		if (ret)
			break;
		if (rtm_hist_from_json(h, json_object_get(o, "latency"), &herr)) {
			ret = rtm_error_setn(err, -EINVAL, "%s: sections.io.ops.%s.latency: %s",
					     what, name, herr.msg);
			break;
		}
		op = side_op(s, name);
		if (!op) {
			ret = rtm_error_setn(err, -ENOMEM, "%s: more than %d operations, or out of "
					     "memory", what, RTM_COMPARE_IO_MAX_OPS);
			break;
		}
		rtm_hist_merge(op->lat, h);
		op->misses += (uint64_t)json_integer_value(json_object_get(o, "misses"));
		op->errors += (uint64_t)json_integer_value(json_object_get(o, "errors"));
		rd = &op->rounds[op->nrounds++];
		memset(rd, 0, sizeof(*rd));
		rtm_compare_round_pcts(rd, h);
	}
	rtm_hist_free(h);
	return ret;
}

int rtm_compare_io_add(struct rtm_compare_io *c, const struct rtm_result *r, const char *label,
		       const char *path, bool round, struct rtm_error *err)
{
	const json_t *io = json_object_get(r->sections, "io");
	const char *what = path ? path : label;
	struct rtm_compare_io_side *s;
	char *fp[RTM_CIO_NFP] = { NULL };
	size_t len;
	int k;

	if (!json_is_object(io))
		return rtm_error_setn(err, -EINVAL, "%s holds no storage run (sections.io)", what);
	if (!round && c->nsides >= RTM_COMPARE_MAX_RUNS)
		return rtm_error_setn(err, -E2BIG, "at most %d runs can be compared at once",
				      RTM_COMPARE_MAX_RUNS);
	if (round && !c->nsides)
		return rtm_error_setn(err, -EINVAL, "a round needs a run to belong to");
	s = round ? &c->sides[c->nsides - 1] : &c->sides[c->nsides++];
	if (round && s->nrounds >= RTM_COMPARE_MAX_ROUNDS)
		return rtm_error_setn(err, -E2BIG, "at most %d runs on one side (%s)",
				      RTM_COMPARE_MAX_ROUNDS, s->label);
	if (!round) {
		memset(s, 0, sizeof(*s));
		snprintf(s->label, sizeof(s->label), "%s", label);
	}
	len = strlen(s->path);
	snprintf(s->path + len, sizeof(s->path) - len, "%s%s", len ? "," : "", path ? path : "");
	fill_fp(s->nrounds ? fp : s->fp, r, io);
	if (s->nrounds) {
		merge_fp(s->fp, fp);
		for (k = 0; k < RTM_CIO_NFP; k++)
			free(fp[k]);
	}
	if (!s->nrounds || r->duration_ns < s->duration_min_ns)
		s->duration_min_ns = r->duration_ns;
	if (r->duration_ns > s->duration_max_ns)
		s->duration_max_ns = r->duration_ns;
	s->requests += (uint64_t)json_integer_value(json_object_get(io, "requests"));
	s->vm |= json_is_true(rtm_json_path(r->sysinfo, "virtualization.vm"));
	s->nrounds++;
	return digest_ops(s, io, what, err);
}

/* ---- warnings and verdicts */

static bool fp_differs(const struct rtm_compare_io *c, int k)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	int i;

	if (k == RTM_CIO_DURATION) {
		for (i = 0; i < c->nsides; i++) {
			lo = c->sides[i].duration_min_ns < lo ? c->sides[i].duration_min_ns : lo;
			hi = c->sides[i].duration_max_ns > hi ? c->sides[i].duration_max_ns : hi;
		}
		return lo > 0 && hi > 2 * lo;
	}
	for (i = 0; i < c->nsides; i++) {
		const char *a = c->sides[0].fp[k], *b = c->sides[i].fp[k];

		if (b && strstr(b, " | "))
			return true;	/* the rounds of one side differ among themselves */
		if (a && b && strcmp(a, b))
			return true;
	}
	return false;
}

static void add_warning(struct rtm_compare_io *c, int k)
{
	char w[sizeof(c->warnings[0])];	/* built aside: the labels are in *c */
	size_t len, cap = sizeof(w);
	int i;

	len = (size_t)snprintf(w, cap, "different %s%s (", fp_info[k].name,
			       k == RTM_CIO_DURATION ? ", more than 2x" : "");
	for (i = 0; i < c->nsides && len < cap; i++)
		len += (size_t)snprintf(w + len, cap - len, "%s%s: %.80s", i ? "; " : "",
					c->sides[i].label, c->sides[i].fp[k] ?: "unknown");
	if (len < cap)
		snprintf(w + len, cap - len, "): %s", fp_info[k].unfair);
	c->warning_id[c->nwarnings] = fp_info[k].id;
	memcpy(c->warnings[c->nwarnings++], w, sizeof(w));
}

static const struct rtm_compare_io_op *find_op(const struct rtm_compare_io_side *s,
					       const char *name)
{
	int i;

	for (i = 0; i < s->nops; i++)
		if (!strcmp(s->ops[i].name, name))
			return &s->ops[i];
	return NULL;
}

/* An operation of a side as the latency comparison's run: its merged histogram and rounds. */
static void as_run(struct rtm_compare_run *run, const struct rtm_compare_io_side *s,
		   const struct rtm_compare_io_op *op)
{
	memset(run, 0, sizeof(*run));
	snprintf(run->label, sizeof(run->label), "%s", s->label);
	run->all = op->lat;
	run->nrounds = op->nrounds;
	memcpy(run->rounds, op->rounds, sizeof(op->rounds[0]) * (size_t)op->nrounds);
}

/* One run on each side: the ratio, too few samples, or why there is no interval. */
static void one_each(const struct rtm_compare_run *a, const struct rtm_compare_run *b, int k,
		     const char *op, struct rtm_compare_io_verdict *out)
{
	const struct rtm_compare_run *few = !a->rounds[0].pct_ok[k] ? a :
					    !b->rounds[0].pct_ok[k] ? b : NULL;
	struct rtm_compare_verdict *v = &out->v;
	double p = rtm_compare_pcts[k];
	uint64_t pa = rtm_hist_percentile(a->all, p), pb = rtm_hist_percentile(b->all, p);

	v->pct = p;
	v->method = RTM_METHOD_NONE;
	v->ratio = pa ? (double)pb / (double)pa : pb ? INFINITY : 1.0;
	v->ratio_lo = v->ratio_hi = NAN;
	if (few) {
		v->kind = RTM_VERDICT_FEW;
		snprintf(v->text, sizeof(v->text), "too few samples for p%g in %s (%llu; %llu "
			 "needed for %d beyond it)", p, few->label,
			 (unsigned long long)few->rounds[0].samples,
			 (unsigned long long)rtm_pct_min_samples(p), RTM_STATS_MIN_BEYOND);
		return;
	}
	v->kind = RTM_VERDICT_SAME;
	snprintf(v->text, sizeof(v->text), "no verdict: %s's p%g of %s is %.2fx %s's, but one "
		 "run a side gives no interval (sections.io keeps no per-interval histograms to "
		 "resample); give several runs per side (compare A1,A2,A3 B1,B2,B3)", b->label, p,
		 op, v->ratio, a->label);
}

static void verdicts(struct rtm_compare_io *c, struct rtm_compare_run *ra,
		     struct rtm_compare_run *rb)
{
	const struct rtm_compare_io_side *a = &c->sides[0];
	int i, j, k;

	for (i = 1; i < c->nsides; i++)
		for (j = 0; j < a->nops; j++) {
			const struct rtm_compare_io_op *ob = find_op(&c->sides[i], a->ops[j].name);

			if (!ob)
				continue;
			as_run(ra, a, &a->ops[j]);
			as_run(rb, &c->sides[i], ob);
			for (k = 0; k < RTM_COMPARE_NPCT; k++) {
				struct rtm_compare_io_verdict *v = &c->verdicts[c->nverdicts++];

				memset(v, 0, sizeof(*v));
				v->side = i;
				snprintf(v->op, sizeof(v->op), "%s", ob->name);
				if (ra->nrounds == 1 && rb->nrounds == 1) {
					one_each(ra, rb, k, ob->name, v);
					continue;
				}
				/* the latency comparison's interval over runs, as for wake-ups */
				rtm_compare_verdict(ra, rb, k, &v->v);
				v->verdict = v->v.kind != RTM_VERDICT_FEW && v->v.ci.valid;
			}
		}
}

void rtm_compare_io_finish(struct rtm_compare_io *c)
{
	struct rtm_compare_run *runs = calloc(2, sizeof(*runs));
	int k, i;

	c->nwarnings = 0;
	c->nverdicts = 0;
	for (k = 0; k < RTM_CIO_NFP; k++)
		if (fp_info[k].unfair && fp_differs(c, k))
			add_warning(c, k);
	for (i = 0; i < c->nsides; i++)
		if (c->sides[i].vm) {
			char w[sizeof(c->warnings[0])];	/* built aside: the label is in *c */

			snprintf(w, sizeof(w), "ran under a hypervisor (%s): its exits, vCPU "
				 "scheduling and virtual disk add latency no guest kernel can remove",
				 c->sides[i].label);
			c->warning_id[c->nwarnings] = "hypervisor";
			memcpy(c->warnings[c->nwarnings++], w, sizeof(w));
			break;
		}
	if (runs)
		verdicts(c, runs, runs + 1);
	free(runs);
}

/* ---- output */

/* The side's figures of one operation: requests, p50, p99, p99.9, max ("-": too few). */
struct io_row {
	uint64_t count, misses;
	uint64_t v[5];		/* p50, p99, p99.9, max in ns */
	bool ok[5];
};

static const double row_pcts[3] = { 50, 99, 99.9 };

static void row_of(const struct rtm_compare_io_op *op, struct io_row *r)
{
	int k;

	memset(r, 0, sizeof(*r));
	r->count = op->lat->count;
	r->misses = op->misses;
	for (k = 0; k < 3; k++) {
		r->v[k] = rtm_hist_percentile(op->lat, row_pcts[k]);
		r->ok[k] = rtm_pct_defined(op->lat->count, row_pcts[k]);
	}
	r->v[3] = op->lat->max_ns;
	r->ok[3] = op->lat->count > 0;
}

static void ratio_cell(char *buf, size_t len, const struct io_row *b, const struct io_row *a,
		       int k)
{
	if (!a->ok[k] || !b->ok[k] || !a->v[k])
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2fx", (double)b->v[k] / (double)a->v[k]);
}

bool rtm_compare_io_cells(const struct rtm_compare_io *c, int side, const char *name,
			  bool ratio, char cells[RTM_CIO_NCELLS][48])
{
	const struct rtm_compare_io_op *base = find_op(&c->sides[0], name);
	const struct rtm_compare_io_op *op = find_op(&c->sides[side], name);
	struct io_row a, b;
	int k;

	if (!base || !op)
		return false;
	row_of(base, &a);
	row_of(op, &b);
	if (ratio) {
		snprintf(cells[0], sizeof(cells[0]), "%s", "");
		for (k = 0; k < 4; k++)
			ratio_cell(cells[1 + k], sizeof(cells[0]), &b, &a, k);
		if (a.misses)
			snprintf(cells[5], sizeof(cells[5]), "%.2fx", (double)b.misses /
				 (double)b.count / ((double)a.misses / (double)a.count));
		else
			snprintf(cells[5], sizeof(cells[5]), "-");
		return true;
	}
	snprintf(cells[0], sizeof(cells[0]), "%llu", (unsigned long long)b.count);
	for (k = 0; k < 4; k++) {
		if (b.ok[k])
			rtm_fmt_us(cells[1 + k], sizeof(cells[0]), (double)b.v[k]);
		else
			snprintf(cells[1 + k], sizeof(cells[0]), "-");
	}
	snprintf(cells[5], sizeof(cells[5]), "%llu (%.2f%%)", (unsigned long long)b.misses,
		 b.count ? 100.0 * (double)b.misses / (double)b.count : 0.0);
	return true;
}

int rtm_compare_io_op_runs(const struct rtm_compare_io *c, int side, const char *name)
{
	const struct rtm_compare_io_op *op = find_op(&c->sides[side], name);

	return op ? op->nrounds : 0;
}

const char *rtm_compare_io_fp_name(enum rtm_cio_fp k)
{
	return fp_info[k].name;
}

static void op_table(const struct rtm_compare_io *c, const struct rtm_compare_io_op *base,
		     FILE *f)
{
	char cells[RTM_CIO_NCELLS][48];
	int i;

	fprintf(f, "\n%s: latency from the planned issue time (us)\n", base->name);
	fprintf(f, "  %-20s %5s %9s %9s %9s %9s %9s  %s\n", "run", "runs", "requests", "p50",
		"p99", "p99.9", "max", "misses");
	for (i = 0; i < c->nsides; i++) {
		if (!rtm_compare_io_cells(c, i, base->name, false, cells))
			continue;
		fprintf(f, "  %-20.20s %5d %9s %9s %9s %9s %9s  %s\n", c->sides[i].label,
			rtm_compare_io_op_runs(c, i, base->name), cells[0], cells[1], cells[2],
			cells[3], cells[4], cells[5]);
		if (!i)
			continue;
		rtm_compare_io_cells(c, i, base->name, true, cells);
		fprintf(f, "  %-20.20s %5s %9s %9s %9s %9s %9s  %s\n", "  ratio", "", "",
			cells[1], cells[2], cells[3], cells[4], cells[5]);
	}
}

void rtm_compare_io_fprint(const struct rtm_compare_io *c, FILE *f)
{
	int i, k;

	fprintf(f, "storage runs (rtmeasure io), %s the baseline:\n", c->sides[0].label);
	for (i = 0; i < c->nsides; i++) {
		const struct rtm_compare_io_side *s = &c->sides[i];

		fprintf(f, "  %s: %d run%s, kernel %s, disk %s, %s, scheduler %s, ioprio %s, %s "
			"%s every %s, deadline %s\n", s->label, s->nrounds, s->nrounds == 1 ?
			"" : "s", s->fp[RTM_CIO_KERNEL] ?: "?", s->fp[RTM_CIO_DISK] ?: "?",
			s->fp[RTM_CIO_TARGET] ?: "?", s->fp[RTM_CIO_SCHEDULER] ?: "?",
			s->fp[RTM_CIO_IOPRIO] ?: "?", s->fp[RTM_CIO_OPS] ?: "?",
			s->fp[RTM_CIO_SIZE] ?: "?", s->fp[RTM_CIO_INTERVAL] ?: "?",
			s->fp[RTM_CIO_DEADLINE] ?: "?");
	}
	for (i = 0; i < c->nwarnings; i++)
		fprintf(f, "warning: %s\n", c->warnings[i]);
	for (k = 0; k < c->sides[0].nops; k++)
		op_table(c, &c->sides[0].ops[k], f);
	fprintf(f, "\nverdicts (latency from the planned issue time, %.0f%% confidence):\n",
		RTM_COMPARE_CONF * 100);
	for (i = 0; i < c->nverdicts; i++)
		fprintf(f, "  %s: %s\n", c->verdicts[i].op, c->verdicts[i].v.text);
	if (!c->nverdicts)
		fprintf(f, "  none: no operation was measured on both sides\n");
}

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *op_json(const struct rtm_compare_io_op *op)
{
	struct io_row r;

	row_of(op, &r);
	return json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "op", op->name,
			 "runs", op->nrounds, "requests", rtm_json_u64(r.count),
			 "p50_ns", r.ok[0] ? rtm_json_u64(r.v[0]) : json_null(),
			 "p99_ns", r.ok[1] ? rtm_json_u64(r.v[1]) : json_null(),
			 "p99.9_ns", r.ok[2] ? rtm_json_u64(r.v[2]) : json_null(),
			 "max_ns", rtm_json_u64(r.v[3]), "misses", rtm_json_u64(op->misses),
			 "errors", rtm_json_u64(op->errors));
}

static json_t *side_json(const struct rtm_compare_io_side *s, bool baseline)
{
	json_t *fp = json_object(), *ops = json_array();
	int k;

	for (k = 0; k < RTM_CIO_NFP; k++)
		json_object_set_new(fp, fp_info[k].id, s->fp[k] ? json_string(s->fp[k]) :
				    json_null());
	for (k = 0; k < s->nops; k++)
		json_array_append_new(ops, op_json(&s->ops[k]));
	return json_pack("{s:s, s:s, s:b, s:i, s:o, s:o}", "label", s->label, "path", s->path,
			 "baseline", baseline, "rounds", s->nrounds, "setup", fp, "ops", ops);
}

static const char *kind_name(const struct rtm_compare_io_verdict *v)
{
	if (v->v.kind == RTM_VERDICT_FEW)
		return "too_few_samples";
	if (!v->verdict)
		return "no_verdict";
	return v->v.kind == RTM_VERDICT_LOWER ? "lower" : v->v.kind == RTM_VERDICT_HIGHER ?
	       "higher" : "not_distinguishable";
}

json_t *rtm_compare_io_json(const struct rtm_compare_io *c)
{
	json_t *sides = json_array(), *w = json_array(), *v = json_array();
	int i;

	for (i = 0; i < c->nsides; i++)
		json_array_append_new(sides, side_json(&c->sides[i], i == 0));
	for (i = 0; i < c->nwarnings; i++)
		json_array_append_new(w, json_pack("{s:s, s:s}", "id", c->warning_id[i], "text",
						   c->warnings[i]));
	for (i = 0; i < c->nverdicts; i++) {
		const struct rtm_compare_io_verdict *x = &c->verdicts[i];

		json_array_append_new(v, json_pack("{s:s, s:s, s:s, s:f, s:s, s:o, s:o, s:o, s:s}",
			"run", c->sides[x->side].label, "baseline", c->sides[0].label, "op", x->op,
			"percentile", x->v.pct, "verdict", kind_name(x),
			"ratio", num_or_null(x->v.ratio), "ratio_lo", num_or_null(x->v.ratio_lo),
			"ratio_hi", num_or_null(x->v.ratio_hi), "text", x->v.text));
	}
	return json_pack("{s:s, s:s, s:f, s:o, s:o, s:o}", "schema", "rtmeasure-compare/1",
			 "kind", "io", "confidence", RTM_COMPARE_CONF, "runs", sides,
			 "warnings", w, "verdicts", v);
}
