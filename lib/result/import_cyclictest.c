// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * import_cyclictest.c - cyclictest's -h / -H / --histfile text.
 *
 *   # Histogram
 *   000000 000000	000000[	000000]   row (us, or ns with -N), one column per
 *   ...                                 thread, [-H: all threads]
 *   # Total: 000009999 000009994       rt-tests <= 2.4 only; those print every
 *   # Min Latencies: 00010 00010       row, >= 2.5 only the non-zero ones
 *   # Avg Latencies: 00034 00029
 *   # Max Latencies: 01028 04977[ 04977]
 *   # Histogram Overflows: 00000 00001[ 00001]
 *   # Histogram Overflow at cycle number:
 *   # Thread 0:
 *   # Thread 1: 07096
 *   # Thread Ids: 08645 08646          with -b, on stdout
 *   # Break thread: 8646
 *   # Break value: 4252
 *
 * cyclictest truncates each latency to whole microseconds (ns with -N), so row
 * u holds [u, u + 1) and so do the min and max values.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "result/import_priv.h"
#include "core/units.h"

#define MAXV 8193	/* values per trailer line: threads + the all column */

struct trailer {
	int n;
	uint64_t v[MAXV];
};

struct ct_parse {
	int lineno_rows_end;
	int ncols;			/* columns per row, -1 before the first row */
	uint64_t *cells;		/* nrows x ncols */
	uint64_t *rowidx;
	size_t nrows, cap;
	struct trailer total, min, avg, max, ovf, tids;
	bool has_total, has_min, has_avg, has_max, has_ovf, has_tids;
	bool has_break_tid, has_break_val;
	uint64_t break_tid, break_val;
};

/* Read the numbers after "prefix:"; -1 when something else follows. */
static int values(const char *p, struct trailer *t)
{
	t->n = 0;
	for (;;) {
		p = imp_skip_blanks(p);
		if (!*p)
			return 0;
		if (p[0] == '#')	/* "# 00190 others" after an overflow list */
			return 0;
		if (t->n >= MAXV || imp_parse_u64(&p, &t->v[t->n]))
			return -1;
		t->n++;
	}
}

static int add_row(struct ct_parse *ct, const char *line, struct imp_set *s, int lineno,
		   struct rtm_error *err)
{
	uint64_t idx, v[MAXV];
	const char *p = line;
	int n = 0;

	if (imp_parse_u64(&p, &idx) || idx >= IMP_MAX_ROWS)
		return rtm_error_set(err, "%s:%d: not a histogram row (corrupt file?)", s->name,
				     lineno);
	for (;;) {
		p = imp_skip_blanks(p);
		if (!*p)
			break;
		if (n >= MAXV || imp_parse_u64(&p, &v[n]))
			return rtm_error_set(err, "%s:%d: not a histogram row (corrupt file?)",
					     s->name, lineno);
		n++;
	}
	if (!n)
		return rtm_error_set(err, "%s:%d: histogram row without counts (truncated or "
				     "corrupt)", s->name, lineno);
	if (ct->ncols < 0)
		ct->ncols = n;
	if (n != ct->ncols)
		return rtm_error_set(err, "%s:%d: row has %d columns, the rows before %d "
				     "(truncated or corrupt)", s->name, lineno, n, ct->ncols);
	if (ct->nrows && idx <= ct->rowidx[ct->nrows - 1])
		return rtm_error_set(err, "%s:%d: row %llu after row %llu: rows out of order "
				     "(corrupt file?)", s->name, lineno, (unsigned long long)idx,
				     (unsigned long long)ct->rowidx[ct->nrows - 1]);
	{
		/* one row: n cells and its index, both arrays grown alike */
		size_t cap = ct->cap, cap2 = ct->cap;
		uint64_t *cells = rtm_grow(ct->cells, &cap, ct->nrows, (size_t)n * sizeof(*cells),
					   1024);
		uint64_t *ri;

		if (!cells)
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		ct->cells = cells;
		ri = rtm_grow(ct->rowidx, &cap2, ct->nrows, sizeof(*ri), 1024);
		if (!ri)
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		ct->rowidx = ri;
		ct->cap = cap;
	}
	ct->rowidx[ct->nrows] = idx;
	memcpy(&ct->cells[ct->nrows * (size_t)n], v, (size_t)n * sizeof(*v));
	ct->nrows++;
	return 0;
}

