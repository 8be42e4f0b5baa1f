// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timerirq.c - the timer-interrupt delay of the probes' own hrtimers
 * (hrtimer_start -> hrtimer_expire_entry), per CPU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/stats.h"
#include "trace/timerirq.h"
#include "core/units.h"

/*
 * Starts waiting for their expiry on one CPU. A probe has one sleeping
 * hrtimer at a time, so a handful is plenty; when full, the oldest is dropped
 * as unmatched rather than the table grown without bound on lost expiries.
 */
#define PEND_MAX	8
/* Sleeper addresses remembered per CPU (see add_known()). */
#define KNOWN_MAX	1024

struct pend {
	uint64_t hrtimer;
	int64_t expires;
	int pid;
};

struct cpu_state {
	bool watched;
	uint64_t *known;		/* the sleepers' addresses the followed threads used here */
	size_t nknown, kcap;
	struct rtm_hist *delay;
	uint64_t matched, unmatched_starts, unmatched_expires, early;
	struct pend pend[PEND_MAX];
	int npend;
};

struct rtm_timerirq {
	int ncpus;
	uint64_t function;		/* hrtimer_wakeup */
	struct cpu_state *cpu;
	int *tids;
	size_t ntids, tcap;
	rtm_timerirq_expiry_cb expiry_cb;
	void *expiry_ctx;
	struct rtm_timerirq_cpu *line;	/* rtm_timerirq_line()'s copy, ncpus long */
};

struct rtm_timerirq *rtm_timerirq_alloc(int ncpus, uint64_t function)
{
	struct rtm_timerirq *t;

	if (ncpus <= 0) {
		errno = EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->ncpus = ncpus;
	t->function = function;
	t->cpu = calloc((size_t)ncpus, sizeof(*t->cpu));
	t->line = calloc((size_t)ncpus, sizeof(*t->line));
	if (!t->cpu || !t->line) {
		free(t->cpu);
		free(t->line);
		free(t);
		return NULL;
	}
	return t;
}

void rtm_timerirq_free(struct rtm_timerirq *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->ncpus; i++) {
		rtm_hist_free(t->cpu[i].delay);
		free(t->cpu[i].known);
	}
	free(t->cpu);
	free(t->line);
	free(t->tids);
	free(t);
}

int rtm_timerirq_kallsyms(const char *root, const char *name, uint64_t *addr)
{
	char path[4096], line[512], type, sym[256];
	unsigned long long a;
	int ret = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/kallsyms", strcmp(root, "/") ? root : "");
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* ~120 k lines: the cheap test first */
		if (!strstr(line, name) ||
		    sscanf(line, "%llx %c %255s", &a, &type, sym) != 3 || strcmp(sym, name))
			continue;
		/* every address reads 0 when kptr_restrict hides them from us */
		ret = a ? 0 : -EPERM;
		*addr = a;
		break;
	}
	fclose(f);
	return ret;
}

void rtm_timerirq_set_expiry_cb(struct rtm_timerirq *t, rtm_timerirq_expiry_cb cb, void *ctx)
{
	t->expiry_cb = cb;
	t->expiry_ctx = ctx;
}

int rtm_timerirq_watch(struct rtm_timerirq *t, int cpu)
{
	struct cpu_state *c;

	if (cpu < 0 || cpu >= t->ncpus)
		return -EINVAL;
	c = &t->cpu[cpu];
	if (!c->delay && !(c->delay = rtm_hist_alloc()))
		return -ENOMEM;
	c->watched = true;
	return 0;
}

static bool followed(const struct rtm_timerirq *t, int tid)
{
	size_t i;

	for (i = 0; i < t->ntids; i++)
		if (t->tids[i] == tid)
			return true;
	return false;
}

int rtm_timerirq_follow(struct rtm_timerirq *t, int tid)
{
	int *n;

	if (followed(t, tid))
		return 0;
	n = rtm_grow(t->tids, &t->tcap, t->ntids, sizeof(*n), 16);
	if (!n)
		return -ENOMEM;
	t->tids = n;
	t->tids[t->ntids++] = tid;
	return 0;
}

static bool is_known(const struct cpu_state *c, uint64_t hrtimer)
{
	size_t i;

	for (i = 0; i < c->nknown; i++)
		if (c->known[i] == hrtimer)
			return true;
	return false;
}

