// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * import_rtla.c - rtla timerlat hist and rtla osnoise hist text.
 *
 *   # RTLA timerlat histogram
 *   # Time unit is microseconds (us)        or nanoseconds (ns) with --nano
 *   # Duration:   0 00:00:10
 *   Index   IRQ-000   Thr-000   IRQ-001   Thr-001      [Usr-NNN with -u/-U]
 *   5             0         0         1         0      only non-empty rows
 *   ...                                                 unless --with-zeros
 *   over:      1545      2131      1520      2585
 *   count:     8096      8096      8056      8056
 *   min:          6        36         5        41      "-" when no sample
 *   avg:        357       465       345       489
 *   max:      16429     17084     14034     14219
 *   [ALL: block, auto-analysis text: ignored]
 *
 * osnoise has one "CPU-NNN" column per CPU (noise durations). A row's index is
 * bucket * bucket size (-b) in the file's unit; rtla truncates, so a row i
 * stands for [i, i + bucket). The bucket size is not in the file: it is the
 * greatest common divisor of the row indices unless given.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "result/import_priv.h"

struct rtla_col {
	bool extra;
	int idx;
};

enum { ST_HEADER, ST_ROWS, ST_SUMMARY, ST_DONE };

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static struct imp_col *col_of(struct imp_set *s, const struct rtla_col *m)
{
	return m->extra ? &s->extra[m->idx] : &s->cols[m->idx];
}

/* The header's column names; the main histogram of a CPU is Thr, else Usr, else IRQ. */
static int header(struct imp_set *s, char *line, int lineno, bool osnoise,
		  struct rtla_col **mapp, int *ncolsp, struct rtm_error *err)
{
	struct { const char *kind; int cpu; } *cols = NULL;
	struct rtla_col *map;
	char *tok, *save = NULL;
	size_t cap = 0;
	int n = 0, i, j;

	tok = strtok_r(line, " \t", &save);
	if (!tok || strcmp(tok, "Index"))
		return rtm_error_set(err, "%s:%d: no Index column (recorded with --no-index?): the "
				     "rows' values are not in the file", s->name, lineno);
	while ((tok = strtok_r(NULL, " \t", &save)) != NULL) {
		static const char *const kinds[][2] = {
			{ "IRQ-", "irq" }, { "Thr-", "thread" }, { "Usr-", "user" },
			{ "CPU-", "noise" },
		};
		const char *kind = NULL, *p = tok + 4;
		uint64_t cpu;
		void *grown;

		for (i = 0; i < 4; i++)
			if (!strncmp(tok, kinds[i][0], 4))
				kind = kinds[i][1];
		if (!kind || (osnoise != !strcmp(kind, "noise")) || imp_parse_u64(&p, &cpu) ||
		    *p || cpu >= 8192 || n >= IMP_MAX_COLS) {
			free(cols);
			return rtm_error_set(err, "%s:%d: unknown column '%s' in rtla's header "
					     "(corrupt file?)", s->name, lineno, tok);
		}
		grown = rtm_grow(cols, &cap, (size_t)n, sizeof(*cols), 16);
		if (!grown) {
			free(cols);
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		}
		cols = grown;
		cols[n].kind = kind;
		cols[n].cpu = (int)cpu;
		for (j = 0; j < n; j++)
			if (cols[j].cpu == cols[n].cpu && cols[j].kind == kind) {
				free(cols);
				return rtm_error_set(err, "%s:%d: column '%s' appears twice "
						     "(corrupt file?)", s->name, lineno, tok);
			}
		n++;
	}
	map = calloc((size_t)(n ? n : 1), sizeof(*map));
	if (!map) {
		free(cols);
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		bool has[3] = { false, false, false };	/* thread, user, irq */
		const char *main;
		struct imp_col *c;

		for (j = 0; j < n; j++)
			if (cols[j].cpu == cols[i].cpu) {
				has[0] |= !strcmp(cols[j].kind, "thread");
				has[1] |= !strcmp(cols[j].kind, "user");
				has[2] |= !strcmp(cols[j].kind, "irq");
			}
		main = osnoise ? "noise" : has[0] ? "thread" : has[1] ? "user" : "irq";
		map[i].extra = strcmp(cols[i].kind, main) != 0;
		c = map[i].extra ? imp_add_extra(s, cols[i].cpu, cols[i].kind) :
				   imp_add_col(s, cols[i].cpu, -1);
		if (!c) {
			free(cols);
			free(map);
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		}
		map[i].idx = map[i].extra ? s->nextra - 1 : s->ncols - 1;
		if (!osnoise && !has[0] && !map[i].extra)
			imp_note(s, "CPU %d has no thread latency column (--no-thread): its %s "
				 "latency is the CPU's histogram", cols[i].cpu, main);
	}
	free(cols);
	*mapp = map;
	*ncolsp = n;
	return 0;
}