static int trailer_line(struct ct_parse *ct, const char *line, struct imp_set *s, int lineno,
			struct rtm_error *err)
{
	static const struct {
		const char *prefix;
		size_t off_has, off_val;
	} keys[] = {
		{ "# Total:", offsetof(struct ct_parse, has_total),
		  offsetof(struct ct_parse, total) },
		{ "# Min Latencies:", offsetof(struct ct_parse, has_min),
		  offsetof(struct ct_parse, min) },
		{ "# Avg Latencies:", offsetof(struct ct_parse, has_avg),
		  offsetof(struct ct_parse, avg) },
		{ "# Max Latencies:", offsetof(struct ct_parse, has_max),
		  offsetof(struct ct_parse, max) },
		{ "# Histogram Overflows:", offsetof(struct ct_parse, has_ovf),
		  offsetof(struct ct_parse, ovf) },
		{ "# Thread Ids:", offsetof(struct ct_parse, has_tids),
		  offsetof(struct ct_parse, tids) },
	};
	const char *p;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = strlen(keys[i].prefix);

		if (strncmp(line, keys[i].prefix, n))
			continue;
		if (values(line + n, (struct trailer *)((char *)ct + keys[i].off_val)))
			return rtm_error_set(err, "%s:%d: '%s' with a value that is not a number "
					     "(corrupt file?)", s->name, lineno, keys[i].prefix);
		*(bool *)((char *)ct + keys[i].off_has) = true;
		return 0;
	}
	if (!strncmp(line, "# Break thread:", 15)) {
		p = line + 15;
		if (imp_parse_u64(&p, &ct->break_tid) || !imp_blank(p))
			return rtm_error_set(err, "%s:%d: bad '# Break thread:' line", s->name,
					     lineno);
		ct->has_break_tid = true;
	} else if (!strncmp(line, "# Break value:", 14)) {
		p = line + 14;
		if (imp_parse_u64(&p, &ct->break_val) || !imp_blank(p))
			return rtm_error_set(err, "%s:%d: bad '# Break value:' line", s->name,
					     lineno);
		ct->has_break_val = true;
	}
	return 0;	/* "# Thread N: cycles", "# SMIs:", comments */
}

/* A trailer line has @n (threads) or @n + 1 (with the -H all column) values. */
static int check_n(const struct imp_set *s, const char *what, const struct trailer *t, int n,
		   bool allcol, struct rtm_error *err)
{
	if (t->n == n || (allcol && t->n == n + 1))
		return 0;
	return rtm_error_set(err, "%s: '# %s' has %d values for %d threads (truncated or "
			     "corrupt)", s->name, what, t->n, n);
}

static void map_cpus(struct imp_set *s, int nthreads, const struct rtm_import_opts *o,
		     int *cpu)
{
	struct rtm_cpulist cl = { 0, NULL };
	int i;

	s->cpus_known = false;
	for (i = 0; i < nthreads; i++)
		cpu[i] = i;
	if (!o->affinity) {
		imp_note(s, "cyclictest's histogram does not say which CPU each thread ran on: the "
			 "entries are threads 0..%d, not CPUs (give the run's -a list with "
			 "--affinity to number them by CPU)", nthreads - 1);
		return;
	}
	rtm_cpulist_parse(o->affinity, &cl, NULL);	/* checked by the caller */
	if (cl.n < nthreads) {
		imp_note(s, "--affinity %s has %d CPUs for %d threads, so some CPUs ran several "
			 "threads: the entries are threads 0..%d", o->affinity, cl.n, nthreads,
			 nthreads - 1);
	} else {
		/* cyclictest -a: thread i runs on the i-th CPU of the list */
		for (i = 0; i < nthreads; i++)
			cpu[i] = cl.cpus[i];
		s->cpus_known = true;
		imp_note(s, "CPUs from --affinity %s: thread i ran on the i-th CPU of the list, "
			 "as cyclictest -a assigns them", o->affinity);
	}
	rtm_cpulist_release(&cl);
}

