// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * import_set.c - what the importers share (import_priv.h): the line and number
 * helpers of the text parsers, the histogram columns a parser fills, and a
 * column's histogram and JSON for the result import.c builds.
 *
 * It calls nothing of import.c or the parsers (import_cyclictest.c,
 * import_json.c, import_rtla.c, import_cmdline.c), which all call it.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "result/import_priv.h"
#include "core/jsonutil.h"

/* ------------------------------------------------------------ text helpers */

void imp_lines_init(struct imp_lines *it, char *text, size_t len)
{
	it->p = text;
	it->end = text + len;
	it->lineno = 0;
}

char *imp_next_line(struct imp_lines *it)
{
	char *line = it->p, *nl;

	if (it->p >= it->end)
		return NULL;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	if (nl) {
		*nl = '\0';
		it->p = nl + 1;
	} else {
		it->p = it->end;	/* the copy is NUL-terminated at end */
	}
	it->lineno++;
	if (nl && nl > line && nl[-1] == '\r')
		nl[-1] = '\0';
	return line;
}

const char *imp_skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

bool imp_blank(const char *p)
{
	return *imp_skip_blanks(p) == '\0';
}

int imp_parse_u64(const char **pp, uint64_t *v)
{
	const char *p = imp_skip_blanks(*pp);
	uint64_t x = 0;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	*pp = p;
	return 0;
}

int imp_parse_double(const char **pp, double *v)
{
	const char *p = imp_skip_blanks(*pp);
	double x = 0, scale = 0.1;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		x = x * 10 + (*p - '0');
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			x += (*p - '0') * scale;
	}
	*v = x;
	*pp = p;
	return 0;
}

/* ------------------------------------------------------------ columns */

static struct imp_col *grow(struct imp_col **arr, size_t *cap, int *n)
{
	struct imp_col *a, *c;

	if (*n >= IMP_MAX_COLS)
		return NULL;
	a = rtm_grow(*arr, cap, (size_t)*n, sizeof(*a), 16);
	if (!a)
		return NULL;
	*arr = a;
	c = &a[(*n)++];
	memset(c, 0, sizeof(*c));
	c->thread = -1;
	return c;
}

struct imp_col *imp_add_col(struct imp_set *s, int cpu, int thread)
{
	struct imp_col *c = grow(&s->cols, &s->cols_cap, &s->ncols);

	if (c) {
		c->cpu = cpu;
		c->thread = thread;
	}
	return c;
}

struct imp_col *imp_add_extra(struct imp_set *s, int cpu, const char *kind)
{
	struct imp_col *c = grow(&s->extra, &s->extra_cap, &s->nextra);

	if (c) {
		c->cpu = cpu;
		c->kind = kind;
	}
	return c;
}

int imp_col_add_row(struct imp_col *c, uint64_t lo_ns, uint64_t count)
{
	if (!count)
		return 0;
	if (c->in_rows + count < c->in_rows)
		return -EOVERFLOW;
	{
		struct imp_row *r = rtm_grow(c->rows, &c->cap, c->nrows, sizeof(*r), 64);

		if (!r)
			return -ENOMEM;
		c->rows = r;
	}
	c->rows[c->nrows].lo_ns = lo_ns;
	c->rows[c->nrows].count = count;
	c->nrows++;
	c->in_rows += count;
	return 0;
}

void imp_note(struct imp_set *s, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(s->notes, rtm_json_text(buf));
}

void imp_set_release(struct imp_set *s)
{
	int i;

	for (i = 0; i < s->ncols; i++)
		free(s->cols[i].rows);
	for (i = 0; i < s->nextra; i++)
		free(s->extra[i].rows);
	free(s->cols);
	free(s->extra);
	free(s->command_line);
	json_decref(s->sysinfo);
	json_decref(s->events);
	json_decref(s->notes);
	memset(s, 0, sizeof(*s));
}

static uint64_t mid(uint64_t lo, uint64_t width)
{
	return lo + width / 2;
}