/* "key:" followed by one value per column ("-": none); @dbl allows fractions. */
static int summary(struct imp_set *s, const char *p, int lineno, const char *key,
		   const struct rtla_col *map, int n, struct rtm_error *err)
{
	int i;

	for (i = 0; i < n; i++) {
		struct imp_col *c = col_of(s, &map[i]);
		double d = 0;
		uint64_t v = 0;

		p = imp_skip_blanks(p);
		if (*p == '-' && (p[1] == ' ' || p[1] == '\t' || !p[1]) && strcmp(key, "over") &&
		    strcmp(key, "count")) {
			p++;
			continue;
		}
		if (!strcmp(key, "avg") ? imp_parse_double(&p, &d) : imp_parse_u64(&p, &v))
			return rtm_error_set(err, "%s:%d: '%s:' has %d values for %d columns "
					     "(truncated or corrupt)", s->name, lineno, key, i, n);
		if (!strcmp(key, "over")) {
			c->overflows = v;
		} else if (!strcmp(key, "count")) {
			c->has_count = true;
			c->count = v;
		} else if (!strcmp(key, "min")) {
			c->has_min = true;
			c->src_min = (double)v;
			c->min_ns = v * s->val_width_ns;
		} else if (!strcmp(key, "max")) {
			c->has_max = true;
			c->src_max = (double)v;
			c->max_ns = v * s->val_width_ns;
		} else {
			c->has_avg = true;
			c->src_avg = d;
			c->avg_ns = d * (double)s->val_width_ns;
		}
	}
	if (!imp_blank(p))
		return rtm_error_set(err, "%s:%d: '%s:' has more values than columns (corrupt "
				     "file?)", s->name, lineno, key);
	return 0;
}

static int row(struct imp_set *s, const char *p, int lineno, const struct rtla_col *map, int n,
	       uint64_t *idx, struct rtm_error *err)
{
	int i;

	if (imp_parse_u64(&p, idx) || *idx > IMP_MAX_VALUE_NS)
		return rtm_error_set(err, "%s:%d: not a histogram row (corrupt file?)", s->name,
				     lineno);
	for (i = 0; i < n; i++) {
		uint64_t v;

		if (imp_parse_u64(&p, &v))
			return rtm_error_set(err, "%s:%d: row has %d values for %d columns "
					     "(truncated or corrupt)", s->name, lineno, i, n);
		/* rows in the file's unit; scaled to ns once the unit is final */
		if (imp_col_add_row(col_of(s, &map[i]), *idx, v))
			return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	if (!imp_blank(p))
		return rtm_error_set(err, "%s:%d: row has more values than columns (corrupt "
				     "file?)", s->name, lineno);
	return 0;
}

static void scale_rows(struct imp_col *c, uint64_t unit)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		c->rows[i].lo_ns *= unit;
}

/* Where a parse stands: the column map, the unit, what has been seen. */
struct rtla_parse {
	struct imp_set *s;
	struct rtla_col *map;
	int n;				/* columns */
	int state;			/* ST_* */
	bool osnoise, has_unit, has_over, has_count;
	uint64_t unit;			/* ns per unit: 1000 (us) or 1 (ns) */
	uint64_t g, prev;		/* gcd of the row indexes, the last one */
	int nrows;
};