/* The rows and trailer lines agree on the threads; the -H column is their sum. */
static int check_shape(struct imp_set *s, const struct ct_parse *ct, struct rtm_error *err)
{
	int n = ct->min.n, i;
	bool allcol = ct->ncols == n + 1;
	size_t r;

	if (ct->ncols >= 0 && ct->ncols != n && !allcol)
		return rtm_error_set(err, "%s: rows have %d columns for %d threads (corrupt file?)",
				     s->name, ct->ncols, n);
	if (check_n(s, "Avg Latencies", &ct->avg, n, false, err) ||
	    check_n(s, "Max Latencies", &ct->max, n, true, err) ||
	    check_n(s, "Histogram Overflows", &ct->ovf, n, true, err) ||
	    (ct->has_total && check_n(s, "Total", &ct->total, n, true, err)))
		return -EINVAL;
	if (!allcol)
		return 0;
	for (r = 0; r < ct->nrows; r++) {
		uint64_t sum = 0, *row = &ct->cells[r * (size_t)ct->ncols];

		for (i = 0; i < n; i++)
			sum += row[i];
		if (row[n] != sum)
			return rtm_error_set(err, "%s: row %llu: the all-threads column "
					     "(%llu) is not the sum of the threads (%llu): "
					     "corrupt",
					     s->name, (unsigned long long)ct->rowidx[r],
					     (unsigned long long)row[n],
					     (unsigned long long)sum);
	}
	imp_note(s, "the -H all-threads column was checked and left out (it is not a "
		 "CPU)");
	return 0;
}

/* Thread @i's column: its rows, checked against '# Total:', and its trailer values. */
static int add_thread(struct imp_set *s, const struct ct_parse *ct, int i, int cpu,
		      struct rtm_error *err)
{
	struct imp_col *c = imp_add_col(s, cpu, i);
	uint64_t unit = s->row_width_ns;
	size_t r;

	if (!c)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	for (r = 0; r < ct->nrows; r++)
		if (imp_col_add_row(c, ct->rowidx[r] * unit,
				    ct->cells[r * (size_t)ct->ncols + (size_t)i]))
			return rtm_error_setn(err, -ENOMEM, "out of memory");
	if (ct->has_total && ct->total.v[i] != c->in_rows)
		return rtm_error_set(err, "%s: the rows of thread %d add up to %llu but "
				     "'# Total:' says %llu (truncated or corrupt)", s->name,
				     i, (unsigned long long)c->in_rows,
				     (unsigned long long)ct->total.v[i]);
	c->overflows = ct->ovf.v[i];
	c->has_min = c->has_avg = c->has_max = true;
	c->src_min = (double)ct->min.v[i];
	c->src_avg = (double)ct->avg.v[i];
	c->src_max = (double)ct->max.v[i];
	c->min_ns = ct->min.v[i] * unit;
	c->max_ns = ct->max.v[i] * unit;
	c->avg_ns = c->src_avg * (double)unit;
	if (!c->in_rows && !c->overflows)
		c->has_min = c->has_avg = c->has_max = false;	/* no samples */
	return 0;
}

/* cyclictest -b: the break as an event, on its thread's CPU when the tids tell it. */
static void add_break_event(struct imp_set *s, const struct ct_parse *ct, const int *cpu)
{
	json_t *ev = json_pack("{s:s}", "type", "break");
	uint64_t unit = s->row_width_ns;
	int t = -1, i;

	if (ct->has_break_tid && ct->has_tids)
		for (i = 0; i < ct->tids.n && i < ct->min.n; i++)
			if (ct->tids.v[i] == ct->break_tid)
				t = i;
	if (t >= 0) {
		json_object_set_new(ev, "cpu", json_integer(cpu[t]));
		json_object_set_new(ev, "thread", json_integer(t));
	}
	if (ct->has_break_tid)
		json_object_set_new(ev, "tid", json_integer((json_int_t)ct->break_tid));
	json_object_set_new(ev, "latency_ns",
			    json_integer((json_int_t)(ct->break_val * unit + unit / 2)));
	json_object_set_new(ev, "source", json_string("cyclictest -b: '# Break thread:', "
						      "'# Break value:'"));
	json_array_append_new(s->events, ev);
	if (t < 0)
		imp_note(s, "the -b break thread (tid %llu) is not among '# Thread Ids:': "
			 "its CPU is unknown", (unsigned long long)ct->break_tid);
}

static int build_cols(struct imp_set *s, struct ct_parse *ct, const struct rtm_import_opts *o,
		      struct rtm_error *err)
{
	int n = ct->min.n, i, *cpu, ret;

