// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rates.c - IRQ affinity and threads, and the difference of two snapshots:
 * counts per interval, rates, totals, top N, the IRQs that hit a set of CPUs,
 * and its JSON form. It builds on proc.c (snapshots: parse, read, look up,
 * release), which calls nothing here.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/fileio.h"
#include "core/task.h"
#include "irq/irq.h"
#include "core/jsonutil.h"

static bool is_live(const char *root)
{
	return !root || !*root || strcmp(root, "/") == 0;
}

/* ------------------------------------------------------------ /proc/irq/N */

static int read_cpulist(const char *root, const char *path, struct rtm_cpulist *cl,
			bool *found, struct rtm_error *err)
{
	struct rtm_error e2 = { "" };
	char full[PATH_MAX];
	char *buf;
	int ret;

	*found = false;
	buf = rtm_read_all(root, path, NULL);
	if (!buf)
		return errno == ENOENT ? 0 : rtm_error_setn(err, -errno, "cannot read %s%s: %s",
							    is_live(root) ? "" : root, path,
							    strerror(errno));
	ret = rtm_cpulist_parse(rtm_strstrip(buf), cl, &e2);
	free(buf);
	if (ret) {
		rtm_path(full, sizeof(full), root, path);
		return rtm_error_setn(err, ret, "%s: %s", full, e2.msg);
	}
	*found = true;
	return 0;
}

/**
 * rtm_irq_affinity_read - read /proc/irq/@irq/{smp_affinity_list,effective_affinity_list,node}
 * @root: "/" for the live system, or a recorded tree
 * @irq: the IRQ number
 * @aff: filled in; free with rtm_irq_affinity_release()
 * @err: one-line message on failure
 *
 * Missing files are left out (older kernels have no effective_affinity_list).
 * Returns 0, -ENOENT when none of the three exists, -EINVAL for a file that
 * does not hold a CPU list or a number.
 */
int rtm_irq_affinity_read(const char *root, int irq, struct rtm_irq_affinity *aff,
			  struct rtm_error *err)
{
	char path[64];
	int64_t node;
	int ret;

	memset(aff, 0, sizeof(*aff));
	aff->node = -1;
	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irq);
	ret = read_cpulist(root, path, &aff->smp, &aff->has_smp, err);
	if (!ret) {
		snprintf(path, sizeof(path), "/proc/irq/%d/effective_affinity_list", irq);
		ret = read_cpulist(root, path, &aff->effective, &aff->has_effective, err);
	}
	if (!ret) {
		snprintf(path, sizeof(path), "/proc/irq/%d/node", irq);
		ret = rtm_read_s64(root, path, &node);
		if (ret == 0)
			aff->node = node >= 0 && node < INT_MAX ? (int)node : -1;
		else if (ret == -ENOENT && !aff->has_smp && !aff->has_effective)
			ret = rtm_error_setn(err, -ENOENT, "no %s/proc/irq/%d (no such IRQ)",
					     is_live(root) ? "" : root, irq);
		else if (ret != -ENOENT)
			ret = rtm_error_setn(err, ret, "%s%s: not a NUMA node number",
					     is_live(root) ? "" : root, path);
		else
			ret = 0;
	}
	if (ret)
		rtm_irq_affinity_release(aff);
	return ret;
}

/**
 * rtm_irq_snap_read_affinity - attach the affinity to every numbered row
 * @snap: a snapshot or a difference
 * @root: "/" for the live system, or a recorded tree
 * @err: one-line message on failure
 *
 * An IRQ without a /proc/irq directory keeps aff NULL. Returns 0 or -errno.
 */
int rtm_irq_snap_read_affinity(struct rtm_irq_snap *snap, const char *root,
			       struct rtm_error *err)
{
	int i, ret;