uint64_t imp_col_hist(const struct imp_set *s, const struct imp_col *c, struct rtm_hist *h)
{
	uint64_t placed = 0;
	size_t i;

	for (i = 0; i < c->nrows; i++)
		rtm_hist_record_n(h, mid(c->rows[i].lo_ns, s->row_width_ns), c->rows[i].count);
	/*
	 * An overflowed sample has no known value, but the maximum is one of
	 * them and the source states it; so is the minimum when nothing landed
	 * in the rows at all.
	 */
	if (c->overflows && c->has_max) {
		rtm_hist_record(h, mid(c->max_ns, s->val_width_ns));
		placed++;
	}
	if (c->overflows >= 2 && !c->in_rows && c->has_min && c->has_max &&
	    c->min_ns != c->max_ns) {
		rtm_hist_record(h, mid(c->min_ns, s->val_width_ns));
		placed++;
	}
	return placed;
}

/* A source value as written: an integer when it is one. */
static json_t *num(double v)
{
	if (v == floor(v) && v >= 0 && v < 9e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

/*
 * The run's own percentiles, from the rows and the full count: known while the
 * rank lies in the rows, null (somewhere beyond the last row) above.
 */
static json_t *run_percentiles(const struct imp_set *s, const struct imp_col *c)
{
	static const unsigned int milli[] = { 50000, 90000, 99000, 99900, 99990, 99999 };
	static const char *const names[] = { "p50", "p90", "p99", "p99.9", "p99.99", "p99.999" };
	unsigned __int128 n = c->in_rows + c->overflows;
	json_t *o = json_object();
	size_t k, i;

	for (k = 0; k < sizeof(milli) / sizeof(milli[0]); k++) {
		uint64_t rank = (uint64_t)((milli[k] * n + 99999) / 100000), seen = 0;
		json_t *v = json_null();

		if (rank < 1)
			rank = 1;
		for (i = 0; rank <= c->in_rows && i < c->nrows; i++) {
			seen += c->rows[i].count;
			if (seen >= rank) {
				v = json_integer((json_int_t)mid(c->rows[i].lo_ns, s->row_width_ns));
				break;
			}
		}
		json_object_set_new(o, names[k], v);
	}
	return o;
}

/*
 * The source's own rows, [[lo_ns, count], ...] (non-empty ones, ascending):
 * our log-linear buckets merge neighbouring microsecond rows above ~256 us, so
 * export writes these back to keep every count where the source had it.
 */
static json_t *rows_json(const struct imp_col *c)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < c->nrows; i++)
		json_array_append_new(a, json_pack("[o, o]", rtm_json_u64(c->rows[i].lo_ns),
						   rtm_json_u64(c->rows[i].count)));
	return a;
}

json_t *imp_col_json(const struct imp_set *s, const struct imp_col *c, uint64_t placed)
{
	json_t *j = json_object();

	json_object_set_new(j, "cpu", json_integer(c->cpu));
	if (c->thread >= 0)
		json_object_set_new(j, "thread", json_integer(c->thread));
	if (c->kind)
		json_object_set_new(j, "context", json_string(c->kind));
	if (c->has_node)
		json_object_set_new(j, "node", json_integer(c->node));
	json_object_set_new(j, "count", rtm_json_u64(c->has_count ? c->count :
						      c->in_rows + c->overflows));
	json_object_set_new(j, "samples_in_rows", rtm_json_u64(c->in_rows));
	json_object_set_new(j, "overflows", rtm_json_u64(c->overflows));
	json_object_set_new(j, "overflows_placed", rtm_json_u64(placed));
	json_object_set_new(j, "min", c->has_min ? num(c->src_min) : json_null());
	json_object_set_new(j, "avg", c->has_avg ? num(c->src_avg) : json_null());
	json_object_set_new(j, "max", c->has_max ? num(c->src_max) : json_null());
	json_object_set_new(j, "rows", rows_json(c));
	if (c->overflows > placed) {
		char why[256], at[48] = "";

		if (s->overflow_above_ns)
			snprintf(at, sizeof(at), " (at or above %llu ns)",
				 (unsigned long long)s->overflow_above_ns);
		snprintf(why, sizeof(why), "null: the rank lies among the %llu samples beyond the "
			 "histogram's last row%s, whose values the source does not give",
			 (unsigned long long)c->overflows, at);
		json_object_set_new(j, "run_percentiles_ns", run_percentiles(s, c));
		json_object_set_new(j, "run_percentiles_unknown", json_string(why));
	}
	return j;
}