	ret = check_shape(s, ct, err);
	if (ret)
		return ret;
	cpu = calloc((size_t)n, sizeof(*cpu));
	if (!cpu)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	map_cpus(s, n, o, cpu);
	for (i = 0; i < n; i++) {
		ret = add_thread(s, ct, i, cpu[i], err);
		if (ret) {
			free(cpu);
			return ret;
		}
	}
	if (ct->has_break_val)
		add_break_event(s, ct, cpu);
	free(cpu);
	return 0;
}

/* The lines after "# Histogram": rows, then the trailer. 0 or -errno with the message. */
static int read_hist(struct imp_set *s, struct ct_parse *ct, char *text, size_t len,
		     struct rtm_error *err)
{
	struct imp_lines it;
	bool in_hist = false;
	int ret = 0, last = 0;
	char *line;

	imp_lines_init(&it, text, len);
	while ((line = imp_next_line(&it)) != NULL) {
		if (!in_hist) {
			in_hist = !strcmp(line, "# Histogram");
			continue;
		}
		last = it.lineno;
		if (line[0] >= '0' && line[0] <= '9') {
			if (ct->has_min || ct->has_max)
				ret = rtm_error_set(err, "%s:%d: histogram row after the trailer "
						    "(corrupt file?)", s->name, it.lineno);
			else
				ret = add_row(ct, line, s, it.lineno, err);
		} else if (line[0] == '#') {
			ret = trailer_line(ct, line, s, it.lineno, err);
		} else if (!imp_blank(line)) {
			ret = rtm_error_set(err, "%s:%d: unexpected text in cyclictest's histogram "
					    "(corrupt file?)", s->name, it.lineno);
		}
		if (ret)
			return ret;
	}
	if (!ct->has_min || !ct->has_avg || !ct->has_max || !ct->has_ovf)
		return rtm_error_set(err, "%s: truncated: the file ends at line %d without the "
				     "'# %s' line of cyclictest's histogram", s->name, last,
				     !ct->has_min ? "Min Latencies:" : !ct->has_avg ?
				     "Avg Latencies:" : !ct->has_max ? "Max Latencies:" :
				     "Histogram Overflows:");
	if (ct->min.n < 1)
		return rtm_error_set(err, "%s: '# Min Latencies:' lists no thread (truncated or "
				     "corrupt)", s->name);
	return 0;
}

/* The -h limit when the file shows it, and what the file does not tell. */
static void hist_notes(struct imp_set *s, const struct ct_parse *ct,
		       const struct rtm_import_opts *o)
{
	/* rt-tests <= 2.4 print every row from 0 and a "# Total:" line */
	if (ct->has_total && ct->nrows && ct->rowidx[0] == 0 &&
	    ct->rowidx[ct->nrows - 1] == ct->nrows - 1)
		s->overflow_above_ns = ct->nrows * s->row_width_ns;
	else if (!ct->has_total)
		imp_note(s, "sparse rows (rt-tests >= 2.5 print only non-empty rows): the -h "
			 "limit, where overflows begin, is not in the file");
	if (o->nsecs)
		imp_note(s, "rows are in nanoseconds (-N): a row u is imported as u ns");
	else
		imp_note(s, "a row u stands for the latencies [u, u+1) us (cyclictest truncates) "
			 "and is imported as u + 0.5 us; so are the maximum and the -b break "
			 "value");
	imp_note(s, "cyclictest's histogram text names neither its version nor its command "
		 "line, nor the run's start and duration");
}

int imp_parse_cyclictest(struct imp_set *s, char *text, size_t len,
			 const struct rtm_import_opts *o, struct rtm_error *err)
{
	struct ct_parse *ct = calloc(1, sizeof(*ct));
	int ret;

	if (!ct)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	ct->ncols = -1;
	s->format = "cyclictest-hist";
	snprintf(s->tool, sizeof(s->tool), "cyclictest");
	s->unit = o->nsecs ? "ns" : "us";
	s->row_width_ns = s->val_width_ns = o->nsecs ? 1 : 1000;
	if (o->affinity) {
		struct rtm_cpulist cl = { 0, NULL };
		struct rtm_error sub = { "" };

		if (rtm_cpulist_parse(o->affinity, &cl, &sub)) {
			free(ct);
			return rtm_error_set(err, "--affinity: %s", sub.msg);
		}
		rtm_cpulist_release(&cl);
	}
	ret = read_hist(s, ct, text, len, err);
	if (!ret) {
		hist_notes(s, ct, o);
		ret = build_cols(s, ct, o, err);
	}
	free(ct->cells);
	free(ct->rowidx);
	free(ct);
	return ret;
}