/* A line before the columns: time unit, duration, or the column names. */
static int rtla_header_line(struct rtla_parse *r, char *line, int lineno, struct rtm_error *err)
{
	struct imp_set *s = r->s;
	unsigned int d, h, m, sec;
	int ret;

	/* s->val_width_ns is set now: min/max are scaled as they are read */
	if (!strcmp(line, "# Time unit is microseconds (us)")) {
		r->has_unit = true;
		r->unit = s->val_width_ns = 1000;
	} else if (!strcmp(line, "# Time unit is nanoseconds (ns)")) {
		r->has_unit = true;
		r->unit = s->val_width_ns = 1;
	} else if (sscanf(line, "# Duration: %u %u:%u:%u", &d, &h, &m, &sec) == 4) {
		/* rtla writes days and hh:mm:ss; beyond what a result holds is corrupt */
		if (d > IMP_MAX_DURATION_S / 86400 - 1 || h > 23 || m > 59 || sec > 59)
			return rtm_error_set(err, "%s:%d: duration out of range (days hh:mm:ss; "
					     "corrupt file?)", s->name, lineno);
		s->duration_ns = (((uint64_t)d * 24 + h) * 3600 + (uint64_t)m * 60 + sec) *
				 1000000000ull;
		s->has_duration = true;
	} else if (line[0] != '#' && !imp_blank(line)) {
		if (!r->has_unit)
			return rtm_error_set(err, "%s:%d: no '# Time unit' line before the "
					     "columns: cannot tell us from ns (corrupt file?)",
					     s->name, lineno);
		ret = header(s, line, lineno, r->osnoise, &r->map, &r->n, err);
		if (ret)
			return ret;
		if (!r->n)
			return rtm_error_set(err, "%s: rtla recorded no samples (no CPU columns): "
					     "nothing to import", s->name);
		r->state = ST_ROWS;
	}
	return 0;
}

/* A histogram row: its index must grow. */
static int rtla_row_line(struct rtla_parse *r, const char *p, int lineno, struct rtm_error *err)
{
	uint64_t idx;
	int ret = row(r->s, p, lineno, r->map, r->n, &idx, err);

	if (ret)
		return ret;
	if (r->nrows && idx <= r->prev)
		return rtm_error_set(err, "%s:%d: row %llu after row %llu: rows out of order "
				     "(corrupt file?)", r->s->name, lineno, (unsigned long long)idx,
				     (unsigned long long)r->prev);
	r->prev = idx;
	r->nrows++;
	r->g = gcd(r->g, idx);
	return 0;
}

/* After the rows: the summary lines (over, count, min, avg, max), or the end. */
static int rtla_summary_line(struct rtla_parse *r, const char *p, int lineno,
			     struct rtm_error *err)
{
	static const char *const keys[] = { "over", "count", "min", "avg", "max" };
	size_t k;
	int ret;

	if (!strncmp(p, "ALL:", 4) && r->state == ST_SUMMARY) {
		r->state = ST_DONE;
		return 0;
	}
	for (k = 0; k < 5; k++) {
		size_t kl = strlen(keys[k]);

		if (!strncmp(p, keys[k], kl) && p[kl] == ':')
			break;
	}
	if (k < 5) {
		ret = summary(r->s, p + strlen(keys[k]) + 1, lineno, keys[k], r->map, r->n, err);
		if (ret)
			return ret;
		r->has_over |= k == 0;
		r->has_count |= k == 1;
		r->state = k == 4 ? ST_DONE : ST_SUMMARY;
	} else if (r->state == ST_SUMMARY) {
		r->state = ST_DONE;	/* analysis text after the summary */
	} else if (!imp_blank(p)) {
		return rtm_error_set(err, "%s:%d: unexpected text among rtla's rows (corrupt "
				     "file?)", r->s->name, lineno);
	}
	return 0;
}