static int add_known(struct cpu_state *c, uint64_t hrtimer)
{
	uint64_t *n;

	/*
	 * The kernel's stack offset takes a few dozen values: far more addresses
	 * mean something else, and the scan of each unpaired expiry stays short.
	 */
	if (is_known(c, hrtimer) || c->nknown >= KNOWN_MAX)
		return 0;
	n = rtm_grow(c->known, &c->kcap, c->nknown, sizeof(*n), 64);
	if (!n)
		return -ENOMEM;
	c->known = n;
	c->known[c->nknown++] = hrtimer;
	return 0;
}

static int find_pend(const struct cpu_state *c, uint64_t hrtimer)
{
	int i;

	for (i = 0; i < c->npend; i++)
		if (c->pend[i].hrtimer == hrtimer)
			return i;
	return -1;
}

static void drop_pend(struct cpu_state *c, int i)
{
	memmove(&c->pend[i], &c->pend[i + 1], (size_t)(c->npend - i - 1) * sizeof(c->pend[0]));
	c->npend--;
}

static int on_start(struct rtm_timerirq *t, struct cpu_state *c, const struct rtm_event *ev)
{
	int i;

	if (ev->hrstart.function != t->function || !followed(t, ev->pid))
		return 0;
	if (add_known(c, ev->hrstart.hrtimer))
		return -ENOMEM;
	i = find_pend(c, ev->hrstart.hrtimer);
	if (i >= 0) {
		/* re-armed before it expired: the earlier start never will */
		c->unmatched_starts++;
		c->pend[i].expires = ev->hrstart.expires;
		c->pend[i].pid = ev->pid;
		return 0;
	}
	if (c->npend == PEND_MAX) {
		c->unmatched_starts++;
		drop_pend(c, 0);
	}
	c->pend[c->npend++] = (struct pend){ ev->hrstart.hrtimer, ev->hrstart.expires, ev->pid };
	return 0;
}

static void on_expire(struct rtm_timerirq *t, struct cpu_state *c, const struct rtm_event *ev)
{
	int64_t now = (int64_t)ev->hrtimer.now;
	int i;

	if (ev->hrtimer.function != t->function)
		return;
	i = find_pend(c, ev->hrtimer.hrtimer);
	if (i < 0) {
		if (is_known(c, ev->hrtimer.hrtimer))
			c->unmatched_expires++;
		return;
	}
	if (now < c->pend[i].expires) {
		c->early++;
	} else {
		rtm_hist_record(c->delay, (uint64_t)(now - c->pend[i].expires));
		c->matched++;
		if (t->expiry_cb) {
			struct rtm_timerirq_expiry e = { ev->cpu, c->pend[i].pid,
							 c->pend[i].expires, now };

			t->expiry_cb(&e, t->expiry_ctx);
		}
	}
	drop_pend(c, i);
}

int rtm_timerirq_event(const struct rtm_event *ev, void *ctx)
{
	struct rtm_timerirq *t = ctx;
	struct cpu_state *c;

	if (ev->cpu < 0 || ev->cpu >= t->ncpus || !t->cpu[ev->cpu].watched)
		return 0;
	c = &t->cpu[ev->cpu];
	if (ev->type == RTM_EV_HRTIMER_START)
		return on_start(t, c, ev);
	if (ev->type == RTM_EV_HRTIMER_ENTRY)
		on_expire(t, c, ev);
	return 0;
}

void rtm_timerirq_end(struct rtm_timerirq *t)
{
	int i;

	for (i = 0; i < t->ncpus; i++) {
		t->cpu[i].unmatched_starts += (uint64_t)t->cpu[i].npend;
		t->cpu[i].npend = 0;
	}
}

int rtm_timerirq_cpus(const struct rtm_timerirq *t, struct rtm_timerirq_cpu *out, int max)
{
	int i, n = 0;

	for (i = 0; i < t->ncpus && n < max; i++) {
		const struct cpu_state *c = &t->cpu[i];

		if (!c->watched)
			continue;
		out[n++] = (struct rtm_timerirq_cpu){ .cpu = i, .matched = c->matched,
			.unmatched_starts = c->unmatched_starts,
			.unmatched_expires = c->unmatched_expires, .early = c->early,
			.delay = c->delay };
	}
	return n;
}