	for (i = 0; i < snap->nrows; i++) {
		struct rtm_irq_row *r = &snap->rows[i];

		if (r->irq < 0 || r->aff)
			continue;
		r->aff = malloc(sizeof(*r->aff));
		if (!r->aff)
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		ret = rtm_irq_affinity_read(root, r->irq, r->aff, err);
		if (ret) {
			free(r->aff);
			r->aff = NULL;
			if (ret != -ENOENT)
				return ret;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ IRQ threads */

struct threads_read {
	struct rtm_irq_threads *th;
	size_t cap;
	const char *root;
	char dir[PATH_MAX];		/* root/proc, for messages */
	struct rtm_error *err;
	bool failed;			/* the error is ours, not the listing's */
};

/*
 * One process: an IRQ thread when its command is "irq/N-name". Its policy,
 * priority, nice and CPU are /proc/PID/stat's fields 41, 40, 19 and 39.
 */
static int add_irq_thread(int pid, void *arg)
{
	struct threads_read *r = arg;
	struct rtm_irq_threads *th = r->th;
	struct rtm_irq_thread t, *nt;
	struct rtm_task_stat st;
	char comm[64], *end;
	const char *p;
	long irq;
	int ret;

	if (rtm_task_read_comm(r->root, pid, comm, sizeof(comm)) <= 0 ||
	    strncmp(comm, "irq/", 4) != 0)
		return 0;
	irq = strtol(comm + 4, &end, 10);
	if (end == comm + 4 || *end != '-' || irq < 0 || irq > INT_MAX)
		return 0;
	memset(&t, 0, sizeof(t));
	t.pid = pid;
	t.irq = (int)irq;
	p = end + 1;
	t.secondary = strncmp(p, "s-", 2) == 0;
	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	snprintf(t.name, sizeof(t.name), "%s", t.secondary ? p + 2 : p);
	memset(&st, 0, sizeof(st));
	ret = rtm_task_read_stat(r->root, pid, 0, &st);
	if (ret == -EINVAL) {
		r->failed = true;
		return rtm_error_set(r->err, "%s/%d/stat: not a /proc/PID/stat line (too few "
				     "fields, or not numbers)", r->dir, pid);
	}
	if (ret)
		return 0;	/* ended meanwhile */
	t.nice = st.nice;
	t.cpu = st.cpu;
	t.rt_priority = st.rt_priority;
	t.kpolicy = st.kpolicy;
	t.policy_known = rtm_policy_of_kpolicy(t.kpolicy, &t.policy);
	nt = rtm_grow(th->t, &r->cap, (size_t)th->n, sizeof(*nt), 32);
	if (!nt) {
		r->failed = true;
		return rtm_error_setn(r->err, -ENOMEM, "out of memory");
	}
	th->t = nt;
	th->t[th->n++] = t;
	return 0;
}

static int thread_cmp(const void *a, const void *b)
{
	const struct rtm_irq_thread *x = a, *y = b;

	if (x->irq != y->irq)
		return x->irq < y->irq ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/**
 * rtm_irq_threads_read - list the IRQ threads ("irq/N-name") below @root
 * @root: "/" for the live system, or a recorded tree
 * @th: filled in, sorted by IRQ and pid; free with rtm_irq_threads_release()
 * @err: one-line message on failure
 *
 * Kernels without threaded IRQs have none: that is 0 threads, not an error.
 * A thread that exits while being read is skipped. Returns 0, -EINVAL for a
 * /proc/PID/stat that cannot be parsed, or -errno when /proc cannot be listed.
 */
int rtm_irq_threads_read(const char *root, struct rtm_irq_threads *th, struct rtm_error *err)
{
	struct threads_read r = { .th = th, .err = err };
	int ret;

	th->n = 0;
	th->t = NULL;
	if (is_live(root))
		root = "/";
	r.root = root;
	if (rtm_path(r.dir, sizeof(r.dir), root, "/proc"))
		return rtm_error_setn(err, -ENAMETOOLONG, "path too long: %s/proc", root);
	ret = rtm_task_each_process(root, add_irq_thread, &r);
	if (ret && !r.failed)
		return rtm_error_setn(err, ret, "cannot list %s: %s", r.dir, strerror(-ret));
	if (ret) {
		rtm_irq_threads_release(th);
		return ret;
	}
	if (th->n)
		qsort(th->t, (size_t)th->n, sizeof(*th->t), thread_cmp);
	return 0;
}

/**
 * rtm_irq_threads_release - free the list filled by rtm_irq_threads_read()
 * @th: the list
 */
void rtm_irq_threads_release(struct rtm_irq_threads *th)
{
	free(th->t);
	th->t = NULL;
	th->n = 0;
}

/* ------------------------------------------------------------ differences */

/*
 * Events between two readings of one counter. The kernel keeps per-CPU IRQ and
 * softirq counts in 32 bits, so a smaller second value below 2^32 is a wrap; a
 * larger counter that goes back was reset (the IRQ was freed and set up again),
 * and the second value is what it counted since.
 */
static uint64_t counter_delta(uint64_t a, uint64_t b, unsigned int *flags)
{
	if (b >= a)
		return b - a;
	*flags |= RTM_IRQ_WRAPPED;
	if (a <= UINT32_MAX)
		return (uint32_t)(b - a);
	return b;
}

static int row_name_cmp(const void *x, const void *y)
{
	const struct rtm_irq_row *const *a = x, *const *b = y;

	return strcmp((*a)->name, (*b)->name);
}

/*
 * The CPUs of @bcpus also in @acpus (all of them when @acpus is NULL), with their
 * columns in each; returns how many.
 */
static int common_cols(const int *acpus, int an, const int *bcpus, int bn, int **colsp,
		       int **acolp, int **bcolp)
{
	int *cpus = calloc((size_t)bn + 1, sizeof(int));
	int *acol = calloc((size_t)bn + 1, sizeof(int));
	int *bcol = calloc((size_t)bn + 1, sizeof(int));
	int i, n = 0;

	if (!cpus || !acol || !bcol) {
		free(cpus);
		free(acol);
		free(bcol);
		return -ENOMEM;
	}
	for (i = 0; i < bn; i++) {
		int c = acpus ? rtm_cpu_col(acpus, an, bcpus[i]) : -1;

		if (acpus && c < 0)
			continue;
		cpus[n] = bcpus[i];
		acol[n] = c;
		bcol[n++] = i;
	}
	*colsp = cpus;
	*acolp = acol;
	*bcolp = bcol;
	return n;
}

static int delta_row(struct rtm_irq_row *o, const struct rtm_irq_row *ar,
		     const struct rtm_irq_row *br, int n, const int *acol, const int *bcol,
		     bool since_boot)
{
	int c;

	memcpy(o->name, br->name, sizeof(o->name));
	o->irq = br->irq;
	o->hwirq = br->hwirq;
	o->desc = strdup(br->desc ? br->desc : "");
	o->chip = strdup(br->chip ? br->chip : "");
	o->trigger = strdup(br->trigger ? br->trigger : "");
	o->actions = strdup(br->actions ? br->actions : "");
	if (!o->desc || !o->chip || !o->trigger || !o->actions)
		return -ENOMEM;
	if (!ar && !since_boot)
		o->flags |= RTM_IRQ_APPEARED;
	if (br->percpu && (!ar || ar->percpu)) {
		o->percpu = true;
		o->counts = calloc((size_t)n + 1, sizeof(*o->counts));
		if (!o->counts)
			return -ENOMEM;
		for (c = 0; c < n; c++) {
			uint64_t bv = br->counts[bcol[c]];

			o->counts[c] = ar ? counter_delta(ar->counts[acol[c]], bv, &o->flags) : bv;
			o->total += o->counts[c];
		}
	} else {
		o->total = ar ? counter_delta(ar->total, br->total, &o->flags) : br->total;
	}
	return 0;
}

static int delta_rows(const struct rtm_irq_snap *a, const struct rtm_irq_snap *b,
		      struct rtm_irq_snap *out)
{
	const struct rtm_irq_row **sorted = NULL;
	int *acol, *bcol, n, i, c, ret = 0;

	n = common_cols(a ? a->cpus : NULL, a ? a->ncpus : 0, b->cpus, b->ncpus, &out->cpus,
			&acol, &bcol);
	if (n < 0)
		return n;
	out->ncpus = n;
	out->cpu_totals = calloc((size_t)n + 1, sizeof(*out->cpu_totals));
	out->rows = calloc((size_t)b->nrows + 1, sizeof(*out->rows));
	if (a && a->nrows)
		sorted = malloc((size_t)a->nrows * sizeof(*sorted));
	if (!out->cpu_totals || !out->rows || (a && a->nrows && !sorted)) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; a && i < a->nrows; i++)
		sorted[i] = &a->rows[i];
	if (sorted)
		qsort(sorted, (size_t)a->nrows, sizeof(*sorted), row_name_cmp);
	for (i = 0; i < b->nrows && !ret; i++) {
		const struct rtm_irq_row *br = &b->rows[i], *key = br, **m = NULL;
		struct rtm_irq_row *o = &out->rows[out->nrows++];

		if (sorted)
			m = bsearch(&key, sorted, (size_t)a->nrows, sizeof(*sorted), row_name_cmp);
		o->irq = -1;
		ret = delta_row(o, m ? *m : NULL, br, n, acol, bcol, !a);
		out->total += o->total;
		for (c = 0; o->percpu && c < n; c++)
			out->cpu_totals[c] += o->counts[c];
	}
out:
	free(sorted);
	free(acol);
	free(bcol);
	return ret;
}

static int delta_soft(const struct rtm_irq_snap *a, const struct rtm_irq_snap *b,
		      struct rtm_irq_snap *out)
{
	int *acol, *bcol, n, i, c;

	if (!b->has_softirqs || (a && !a->has_softirqs))
		return 0;
	n = common_cols(a ? a->soft_cpus : NULL, a ? a->nsoft_cpus : 0, b->soft_cpus,
			b->nsoft_cpus, &out->soft_cpus, &acol, &bcol);
	if (n < 0)
		return n;
	out->nsoft_cpus = n;
	out->has_softirqs = true;
	out->soft = calloc((size_t)b->nsoft + 1, sizeof(*out->soft));
	for (i = 0; out->soft && i < b->nsoft; i++) {
		const struct rtm_softirq_row *br = &b->soft[i];
		const struct rtm_softirq_row *ar = a ? rtm_softirq_find(a, br->name) : NULL;
		struct rtm_softirq_row *o = &out->soft[out->nsoft++];

		memcpy(o->name, br->name, sizeof(o->name));
		o->counts = calloc((size_t)n + 1, sizeof(*o->counts));
		if (!o->counts)
			break;
		if (a && !ar)
			o->flags |= RTM_IRQ_APPEARED;
		for (c = 0; c < n; c++) {
			uint64_t bv = br->counts[bcol[c]];

			o->counts[c] = ar ? counter_delta(ar->counts[acol[c]], bv, &o->flags) : bv;
			o->total += o->counts[c];
		}
	}
	free(acol);
	free(bcol);
	return out->soft && (!out->nsoft || out->soft[out->nsoft - 1].counts) ? 0 : -ENOMEM;
}

static int delta_stat(const struct rtm_irq_snap *a, const struct rtm_irq_snap *b,
		      struct rtm_irq_snap *out)
{
	unsigned int flags = 0;
	int i, j = 0;

	if (!b->has_stat || (a && !a->has_stat))
		return 0;
	out->has_stat = true;
	out->stat_intr = a ? counter_delta(a->stat_intr, b->stat_intr, &flags) : b->stat_intr;
	out->stat_softirq = a ? counter_delta(a->stat_softirq, b->stat_softirq, &flags) :
				b->stat_softirq;
	out->stat_cpus = calloc((size_t)b->nstat_cpus + 1, sizeof(*out->stat_cpus));
	if (!out->stat_cpus)
		return -ENOMEM;
	for (i = 0; i < b->nstat_cpus; i++) {
		const struct rtm_irq_cpu_ticks *bt = &b->stat_cpus[i], *at = NULL;
		struct rtm_irq_cpu_ticks *o;

		/* /proc/stat lists CPUs in increasing order */
		while (a && j < a->nstat_cpus && a->stat_cpus[j].cpu < bt->cpu)
			j++;
		if (a && j < a->nstat_cpus && a->stat_cpus[j].cpu == bt->cpu)
			at = &a->stat_cpus[j];
		else if (a)
			continue;
		o = &out->stat_cpus[out->nstat_cpus++];
		o->cpu = bt->cpu;
		o->irq = at ? counter_delta(at->irq, bt->irq, &flags) : bt->irq;
		o->softirq = at ? counter_delta(at->softirq, bt->softirq, &flags) : bt->softirq;
		o->steal = at ? counter_delta(at->steal, bt->steal, &flags) : bt->steal;
	}
	return 0;
}

/**
 * rtm_irq_delta - the events between snapshot @a and snapshot @b
 * @a: the earlier snapshot, or NULL for the counts since boot
 * @b: the later snapshot
 * @out: filled in, in the form of a snapshot: counts are events in the interval,
 *       interval_ns is the time between the two; free with rtm_irq_snap_release()
 * @err: one-line message on failure
 *
 * Rows are matched by name, not by position. A row only in @b counts from zero
 * (RTM_IRQ_APPEARED); a row only in @a is left out. Columns are the CPUs listed
 * in both snapshots. A counter that went back is a 32-bit wrap or a reset
 * (RTM_IRQ_WRAPPED). Returns 0, -EINVAL when @b is older than @a, or -ENOMEM.
 */
int rtm_irq_delta(const struct rtm_irq_snap *a, const struct rtm_irq_snap *b,
		  struct rtm_irq_snap *out, struct rtm_error *err)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (a && b->ts_ns < a->ts_ns)
		return rtm_error_set(err, "the second IRQ snapshot is older than the first "
				     "(%llu ns < %llu ns)", (unsigned long long)b->ts_ns,
				     (unsigned long long)a->ts_ns);
	out->ts_ns = b->ts_ns;
	out->interval_ns = a ? b->ts_ns - a->ts_ns : b->ts_ns;
	ret = delta_rows(a, b, out);
	if (!ret)
		ret = delta_soft(a, b, out);
	if (!ret)
		ret = delta_stat(a, b, out);
	if (ret) {
		rtm_irq_snap_release(out);
		return rtm_error_setn(err, ret, "out of memory");
	}
	return 0;
}

/* -a: every CPU must have a column in /proc/interrupts (be online), as cyclic checks it. */
int rtm_irq_check_cpus(const struct rtm_irq_snap *s, const struct rtm_cpulist *cpus,
		       struct rtm_error *err)
{
	struct rtm_cpulist have = { s->ncpus, s->cpus };
	char list[256];
	int i;

	for (i = 0; cpus && i < cpus->n; i++) {
		if (!rtm_cpulist_has(&have, cpus->cpus[i])) {
			rtm_cpulist_format(&have, list, sizeof(list));
			return rtm_error_set(err, "CPU %d is not online (CPUs in /proc/interrupts: "
					     "%s); pick others with -a", cpus->cpus[i], list);
		}
	}
	return 0;
}

/**
 * rtm_irq_rate_hz - events per second over the interval of a difference
 * @d: a difference (a snapshot has no interval: the rate is 0)
 * @count: events in the interval
 */
double rtm_irq_rate_hz(const struct rtm_irq_snap *d, uint64_t count)
{
	return d->interval_ns ? (double)count * 1e9 / (double)d->interval_ns : 0.0;
}

/**
 * rtm_irq_count_on - events of @row on the CPUs of @cpus
 * @s: the snapshot or difference @row belongs to
 * @row: a row of @s
 * @cpus: a CPU set, NULL for all CPUs
 *
 * A row without per-CPU counts (ERR, MIS) has none on any given set: 0.
 */
uint64_t rtm_irq_count_on(const struct rtm_irq_snap *s, const struct rtm_irq_row *row,
			  const struct rtm_cpulist *cpus)
{
	uint64_t sum = 0;
	int c;

	if (!cpus)
		return row->total;
	for (c = 0; row->percpu && c < s->ncpus; c++)
		if (rtm_cpulist_has(cpus, s->cpus[c]))
			sum += row->counts[c];
	return sum;
}

struct ranked {
	uint64_t count;
	int idx;
};

static int ranked_cmp(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->idx - b->idx;
}

/**
 * rtm_irq_rank - the rule "IRQs ranked by rate": most events first
 * @counts: one count per row (over one interval, so counts rank as rates do)
 * @n: rows
 * @max: at most this many indexes
 * @idx: room for @max indexes; filled most events first, ties in row order
 *
 * Rows with no events are left out. Every ranking of IRQ rows (rtm_irq_top, the
 * report's IRQ plot and table, the monitor) goes through here. Returns the
 * number of indexes or -ENOMEM.
 */
int rtm_irq_rank(const uint64_t *counts, int n, int max, int *idx)
{
	struct ranked *r;
	int i, m = 0;

	if (max <= 0 || n <= 0)
		return 0;
	r = malloc((size_t)n * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (counts[i])
			r[m++] = (struct ranked) { counts[i], i };
	qsort(r, (size_t)m, sizeof(*r), ranked_cmp);
	if (m > max)
		m = max;
	for (i = 0; i < m; i++)
		idx[i] = r[i].idx;
	free(r);
	return m;
}

/**
 * rtm_irq_top - the rows with the most events, on a set of CPUs
 * @s: a difference (or a snapshot: counts since boot)
 * @cpus: only events on these CPUs count (the measured or isolated ones); NULL: all
 * @n: at most this many rows
 * @idx: room for @n row indexes; filled most events first (ties in file order)
 *
 * Rows without events on @cpus are left out, so with @n = s->nrows this lists
 * every IRQ that hit the set. Returns the number of indexes or -ENOMEM.
 */
int rtm_irq_top(const struct rtm_irq_snap *s, const struct rtm_cpulist *cpus, int n, int *idx)
{
	uint64_t *c;
	int i, m;

	if (n <= 0 || s->nrows == 0)
		return 0;
	c = malloc((size_t)s->nrows * sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < s->nrows; i++)
		c[i] = rtm_irq_count_on(s, &s->rows[i], cpus);
	m = rtm_irq_rank(c, s->nrows, n, idx);
	free(c);
	return m;
}

static bool overlaps(const struct rtm_cpulist *a, const struct rtm_cpulist *b)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (rtm_cpulist_has(b, a->cpus[i]))
			return true;
	return false;
}

enum rtm_irq_isolation rtm_irq_isolation_of(const struct rtm_irq_affinity *aff,
					     const struct rtm_cpulist *iso)
{
	if (!iso->n || !aff)
		return RTM_IRQ_ISO_NONE;
	if (aff->has_effective && overlaps(&aff->effective, iso))
		return RTM_IRQ_ISO_LANDS;
	if (aff->has_smp && overlaps(&aff->smp, iso))
		return RTM_IRQ_ISO_MAY;
	return RTM_IRQ_ISO_NONE;
}

/* ------------------------------------------------------------ JSON */

static bool put(json_t *obj, const char *key, json_t *v)
{
	return v && json_object_set_new(obj, key, v) == 0;
}

/* An array of @n numbers: CPU numbers from @cpus, else counts, or rates when @d. */
static json_t *array(const int *cpus, const uint64_t *v, const struct rtm_irq_snap *d, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a && i < n; i++)
		if (json_array_append_new(a, cpus ? json_integer(cpus[i]) :
					     d ? json_real(rtm_irq_rate_hz(d, v[i])) :
					     rtm_json_u64(v[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *cpulist_json(const struct rtm_cpulist *cl, bool has)
{
	size_t len = (size_t)cl->n * 12 + 16;
	json_t *j;
	char *buf;

	if (!has)
		return json_null();
	buf = malloc(len);
	if (!buf || rtm_cpulist_format(cl, buf, len)) {
		free(buf);
		return NULL;
	}
	j = json_string(buf);
	free(buf);
	return j;
}

static json_t *row_json(const struct rtm_irq_snap *d, const struct rtm_irq_row *r)
{
	json_t *o = json_object();
	bool ok = o != NULL;

	ok = ok && put(o, "name", rtm_json_text(r->name));
	ok = ok && put(o, "irq", r->irq >= 0 ? json_integer(r->irq) : json_null());
	ok = ok && put(o, "description", rtm_json_text(r->desc));
	if (r->irq >= 0) {
		ok = ok && put(o, "chip", rtm_json_text(r->chip));
		ok = ok && put(o, "hwirq", r->hwirq >= 0 ? json_integer(r->hwirq) : json_null());
		ok = ok && put(o, "trigger", rtm_json_text(r->trigger));
		ok = ok && put(o, "actions", rtm_json_text(r->actions));
	}
	ok = ok && put(o, "count", rtm_json_u64(r->total));
	ok = ok && put(o, "counts", r->percpu ? array(NULL, r->counts, NULL, d->ncpus) :
					json_null());
	if (d->interval_ns) {
		ok = ok && put(o, "rate_hz", json_real(rtm_irq_rate_hz(d, r->total)));
		ok = ok && put(o, "rates_hz", r->percpu ? array(NULL, r->counts, d, d->ncpus) :
					      json_null());
	}
	if (r->flags & RTM_IRQ_APPEARED)
		ok = ok && put(o, "appeared", json_true());
	if (r->flags & RTM_IRQ_WRAPPED)
		ok = ok && put(o, "wrapped", json_true());
	if (r->aff) {
		json_t *a = json_object();

		ok = ok && put(o, "affinity", a);
		ok = ok && put(a, "smp", cpulist_json(&r->aff->smp, r->aff->has_smp));
		ok = ok && put(a, "effective", cpulist_json(&r->aff->effective,
							     r->aff->has_effective));
		ok = ok && put(a, "node", r->aff->node >= 0 ? json_integer(r->aff->node) :
					  json_null());
	}
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static bool soft_json(const struct rtm_irq_snap *d, json_t *root)
{
	json_t *s = json_object(), *vec = json_array();
	bool ok = put(root, "softirqs", s) && put(s, "vectors", vec);
	int i;

	ok = ok && put(s, "cpus", array(d->soft_cpus, NULL, NULL, d->nsoft_cpus));
	for (i = 0; ok && i < d->nsoft; i++) {
		const struct rtm_softirq_row *r = &d->soft[i];
		json_t *o = json_object();

		ok = json_array_append_new(vec, o) == 0 && o;
		ok = ok && put(o, "name", rtm_json_text(r->name));
		ok = ok && put(o, "count", rtm_json_u64(r->total));
		ok = ok && put(o, "counts", array(NULL, r->counts, NULL, d->nsoft_cpus));
		if (d->interval_ns)
			ok = ok && put(o, "rate_hz", json_real(rtm_irq_rate_hz(d, r->total)));
	}
	return ok;
}

static bool stat_json(const struct rtm_irq_snap *d, json_t *root)
{
	json_t *s = json_object(), *cpus = json_array();
	bool ok = put(root, "stat", s) && put(s, "cpus", cpus);
	int i;

	ok = ok && put(s, "intr", rtm_json_u64(d->stat_intr));
	ok = ok && put(s, "softirq", rtm_json_u64(d->stat_softirq));
	for (i = 0; ok && i < d->nstat_cpus; i++) {
		const struct rtm_irq_cpu_ticks *t = &d->stat_cpus[i];
		json_t *o = json_object();

		ok = json_array_append_new(cpus, o) == 0 && o;
		ok = ok && put(o, "cpu", json_integer(t->cpu));
		ok = ok && put(o, "irq_ticks", rtm_json_u64(t->irq));
		ok = ok && put(o, "softirq_ticks", rtm_json_u64(t->softirq));
		ok = ok && put(o, "steal_ticks", rtm_json_u64(t->steal));
	}
	return ok;
}

/**
 * rtm_irq_delta_to_json - the JSON form of a difference (or of a snapshot)
 * @d: from rtm_irq_delta()
 * @all: list rows without events too
 *
 * Counts are integers (decimal strings above INT64_MAX), rates are events per
 * second; "counts" and "rates_hz" follow "cpus", and are null for rows without
 * per-CPU counts. Returns a new reference or NULL when out of memory.
 */
json_t *rtm_irq_delta_to_json(const struct rtm_irq_snap *d, bool all)
{
	json_t *root = json_object(), *irqs = json_array();
	bool ok = put(root, "irqs", irqs);
	int i;

	ok = ok && put(root, "interval_ns", rtm_json_u64(d->interval_ns));
	ok = ok && put(root, "cpus", array(d->cpus, NULL, NULL, d->ncpus));
	ok = ok && put(root, "total", rtm_json_u64(d->total));
	if (d->interval_ns)
		ok = ok && put(root, "rate_hz", json_real(rtm_irq_rate_hz(d, d->total)));
	ok = ok && put(root, "cpu_totals", array(NULL, d->cpu_totals, NULL, d->ncpus));
	for (i = 0; ok && i < d->nrows; i++)
		if (all || d->rows[i].total)
			ok = json_array_append_new(irqs, row_json(d, &d->rows[i])) == 0;
	if (ok && d->has_softirqs)
		ok = soft_json(d, root);
	if (ok && d->has_stat)
		ok = stat_json(d, root);
	if (!ok) {
		json_decref(root);
		return NULL;
	}
	return root;
}
