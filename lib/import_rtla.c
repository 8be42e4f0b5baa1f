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

#include "import_priv.h"

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
		grown = realloc(cols, (size_t)(n + 1) * sizeof(*cols));
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

int imp_parse_rtla(struct imp_set *s, char *text, size_t len,
		   const struct rtm_import_opts *o, struct rtm_error *err)
{
	struct rtla_col *map = NULL;
	bool osnoise = false, has_unit = false, has_over = false, has_count = false;
	uint64_t unit = 1000, g = 0, idx, prev = 0, bucket;
	int state = ST_HEADER, n = 0, i, ret = 0, nrows = 0, last = 0;
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
	osnoise = !strcmp(s->format, "rtla-osnoise-hist");
	snprintf(s->tool, sizeof(s->tool), "rtla %s", osnoise ? "osnoise" : "timerlat");
	for (; line && state != ST_DONE; line = imp_next_line(&it)) {
		const char *p = line;

		last = it.lineno;
		if (state == ST_HEADER) {
			unsigned int d, h, m, sec;

			/* s->val_width_ns is set now: min/max are scaled as they are read */
			if (!strcmp(line, "# Time unit is microseconds (us)")) {
				has_unit = true;
				unit = s->val_width_ns = 1000;
			} else if (!strcmp(line, "# Time unit is nanoseconds (ns)")) {
				has_unit = true;
				unit = s->val_width_ns = 1;
			} else if (sscanf(line, "# Duration: %u %u:%u:%u", &d, &h, &m, &sec) == 4) {
				/* rtla writes days and hh:mm:ss; ten thousand years is corrupt */
				if (d > 3650000 || h > 23 || m > 59 || sec > 59) {
					ret = rtm_error_set(err, "%s:%d: duration out of range "
							    "(days hh:mm:ss; corrupt file?)",
							    s->name, it.lineno);
					goto out;
				}
				s->duration_ns = (((uint64_t)d * 24 + h) * 3600 + (uint64_t)m * 60 +
						  sec) * 1000000000ull;
				s->has_duration = true;
			} else if (line[0] != '#' && !imp_blank(line)) {
				if (!has_unit) {
					ret = rtm_error_set(err, "%s:%d: no '# Time unit' line "
							    "before the columns: cannot tell us "
							    "from ns (corrupt file?)", s->name,
							    it.lineno);
					goto out;
				}
				ret = header(s, line, it.lineno, osnoise, &map, &n, err);
				if (ret)
					goto out;
				if (!n) {
					ret = rtm_error_set(err, "%s: rtla recorded no samples "
							    "(no CPU columns): nothing to import",
							    s->name);
					goto out;
				}
				state = ST_ROWS;
			}
			continue;
		}
		if (*p >= '0' && *p <= '9' && state == ST_ROWS) {
			ret = row(s, p, it.lineno, map, n, &idx, err);
			if (ret)
				goto out;
			if (nrows && idx <= prev) {
				ret = rtm_error_set(err, "%s:%d: row %llu after row %llu: rows "
						    "out of order (corrupt file?)", s->name,
						    it.lineno, (unsigned long long)idx,
						    (unsigned long long)prev);
				goto out;
			}
			prev = idx;
			nrows++;
			g = gcd(g, idx);
			continue;
		}
		if (!strncmp(p, "ALL:", 4) && state == ST_SUMMARY) {
			state = ST_DONE;
			continue;
		}
		{
			static const char *const keys[] = { "over", "count", "min", "avg", "max" };
			size_t k;

			for (k = 0; k < 5; k++) {
				size_t kl = strlen(keys[k]);

				if (!strncmp(p, keys[k], kl) && p[kl] == ':')
					break;
			}
			if (k < 5) {
				ret = summary(s, p + strlen(keys[k]) + 1, it.lineno, keys[k], map,
					      n, err);
				if (ret)
					goto out;
				has_over |= k == 0;
				has_count |= k == 1;
				state = ST_SUMMARY;
				if (k == 4)
					state = ST_DONE;
			} else if (state == ST_SUMMARY) {
				state = ST_DONE;	/* analysis text after the summary */
			} else if (!imp_blank(p)) {
				ret = rtm_error_set(err, "%s:%d: unexpected text among rtla's rows "
						    "(corrupt file?)", s->name, it.lineno);
				goto out;
			}
		}
	}
	if (state == ST_HEADER) {
		ret = rtm_error_set(err, "%s: truncated: rtla's header ends at line %d without the "
				    "column names", s->name, last);
		goto out;
	}
	if (!has_over) {
		ret = rtm_error_set(err, "%s: truncated: no 'over:' line after rtla's rows (the "
				    "file ends at line %d)", s->name, last);
		goto out;
	}
	if (!has_count)
		imp_note(s, "no summary (--no-summary): count, min, avg and max unknown");
	s->unit = unit == 1 ? "ns" : "us";
	bucket = o->rtla_bucket ? o->rtla_bucket : g ? g : 1;
	if (o->rtla_bucket && g % o->rtla_bucket) {
		ret = rtm_error_set(err, "%s: a row index is not a multiple of --bucket-size %llu",
				    s->name, (unsigned long long)o->rtla_bucket);
		goto out;
	}
	if (!o->rtla_bucket)
		imp_note(s, "rtla's bucket size (-b) is not in the file: %llu %s, the greatest "
			 "common divisor of the row indices (give --bucket-size if the run used a "
			 "larger one)", (unsigned long long)bucket, s->unit);
	s->row_width_ns = bucket * unit;
	s->val_width_ns = unit;
	for (i = 0; i < s->ncols; i++)
		scale_rows(&s->cols[i], unit);
	for (i = 0; i < s->nextra; i++)
		scale_rows(&s->extra[i], unit);
	s->cpus_known = true;
	if (unit == 1 && bucket == 1)
		imp_note(s, "rows are nanoseconds (--nano), imported as they are");
	else
		imp_note(s, "a row i stands for [i, i+%llu) %s (rtla truncates) and is imported "
			 "at its midpoint; min and max stand for [v, v+1) %s", (unsigned long long)
			 bucket, s->unit, s->unit);
	if (osnoise)
		imp_note(s, "values are osnoise noise durations (one per noise occurrence), not "
			 "wake-up latencies");
	else if (s->nextra)
		imp_note(s, "the per-CPU histograms are the thread latency; IRQ (and user) "
			 "latency are in sections.timerlat");
	imp_note(s, "rtla's histogram text names neither the rtla version nor its command line");
out:
	free(map);
	return ret;
}
