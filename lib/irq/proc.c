// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * proc.c - the parsers of /proc/interrupts, /proc/softirqs and /proc/stat,
 * and snapshots of the three read through a root prefix: their whole life-cycle
 * (read, look up rows and columns, release). irq.c builds on it, never the
 * other way round.
 *
 * The files are taken apart token by token: columns are separated by blanks
 * (the kernel puts a blank before every count, so even a count wider than its
 * 10-character field does not touch its neighbour), but their number varies:
 * ERR and MIS print one number, some ARM kernels print IPI counts for CPUs
 * the header leaves out, and the text after the counts depends on the chip.
 * Anything that does not fit is reported with the file and line, never
 * guessed at.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/grow.h"
#include "irq/irq.h"

/* ------------------------------------------------------------ lookup */

/**
 * rtm_irq_find - the row called @name ("24", "LOC", "IPI0"), or NULL
 * @snap: a snapshot or a difference
 * @name: the name as /proc/interrupts prints it before the colon
 */
const struct rtm_irq_row *rtm_irq_find(const struct rtm_irq_snap *snap, const char *name)
{
	int i;

	for (i = 0; i < snap->nrows; i++)
		if (!strcmp(snap->rows[i].name, name))
			return &snap->rows[i];
	return NULL;
}

/**
 * rtm_softirq_find - the softirq vector called @name ("TIMER"), or NULL
 * @snap: a snapshot or a difference
 * @name: the vector name
 */
const struct rtm_softirq_row *rtm_softirq_find(const struct rtm_irq_snap *snap,
					       const char *name)
{
	int i;

	for (i = 0; i < snap->nsoft; i++)
		if (!strcmp(snap->soft[i].name, name))
			return &snap->soft[i];
	return NULL;
}