/* The whole file read: the bucket size, rows in ns, and what the import assumed. */
static int rtla_finish(struct rtla_parse *r, const struct rtm_import_opts *o, int last,
		       struct rtm_error *err)
{
	struct imp_set *s = r->s;
	uint64_t bucket;
	int i;

	if (r->state == ST_HEADER)
		return rtm_error_set(err, "%s: truncated: rtla's header ends at line %d without "
				     "the column names", s->name, last);
	if (!r->has_over)
		return rtm_error_set(err, "%s: truncated: no 'over:' line after rtla's rows (the "
				     "file ends at line %d)", s->name, last);
	if (!r->has_count)
		imp_note(s, "no summary (--no-summary): count, min, avg and max unknown");
	s->unit = r->unit == 1 ? "ns" : "us";
	bucket = o->rtla_bucket ? o->rtla_bucket : r->g ? r->g : 1;
	if (o->rtla_bucket && r->g % o->rtla_bucket)
		return rtm_error_set(err, "%s: a row index is not a multiple of --bucket-size "
				     "%llu", s->name, (unsigned long long)o->rtla_bucket);
	if (!o->rtla_bucket)
		imp_note(s, "rtla's bucket size (-b) is not in the file: %llu %s, the greatest "
			 "common divisor of the row indices (give --bucket-size if the run used a "
			 "larger one)", (unsigned long long)bucket, s->unit);
	s->row_width_ns = bucket * r->unit;
	s->val_width_ns = r->unit;
	for (i = 0; i < s->ncols; i++)
		scale_rows(&s->cols[i], r->unit);
	for (i = 0; i < s->nextra; i++)
		scale_rows(&s->extra[i], r->unit);
	s->cpus_known = true;
	if (r->unit == 1 && bucket == 1)
		imp_note(s, "rows are nanoseconds (--nano), imported as they are");
	else
		imp_note(s, "a row i stands for [i, i+%llu) %s (rtla truncates) and is imported "
			 "at its midpoint; min and max stand for [v, v+1) %s", (unsigned long long)
			 bucket, s->unit, s->unit);
	if (r->osnoise)
		imp_note(s, "values are osnoise noise durations (one per noise occurrence), not "
			 "wake-up latencies");
	else if (s->nextra)
		imp_note(s, "the per-CPU histograms are the thread latency; IRQ (and user) "
			 "latency are in sections.timerlat");
	imp_note(s, "rtla's histogram text names neither the rtla version nor its command line");
	return 0;
}

int imp_parse_rtla(struct imp_set *s, char *text, size_t len,
		   const struct rtm_import_opts *o, struct rtm_error *err)
{
	struct rtla_parse r = { .s = s, .state = ST_HEADER, .unit = 1000 };
	int ret = 0, last = 0;
	struct imp_lines it;
	char *line;

	imp_lines_init(&it, text, len);
	while ((line = imp_next_line(&it)) != NULL && !s->format) {
		if (!strcmp(line, "# RTLA timerlat histogram"))
			s->format = "rtla-timerlat-hist";
		else if (!strcmp(line, "# RTLA osnoise histogram"))
			s->format = "rtla-osnoise-hist";
	}
	if (!s->format)
		return rtm_error_set(err, "%s: no '# RTLA timerlat histogram' or '# RTLA osnoise "
				     "histogram' line (corrupt file?)", s->name);
	r.osnoise = !strcmp(s->format, "rtla-osnoise-hist");
	snprintf(s->tool, sizeof(s->tool), "rtla %s", r.osnoise ? "osnoise" : "timerlat");
	for (; line && r.state != ST_DONE && !ret; line = imp_next_line(&it)) {
		last = it.lineno;
		if (r.state == ST_HEADER)
			ret = rtla_header_line(&r, line, it.lineno, err);
		else if (*line >= '0' && *line <= '9' && r.state == ST_ROWS)
			ret = rtla_row_line(&r, line, it.lineno, err);
		else
			ret = rtla_summary_line(&r, line, it.lineno, err);
	}
	if (!ret)
		ret = rtla_finish(&r, o, last, err);
	free(r.map);
	return ret;
}