void rtm_timerirq_line_of(const struct rtm_timerirq_cpu *cpus, int n, char *buf, size_t len)
{
	uint64_t matched = 0;
	size_t off;
	char v[16];
	int i, k;

	k = snprintf(buf, len, "timer IRQ p99:");
	off = k > 0 && (size_t)k < len ? (size_t)k : len;
	for (i = 0; i < n && off < len; i++) {
		const struct rtm_hist *d = cpus[i].delay;

		if (rtm_pct_defined(d->count, 99))	/* the tables' one rule */
			rtm_fmt_ns(v, sizeof(v), rtm_hist_percentile(d, 99));
		else
			snprintf(v, sizeof(v), d->count ? "-" : "unknown");
		matched += cpus[i].matched;
		k = snprintf(buf + off, len - off, "%s CPU %d %s", off > 14 ? "," : "",
			     cpus[i].cpu, v);
		off = k > 0 && off + (size_t)k < len ? off + (size_t)k : len;
	}
	if (off < len)
		snprintf(buf + off, len - off, " (%llu matched)", (unsigned long long)matched);
}

void rtm_timerirq_line(const struct rtm_timerirq *t, char *buf, size_t len)
{
	/* t->line is scratch of the right size, allocated with @t */
	rtm_timerirq_line_of(t->line, rtm_timerirq_cpus(t, t->line, t->ncpus), buf, len);
}

json_t *rtm_timerirq_to_json(const struct rtm_timerirq *t)
{
	json_t *sec = json_object(), *cpus = json_array(), *o;
	int i;

	if (!sec || !cpus)
		goto fail;
	json_object_set_new(sec, "source", json_string("timer:hrtimer_start -> "
			    "timer:hrtimer_expire_entry (now - expires) of the probes' own hrtimers"));
	json_object_set_new(sec, "cpus", cpus);
	for (i = 0; i < t->ncpus; i++) {
		const struct cpu_state *c = &t->cpu[i];

		if (!c->watched)
			continue;
		o = json_pack("{s:i, s:I, s:I, s:I, s:I, s:o}", "cpu", i,
			      "count", (json_int_t)c->matched,
			      "unmatched_starts", (json_int_t)c->unmatched_starts,
			      "unmatched_expires", (json_int_t)c->unmatched_expires,
			      "early", (json_int_t)c->early, "delay", rtm_hist_to_json(c->delay));
		if (!o || json_array_append_new(cpus, o))
			goto fail;
	}
	return sec;
fail:
	json_decref(sec);
	if (!sec)
		json_decref(cpus);
	return NULL;
}

/* ---------------------------------------------------------------- loading */

static int need_u(const json_t *o, const char *key, const char *where, const char *what,
		  struct rtm_error *err)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_integer(v) && json_integer_value(v) >= 0)
		return 0;
	return rtm_error_set(err, "%s: sections.timer_irq%s: \"%s\" is %s, must be an integer >= 0",
			     what, where, key, v ? "of the wrong type" : "missing");
}

int rtm_timerirq_check(const json_t *sec, const char *what, struct rtm_error *err)
{
	static const char *const keys[] = { "cpu", "count", "unmatched_starts",
					    "unmatched_expires", "early" };
	const json_t *cpus = json_object_get(sec, "cpus"), *e, *v;
	struct rtm_error herr = { "" };
	struct rtm_hist *h;
	char where[32];
	size_t i, k;
	int ret = 0;

	if (!json_is_object(sec))
		return rtm_error_set(err, "%s: sections.timer_irq must be an object", what);
	if (!json_is_array(cpus))
		return rtm_error_set(err, "%s: sections.timer_irq: \"cpus\" is %s, must be an array",
				     what, cpus ? "of the wrong type" : "missing");
	v = json_object_get(sec, "complete");
	if (v && !json_is_boolean(v))
		return rtm_error_set(err, "%s: sections.timer_irq: \"complete\" must be true or "
				     "false", what);
	h = rtm_hist_alloc();
	if (!h)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	json_array_foreach(cpus, i, e) {
		snprintf(where, sizeof(where), ".cpus[%zu]", i);
		if (!json_is_object(e)) {
			ret = rtm_error_set(err, "%s: sections.timer_irq%s must be an object", what,
					    where);
			break;
		}
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]) && !ret; k++)
			ret = need_u(e, keys[k], where, what, err);
		if (ret)
			break;
		if (rtm_hist_from_json(h, json_object_get(e, "delay"), &herr)) {
			ret = rtm_error_set(err, "%s: sections.timer_irq%s.delay: %s", what, where,
					    herr.msg);
			break;
		}
		if (h->count != (uint64_t)json_integer_value(json_object_get(e, "count"))) {
			ret = rtm_error_set(err, "%s: sections.timer_irq%s: \"count\" differs from "
					    "its delay histogram's", what, where);
			break;
		}
	}
	rtm_hist_free(h);
	return ret;
}