int rtm_cpu_col(const int *cpus, int n, int cpu)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (cpus[mid] == cpu)
			return mid;
		if (cpus[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/**
 * rtm_irq_col - the /proc/interrupts column of CPU @cpu
 * @snap: a snapshot or a difference
 * @cpu: a CPU number
 *
 * Returns the column, or -1 when the CPU is not listed (offline, or no such CPU).
 */
int rtm_irq_col(const struct rtm_irq_snap *snap, int cpu)
{
	return rtm_cpu_col(snap->cpus, snap->ncpus, cpu);
}

/**
 * rtm_softirq_col - the /proc/softirqs column of CPU @cpu, or -1
 * @snap: a snapshot or a difference
 * @cpu: a CPU number
 */
int rtm_softirq_col(const struct rtm_irq_snap *snap, int cpu)
{
	return rtm_cpu_col(snap->soft_cpus, snap->nsoft_cpus, cpu);
}

/* A row owns its affinity: released with the snapshot. */

/**
 * rtm_irq_affinity_release - free the CPU lists of @aff
 * @aff: filled by rtm_irq_affinity_read()
 */
void rtm_irq_affinity_release(struct rtm_irq_affinity *aff)
{
	rtm_cpulist_release(&aff->smp);
	rtm_cpulist_release(&aff->effective);
	aff->has_smp = aff->has_effective = false;
}

/* ------------------------------------------------------------ tokens and lines */

struct lines {
	const char *p, *end;
	const char *file;
	int lineno;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && is_blank(*p))
		p++;
	return p;
}

static const char *tok_end(const char *p, const char *e)
{
	while (p < e && !is_blank(*p))
		p++;
	return p;
}

static bool all_digits(const char *s, const char *e)
{
	if (s == e)
		return false;
	for (; s < e; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Returns 0, -EINVAL (not a plain decimal number) or -ERANGE. */
static int parse_u64(const char *s, const char *e, uint64_t *v)
{
	uint64_t x = 0;

	if (!all_digits(s, e))
		return -EINVAL;
	for (; s < e; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/*
 * Next line into [*s, *e). Returns 1, 0 at the end, or -EINVAL for a line with
 * no newline (a cut file: procfs always ends its lines) or with binary data.
 */
static int next_line(struct lines *l, const char **s, const char **e, struct rtm_error *err)
{
	const char *nl, *c;

	if (l->p >= l->end)
		return 0;
	l->lineno++;
	nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	if (!nl)
		return rtm_error_set(err, "%s:%d: the last line is cut short (no newline at the "
				     "end: truncated file?)", l->file, l->lineno);
	for (c = l->p; c < nl; c++) {
		unsigned char u = (unsigned char)*c;

		if ((u < 0x20 && u != '\t') || u == 0x7f)
			return rtm_error_set(err, "%s:%d: binary data (byte 0x%02x at column %d), "
					     "not a /proc text file", l->file, l->lineno, u,
					     (int)(c - l->p) + 1);
	}
	*s = l->p;
	*e = nl;
	l->p = nl + 1;
	return 1;
}

static char *dup_range(const char *s, const char *e)
{
	size_t n;
	char *d;

	while (e > s && is_blank(e[-1]))
		e--;
	n = e > s ? (size_t)(e - s) : 0;
	d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* "CPU0 CPU1 CPU3 ..." into a list of CPU numbers, strictly increasing. */
static int parse_cpu_header(struct lines *l, int **cpusp, int *np, struct rtm_error *err)
{
	int *nc;
	const char *s, *e, *t;
	int *cpus = NULL, n = 0, ret;
	size_t cap = 0;

	ret = next_line(l, &s, &e, err);
	if (ret <= 0)
		return ret ? ret : rtm_error_set(err, "%s is empty", l->file);
	for (s = skip_ws(s, e); s < e; s = skip_ws(t, e)) {
		uint64_t cpu;

		t = tok_end(s, e);
		if (t - s < 4 || strncmp(s, "CPU", 3) || parse_u64(s + 3, t, &cpu) ||
		    cpu >= RTM_MAX_CPUS || (n && (int)cpu <= cpus[n - 1])) {
			free(cpus);
			return rtm_error_set(err, "%s:%d: '%.*s' where the CPU header (\"CPU0 CPU1 "
					     "...\", increasing) should be", l->file, l->lineno,
					     (int)(t - s > 40 ? 40 : t - s), s);
		}
		nc = rtm_grow(cpus, &cap, (size_t)n, sizeof(*cpus), 64);
		if (!nc) {
			free(cpus);
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		}
		cpus = nc;
		cpus[n++] = (int)cpu;
	}
	if (!n)
		return rtm_error_set(err, "%s:%d: no CPU header (\"CPU0 CPU1 ...\")", l->file,
				     l->lineno);
	*cpusp = cpus;
	*np = n;
	return 0;
}

/* "NAME:" at the start of a line; returns the position after the colon or NULL. */
static const char *parse_name(const char *s, const char *e, char *name)
{
	const char *n = skip_ws(s, e), *p = n;

	while (p < e && *p != ':' && !is_blank(*p))
		p++;
	if (p == e || *p != ':' || p == n || p - n >= RTM_IRQ_NAME_LEN)
		return NULL;
	memcpy(name, n, (size_t)(p - n));
	name[p - n] = '\0';
	return p + 1;
}

static int count_error(struct lines *l, int ret, const char *s, const char *t,
		       const char *name, struct rtm_error *err)
{
	return rtm_error_set(err, "%s:%d: count '%.*s' of %s is %s", l->file, l->lineno,
			     (int)(t - s > 40 ? 40 : t - s), s, name,
			     ret == -ERANGE ? "too large" : "not a number");
}

/* ------------------------------------------------------------ releasing */

static void free_rows(struct rtm_irq_snap *s)
{
	int i;

	for (i = 0; i < s->nrows; i++) {
		struct rtm_irq_row *r = &s->rows[i];

		free(r->counts);
		free(r->desc);
		free(r->chip);
		free(r->trigger);
		free(r->actions);
		if (r->aff) {
			rtm_irq_affinity_release(r->aff);
			free(r->aff);
		}
	}
	free(s->rows);
	free(s->cpus);
	free(s->cpu_totals);
	s->rows = NULL;
	s->cpus = NULL;
	s->cpu_totals = NULL;
	s->nrows = s->ncpus = 0;
	s->total = 0;
}

static void free_soft(struct rtm_irq_snap *s)
{
	int i;

	for (i = 0; i < s->nsoft; i++)
		free(s->soft[i].counts);
	free(s->soft);
	free(s->soft_cpus);
	s->soft = NULL;
	s->soft_cpus = NULL;
	s->nsoft = s->nsoft_cpus = 0;
	s->has_softirqs = false;
}

static void free_stat(struct rtm_irq_snap *s)
{
	free(s->stat_cpus);
	s->stat_cpus = NULL;
	s->nstat_cpus = 0;
	s->stat_intr = s->stat_softirq = 0;
	s->has_stat = false;
}

/**
 * rtm_irq_snap_release - free what a snapshot or a difference holds
 * @snap: the snapshot; left zeroed, so releasing twice is harmless
 */
void rtm_irq_snap_release(struct rtm_irq_snap *snap)
{
	if (!snap)
		return;
	free_rows(snap);
	free_soft(snap);
	free_stat(snap);
	memset(snap, 0, sizeof(*snap));
}

/* ------------------------------------------------------------ /proc/interrupts */

static bool tok_is(const char *s, const char *e, const char *w)
{
	return (size_t)(e - s) == strlen(w) && strncmp(s, w, (size_t)(e - s)) == 0;
}

/* x86 "5-edge", "49152-edge": the hwirq and the flow handler in one token */
static const char *hwirq_trigger(const char *s, const char *e)
{
	const char *d = s;

	while (d < e && *d >= '0' && *d <= '9')
		d++;
	if (d == s || d + 1 >= e || *d != '-' || !((d[1] >= 'a' && d[1] <= 'z') ||
						   (d[1] >= 'A' && d[1] <= 'Z')))
		return NULL;
	return d;
}

/* Old kernels print chip and flow handler joined: "IO-APIC-edge", "PCI-MSI-edge". */
static const char *joined_handler(const char *s, const char *e)
{
	static const char *const flows[] = { "edge", "level", "fasteoi", "simple", "percpu" };
	const char *d = e;
	unsigned int i;

	while (d > s && d[-1] != '-')
		d--;
	if (d <= s + 1)
		return NULL;
	for (i = 0; i < sizeof(flows) / sizeof(flows[0]); i++)
		if (tok_is(d, e, flows[i]))
			return d - 1;
	return NULL;
}

#define DESC_TOKENS 16

/*
 * The text after the counts of a numbered IRQ:
 *   " IO-APIC   2-edge      timer"          x86: chip, hwirq-flow, actions
 *   " GICv3  27 Level     arch_timer"       GENERIC_IRQ_SHOW_LEVEL: chip, hwirq, level
 *   " PCIe MSI 524288 Edge  brcmf_pcie_intr" chip names may hold blanks
 *   " IR-IO-APIC-edge      timer"           before 4.x: chip-flow, no hwirq
 *   " -  debug-signal"                      no chip name
 */
static int split_desc(struct rtm_irq_row *r, const char *s, const char *e)
{
	const char *ts[DESC_TOKENS], *te[DESC_TOKENS], *chip_e = NULL, *trig_s = NULL,
		   *trig_e = NULL, *act = e;
	char trig[64];
	int nt = 0, k, next = 0;
	uint64_t hw;

	r->hwirq = -1;
	for (s = skip_ws(s, e); s < e && nt < DESC_TOKENS; s = skip_ws(s, e)) {
		ts[nt] = s;
		s = tok_end(s, e);
		te[nt++] = s;
	}
	for (k = 0; k < nt; k++) {
		const char *d;

		if (tok_is(ts[k], te[k], "Level") || tok_is(ts[k], te[k], "Edge")) {
			chip_e = k ? te[k - 1] : NULL;
			if (k && parse_u64(ts[k - 1], te[k - 1], &hw) == 0) {
				r->hwirq = hw <= INT64_MAX ? (int64_t)hw : -1;
				chip_e = k > 1 ? te[k - 2] : NULL;
			}
			trig_s = ts[k];
			trig_e = te[k];
			next = k + 1;
			/* a flow handler name after the level: "Level     -fasteoi" */
			if (next < nt && ts[next][0] == '-' && te[next] - ts[next] > 1)
				trig_e = te[next++];
			break;
		}
		d = hwirq_trigger(ts[k], te[k]);
		if (d) {
			if (parse_u64(ts[k], d, &hw) == 0 && hw <= INT64_MAX)
				r->hwirq = (int64_t)hw;
			chip_e = k ? te[k - 1] : NULL;
			trig_s = d + 1;
			trig_e = te[k];
			next = k + 1;
			break;
		}
	}
	if (k == nt && nt) {
		const char *d = joined_handler(ts[0], te[0]);

		chip_e = d ? d : te[0];
		if (d) {
			trig_s = d + 1;
			trig_e = te[0];
		}
		next = 1;
	}
	if (nt)
		act = next < nt ? ts[next] : skip_ws(te[next - 1], e);
	/* a chip without a name prints as "-" */
	if (chip_e && chip_e - ts[0] == 1 && ts[0][0] == '-')
		chip_e = NULL;
	snprintf(trig, sizeof(trig), "%.*s", trig_s ? (int)(trig_e - trig_s) : 0,
		 trig_s ? trig_s : "");
	r->chip = chip_e ? dup_range(ts[0], chip_e) : strdup("");
	r->trigger = strdup(trig);
	r->actions = dup_range(act, e);
	return r->chip && r->trigger && r->actions ? 0 : -ENOMEM;
}

static int add_row(struct rtm_irq_snap *snap, size_t *cap, struct rtm_irq_row **out)
{
	struct rtm_irq_row *nr = rtm_grow(snap->rows, cap, (size_t)snap->nrows, sizeof(*nr), 64);

	if (!nr)
		return -ENOMEM;
	snap->rows = nr;
	*out = &snap->rows[snap->nrows];
	memset(*out, 0, sizeof(**out));
	(*out)->irq = -1;
	(*out)->hwirq = -1;
	return 0;
}

/* Numbered rows come in rising order, a named row once. */
static int check_row_name(const struct rtm_irq_snap *snap, const struct lines *l,
			  const char *name, bool numbered, int *last_irq, struct rtm_error *err)
{
	int i;

	if (numbered) {
		long irq = strtol(name, NULL, 10);

		if (irq > INT_MAX || irq <= *last_irq)
			return rtm_error_set(err, "%s:%d: IRQ %s after IRQ %d (lines repeated or "
					     "out of order)", l->file, l->lineno, name, *last_irq);
		*last_irq = (int)irq;
		return 0;
	}
	for (i = 0; i < snap->nrows; i++)
		if (snap->rows[i].irq < 0 && !strcmp(snap->rows[i].name, name))
			return rtm_error_set(err, "%s:%d: row %s is listed twice", l->file,
					     l->lineno, name);
	return 0;
}

/* A numbered IRQ's row after "N:" at @p: a count per CPU, then its chip and actions. */
static int parse_numbered_row(const struct rtm_irq_snap *snap, struct lines *l,
			      struct rtm_irq_row *r, const char *p, const char *e,
			      struct rtm_error *err)
{
	const char *t;
	int i, ret;

	r->percpu = true;
	r->counts = calloc((size_t)snap->ncpus, sizeof(*r->counts));
	if (!r->counts)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	for (i = 0; i < snap->ncpus; i++) {
		p = skip_ws(p, e);
		if (p == e)
			return rtm_error_set(err, "%s:%d: IRQ %s has %d counts for %d CPU "
					     "columns (line cut short?)", l->file,
					     l->lineno, r->name, i, snap->ncpus);
		t = tok_end(p, e);
		ret = parse_u64(p, t, &r->counts[i]);
		if (ret)
			return count_error(l, ret, p, t, r->name, err);
		r->total += r->counts[i];
		p = t;
	}
	r->desc = dup_range(skip_ws(p, e), e);
	if (!r->desc || split_desc(r, p, e))
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	return 0;
}

/* named rows: per CPU, a single number (ERR, MIS), or a count of their own */
static int parse_named_row(const struct rtm_irq_snap *snap, struct lines *l,
			   struct rtm_irq_row *r, const char *p, const char *e,
			   struct rtm_error *err)
{
	uint64_t *nv, v, *vals = NULL;
	size_t vcap = 0;
	const char *t;
	int n = 0, ret;

	for (p = skip_ws(p, e); p < e && *p >= '0' && *p <= '9'; p = skip_ws(t, e)) {
		t = tok_end(p, e);
		ret = parse_u64(p, t, &v);
		if (ret) {
			free(vals);
			return count_error(l, ret, p, t, r->name, err);
		}
		nv = rtm_grow(vals, &vcap, (size_t)n, sizeof(*nv), 64);
		if (!nv) {
			free(vals);
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		}
		vals = nv;
		vals[n++] = v;
		r->total += v;
	}
	if (n == snap->ncpus) {
		r->percpu = true;
		r->counts = vals;
	} else {
		free(vals);
	}
	r->desc = dup_range(p, e);
	r->chip = strdup("");
	r->trigger = strdup("");
	r->actions = strdup("");
	if (!r->desc || !r->chip || !r->trigger || !r->actions)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	return 0;
}

static int parse_irq_line(struct rtm_irq_snap *snap, struct lines *l, const char *s,
			  const char *e, size_t *cap, int *last_irq, struct rtm_error *err)
{
	struct rtm_irq_row *r;
	char name[RTM_IRQ_NAME_LEN];
	const char *p;
	bool numbered;
	int ret;

	p = parse_name(s, e, name);
	if (!p)
		return rtm_error_set(err, "%s:%d: expected 'IRQ:' or 'NAME:' at the start of the "
				     "line, found '%.*s'", l->file, l->lineno,
				     (int)(e - s > 40 ? 40 : e - s), s);
	numbered = all_digits(name, name + strlen(name));
	ret = check_row_name(snap, l, name, numbered, last_irq, err);
	if (ret)
		return ret;
	ret = add_row(snap, cap, &r);
	if (ret)
		return rtm_error_setn(err, ret, "out of memory");
	memcpy(r->name, name, sizeof(name));
	snap->nrows++;

	if (numbered) {
		r->irq = *last_irq;
		return parse_numbered_row(snap, l, r, p, e, err);
	}
	return parse_named_row(snap, l, r, p, e, err);
}

/**
 * rtm_irq_parse_interrupts - parse the text of /proc/interrupts into @snap
 * @snap: its interrupt part is replaced
 * @buf: the text, @len bytes
 * @file: the name used in error messages
 * @err: one-line message naming the file and line on failure
 *
 * Returns 0, -EINVAL for text that is not /proc/interrupts (empty, no CPU header,
 * a count that is not a number, a line cut short, binary data) or -ENOMEM.
 */
int rtm_irq_parse_interrupts(struct rtm_irq_snap *snap, const char *buf, size_t len,
			     const char *file, struct rtm_error *err)
{
	struct lines l = { buf, buf + len, file, 0 };
	const char *s, *e;
	size_t cap = 0;
	int last_irq = -1, ret, i, c;

	free_rows(snap);
	ret = parse_cpu_header(&l, &snap->cpus, &snap->ncpus, err);
	if (ret)
		return ret;
	while ((ret = next_line(&l, &s, &e, err)) > 0) {
		if (skip_ws(s, e) == e)
			continue;
		ret = parse_irq_line(snap, &l, s, e, &cap, &last_irq, err);
		if (ret)
			break;
	}
	if (!ret) {
		snap->cpu_totals = calloc((size_t)snap->ncpus, sizeof(*snap->cpu_totals));
		if (!snap->cpu_totals)
			ret = rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	if (ret) {
		free_rows(snap);
		return ret;
	}
	for (i = 0; i < snap->nrows; i++) {
		snap->total += snap->rows[i].total;
		for (c = 0; snap->rows[i].percpu && c < snap->ncpus; c++)
			snap->cpu_totals[c] += snap->rows[i].counts[c];
	}
	return 0;
}

/* ------------------------------------------------------------ /proc/softirqs */

/**
 * rtm_irq_parse_softirqs - parse the text of /proc/softirqs into @snap
 * @snap: its softirq part is replaced
 * @buf: the text, @len bytes
 * @file: the name used in error messages
 * @err: one-line message naming the file and line on failure
 *
 * The header lists every possible CPU; each vector must have one count per
 * column. Returns 0, -EINVAL or -ENOMEM.
 */
int rtm_irq_parse_softirqs(struct rtm_irq_snap *snap, const char *buf, size_t len,
			   const char *file, struct rtm_error *err)
{
	struct rtm_softirq_row *nr;
	struct lines l = { buf, buf + len, file, 0 };
	const char *s, *e, *p, *t;
	size_t cap = 0;
	int ret, i;

	free_soft(snap);
	ret = parse_cpu_header(&l, &snap->soft_cpus, &snap->nsoft_cpus, err);
	if (ret)
		return ret;
	while ((ret = next_line(&l, &s, &e, err)) > 0) {
		struct rtm_softirq_row *r;
		char name[RTM_IRQ_NAME_LEN];

		ret = 0;
		if (skip_ws(s, e) == e)
			continue;
		p = parse_name(s, e, name);
		if (!p) {
			ret = rtm_error_set(err, "%s:%d: expected 'VECTOR:' at the start of the "
					    "line, found '%.*s'", file, l.lineno,
					    (int)(e - s > 40 ? 40 : e - s), s);
			break;
		}
		if (rtm_softirq_find(snap, name)) {
			ret = rtm_error_set(err, "%s:%d: softirq %s is listed twice", file,
					    l.lineno, name);
			break;
		}
		nr = rtm_grow(snap->soft, &cap, (size_t)snap->nsoft, sizeof(*nr), 16);
		if (!nr) {
			ret = rtm_error_setn(err, -ENOMEM, "out of memory");
			break;
		}
		snap->soft = nr;
		r = &snap->soft[snap->nsoft];
		memset(r, 0, sizeof(*r));
		memcpy(r->name, name, sizeof(name));
		r->counts = calloc((size_t)snap->nsoft_cpus, sizeof(*r->counts));
		if (!r->counts) {
			ret = rtm_error_setn(err, -ENOMEM, "out of memory");
			break;
		}
		snap->nsoft++;
		for (i = 0; i < snap->nsoft_cpus && !ret; i++) {
			p = skip_ws(p, e);
			t = tok_end(p, e);
			if (p == e)
				ret = rtm_error_set(err, "%s:%d: softirq %s has %d counts for %d "
						    "CPU columns (line cut short?)", file,
						    l.lineno, name, i, snap->nsoft_cpus);
			else if ((ret = parse_u64(p, t, &r->counts[i])) != 0)
				ret = count_error(&l, ret, p, t, name, err);
			r->total += r->counts[i];
			p = t;
		}
		if (!ret && skip_ws(p, e) != e)
			ret = rtm_error_set(err, "%s:%d: softirq %s has more counts than the %d "
					    "CPU columns", file, l.lineno, name, snap->nsoft_cpus);
		if (ret)
			break;
	}
	if (ret) {
		free_soft(snap);
		return ret;
	}
	snap->has_softirqs = true;
	return 0;
}

/* ------------------------------------------------------------ /proc/stat */

/* Up to @max numbers after the first word of a /proc/stat line. */
static int stat_numbers(struct lines *l, const char *p, const char *e, const char *what,
			uint64_t *v, int max, struct rtm_error *err)
{
	const char *t;
	int n = 0, ret;

	for (p = skip_ws(p, e); p < e && n < max; p = skip_ws(t, e)) {
		t = tok_end(p, e);
		ret = parse_u64(p, t, &v[n]);
		if (ret)
			return count_error(l, ret, p, t, what, err);
		n++;
	}
	return n;
}

/**
 * rtm_irq_parse_stat - parse the text of /proc/stat into @snap
 * @snap: its /proc/stat part is replaced
 * @buf: the text, @len bytes
 * @file: the name used in error messages
 * @err: one-line message naming the file and line on failure
 *
 * Takes the "intr" and "softirq" totals and the irq, softirq and steal ticks of
 * each "cpuN" line (online CPUs). Returns 0, -EINVAL or -ENOMEM.
 */
int rtm_irq_parse_stat(struct rtm_irq_snap *snap, const char *buf, size_t len,
		       const char *file, struct rtm_error *err)
{
	struct rtm_irq_cpu_ticks *nc;
	struct lines l = { buf, buf + len, file, 0 };
	const char *s, *e, *t;
	bool have_intr = false;
	size_t cap = 0;
	int ret;

	free_stat(snap);
	while ((ret = next_line(&l, &s, &e, err)) > 0) {
		uint64_t v[8], cpu;
		int n;

		s = skip_ws(s, e);
		t = tok_end(s, e);
		if (tok_is(s, t, "intr") || tok_is(s, t, "softirq")) {
			n = stat_numbers(&l, t, e, "intr", v, 1, err);
			if (n < 0) {
				ret = n;
				break;
			}
			if (n == 0) {
				ret = rtm_error_set(err, "%s:%d: no total after '%.*s'", file,
						    l.lineno, (int)(t - s), s);
				break;
			}
			if (*s == 'i') {
				snap->stat_intr = v[0];
				have_intr = true;
			} else {
				snap->stat_softirq = v[0];
			}
			continue;
		}
		if (t - s < 4 || strncmp(s, "cpu", 3) || parse_u64(s + 3, t, &cpu))
			continue;	/* "cpu" (all CPUs), ctxt, btime, ... */
		n = stat_numbers(&l, t, e, "cpu", v, 8, err);
		if (n >= 0 && n < 7)
			n = rtm_error_set(err, "%s:%d: cpu%d has %d times, expected at least 7",
					  file, l.lineno, (int)cpu, n);
		if (n < 0) {
			ret = n;
			break;
		}
		nc = rtm_grow(snap->stat_cpus, &cap, (size_t)snap->nstat_cpus, sizeof(*nc), 16);
		if (!nc) {
			ret = rtm_error_setn(err, -ENOMEM, "out of memory");
			break;
		}
		snap->stat_cpus = nc;
		snap->stat_cpus[snap->nstat_cpus++] = (struct rtm_irq_cpu_ticks) {
			.cpu = cpu < RTM_MAX_CPUS ? (int)cpu : -1,
			.irq = v[5], .softirq = v[6], .steal = n > 7 ? v[7] : 0,
		};
	}
	if (!ret && !have_intr)
		ret = rtm_error_set(err, "%s: no 'intr' line (not /proc/stat, or cut short)", file);
	if (ret) {
		free_stat(snap);
		return ret;
	}
	snap->has_stat = true;
	return 0;
}

/* ------------------------------------------------------------ snapshot */

static bool is_live(const char *root)
{
	return !root || !*root || strcmp(root, "/") == 0;
}

/* Read @path below @root and parse it; @optional: a missing file is no error. */
static int read_parse(const char *root, const char *path, bool optional,
		      int (*parse)(struct rtm_irq_snap *, const char *, size_t, const char *,
				   struct rtm_error *),
		      struct rtm_irq_snap *snap, struct rtm_error *err)
{
	char full[PATH_MAX];
	size_t len;
	char *buf;
	int ret;

	ret = rtm_path(full, sizeof(full), root, path);
	if (ret)
		return rtm_error_setn(err, ret, "path too long: %s%s", root, path);
	buf = rtm_read_all(root, path, &len);
	if (!buf) {
		ret = -errno;
		if (optional && ret == -ENOENT)
			return 0;
		return rtm_error_setn(err, ret, "cannot read %s: %s", full, strerror(-ret));
	}
	ret = parse(snap, buf, len, full, err);
	free(buf);
	return ret;
}

/* Seconds with a decimal fraction ("17692.33 30487.99") into nanoseconds. */
static uint64_t uptime_ns(const char *root)
{
	char buf[128], *p;
	uint64_t ns = 0, scale = 100000000;

	if (rtm_read_small(root, "/proc/uptime", buf, sizeof(buf)) <= 0)
		return 0;
	for (p = buf; *p >= '0' && *p <= '9'; p++)
		ns = ns * 10 + (uint64_t)(*p - '0');
	ns *= 1000000000;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9' && scale; p++, scale /= 10)
			ns += (uint64_t)(*p - '0') * scale;
	return ns;
}

/**
 * rtm_irq_snap_read - take a snapshot of the interrupt counts below @root
 * @root: "/" for the live system, or a recorded tree
 * @snap: filled in; free with rtm_irq_snap_release()
 * @err: one-line message naming the file (and line) on failure
 *
 * /proc/interrupts must be there; /proc/softirqs and /proc/stat may be missing
 * (has_softirqs, has_stat stay false). The time stamp is CLOCK_MONOTONIC on the
 * live system and the recorded /proc/uptime otherwise (0 when absent).
 * Returns 0 or -errno.
 */
int rtm_irq_snap_read(const char *root, struct rtm_irq_snap *snap, struct rtm_error *err)
{
	int ret;

	memset(snap, 0, sizeof(*snap));
	if (is_live(root))
		root = "/";
	ret = read_parse(root, "/proc/interrupts", false, rtm_irq_parse_interrupts, snap, err);
	if (!ret) {
		if (strcmp(root, "/") == 0)
			snap->ts_ns = rtm_clock_ns(CLOCK_MONOTONIC);
		else
			snap->ts_ns = uptime_ns(root);
		ret = read_parse(root, "/proc/softirqs", true, rtm_irq_parse_softirqs, snap, err);
	}
	if (!ret)
		ret = read_parse(root, "/proc/stat", true, rtm_irq_parse_stat, snap, err);
	if (ret)
		rtm_irq_snap_release(snap);
	return ret;
}
