// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtholds.c - real-time tasks that held a CPU longer than a bound, from sched_switch.
 *
 * Per CPU: the task running now (possibly an excluded probe) and the "holder",
 * the last task that is not excluded to be switched in. A switch from the
 * holder to an excluded thread only marks when the holder left (out_ns); a
 * switch back to it resumes the hold; a switch to any other task ends the hold
 * at out_ns (or at that switch when the holder itself was switched out).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/grow.h"
#include "core/jsonutil.h"
#include "core/task.h"
#include "trace/rtholds.h"
#include "core/units.h"

#define MAX_TASKS 1024
#define KPRIO_RT_END 100	/* kernel prio below this: real-time (MAX_RT_PRIO) */

struct cpu_state {
	bool known;			/* running is known */
	bool pre_unknown;		/* an excluded thread runs and who it preempted is unknown */
	int running;
	bool holder;			/* the fields below are valid */
	int pid;
	char comm[RTM_COMM_LEN];
	uint64_t since_ns;
	bool since_known;
	bool out;			/* switched out to an excluded thread at out_ns */
	uint64_t out_ns;
	int prio_in, prio_out, prio_min;
	char policy[12];
	bool looked_up;
	uint64_t last_ns;
};

struct rtm_rtholds {
	int ncpus;
	uint64_t bound_ns;
	char *root;
	uint64_t from_ns, to_ns;
	struct cpu_state *st;
	int *excl;
	int nexcl;
	size_t excl_cap;
	struct rtm_rthold_task *tasks;
	int ntasks;
	size_t tasks_cap;
	uint64_t tasks_dropped;
	struct rtm_rthold_interval *iv;
	int niv;
	size_t iv_cap;
	uint64_t iv_dropped;
	uint64_t inconsistent;
	uint64_t uncertain;		/* of those, the ones that may hide or cut an RT hold */
};

struct rtm_rtholds *rtm_rtholds_alloc(int ncpus, uint64_t bound_ns, const char *root)
{
	struct rtm_rtholds *h;

	if (ncpus <= 0 || !bound_ns)
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->ncpus = ncpus;
	h->bound_ns = bound_ns;
	h->st = calloc((size_t)ncpus, sizeof(*h->st));
	h->root = root ? strdup(root) : NULL;
	if (!h->st || (root && !h->root)) {
		rtm_rtholds_free(h);
		return NULL;
	}
	rtm_rtholds_begin(h, 0);
	return h;
}

void rtm_rtholds_free(struct rtm_rtholds *h)
{
	if (!h)
		return;
	free(h->st);
	free(h->root);
	free(h->excl);
	free(h->tasks);
	free(h->iv);
	free(h);
}

int rtm_rtholds_exclude(struct rtm_rtholds *h, int tid)
{
	int *n = rtm_grow(h->excl, &h->excl_cap, (size_t)h->nexcl, sizeof(*n), 16);

	if (!n)
		return -ENOMEM;
	h->excl = n;
	h->excl[h->nexcl++] = tid;
	return 0;
}

static bool excluded(const struct rtm_rtholds *h, int tid)
{
	int i;

	if (tid <= 0)		/* the idle task is never excluded */
		return false;
	for (i = 0; i < h->nexcl; i++)
		if (h->excl[i] == tid)
			return true;
	return false;
}

void rtm_rtholds_begin(struct rtm_rtholds *h, uint64_t from_ns)
{
	h->from_ns = from_ns;
	memset(h->st, 0, (size_t)h->ncpus * sizeof(*h->st));
}

uint64_t rtm_rtholds_bound_ns(const struct rtm_rtholds *h)
{
	return h->bound_ns;
}

static void look_up_policy(const struct rtm_rtholds *h, struct cpu_state *s)
{
	rtm_strcopy(s->policy, sizeof(s->policy), rtm_task_policy_name(h->root, s->pid, s->comm));
	s->looked_up = true;
}

static struct rtm_rthold_task *task_of(struct rtm_rtholds *h, const struct cpu_state *s, int cpu)
{
	struct rtm_rthold_task *t;
	int i;

	for (i = 0; i < h->ntasks; i++) {
		t = &h->tasks[i];
		if (t->pid == s->pid && t->cpu == cpu && !strcmp(t->comm, s->comm))
			return t;
	}
	if (h->ntasks == MAX_TASKS)
		return NULL;
	t = rtm_grow(h->tasks, &h->tasks_cap, (size_t)h->ntasks, sizeof(*t), 16);
	if (!t)
		return NULL;
	h->tasks = t;
	t = &h->tasks[h->ntasks++];
	memset(t, 0, sizeof(*t));
	t->pid = s->pid;
	t->cpu = cpu;
	t->prio = s->prio_min;
	rtm_strcopy(t->comm, sizeof(t->comm), s->comm);
	rtm_strcopy(t->policy, sizeof(t->policy), s->policy);
	return t;
}

/* The holder of @cpu leaves at @end_ns: an interval if it was real-time and over the bound. */
static int close_hold(struct rtm_rtholds *h, int cpu, uint64_t end_ns, bool open)
{
	struct cpu_state *s = &h->st[cpu];
	struct rtm_rthold_task *t;
	struct rtm_rthold_interval *iv;
	uint64_t dur;

	if (!s->holder)
		return 0;
	s->holder = false;
	dur = end_ns > s->since_ns ? end_ns - s->since_ns : 0;
	if (s->prio_min >= KPRIO_RT_END || dur <= h->bound_ns)
		return 0;
	if (!s->looked_up)
		look_up_policy(h, s);
	t = task_of(h, s, cpu);
	if (!t) {
		h->tasks_dropped++;
	} else {
		t->intervals++;
		t->total_ns += dur;
		if (s->prio_min < t->prio)
			t->prio = s->prio_min;
		if (!strcmp(t->policy, "unknown"))
			rtm_strcopy(t->policy, sizeof(t->policy), s->policy);
		if (dur > t->longest_ns) {
			t->longest_ns = dur;
			t->longest_open = open;
			t->longest_known = s->since_known;
		}
	}
	if (h->niv == RTM_RTHOLD_MAX_INTERVALS) {
		h->iv_dropped++;
		return 0;
	}
	iv = rtm_grow(h->iv, &h->iv_cap, (size_t)h->niv, sizeof(*iv), 16);
	if (!iv)
		return -ENOMEM;
	h->iv = iv;
	iv = &h->iv[h->niv++];
	memset(iv, 0, sizeof(*iv));
	iv->pid = s->pid;
	iv->cpu = cpu;
	rtm_strcopy(iv->comm, sizeof(iv->comm), s->comm);
	iv->start_ns = s->since_ns;
	iv->end_ns = end_ns;
	iv->start_known = s->since_known;
	iv->open = open;
	iv->prio_in = s->prio_in;
	iv->prio_out = s->out ? s->prio_out : RTM_RTHOLD_PRIO_NONE;
	return 0;
}

static void start_hold(struct cpu_state *s, int pid, const char *comm, uint64_t since_ns,
		       bool known, int prio_in, int prio)
{
	s->holder = true;
	s->pid = pid;
	rtm_strcopy(s->comm, sizeof(s->comm), comm);
	s->since_ns = since_ns;
	s->since_known = known;
	s->out = false;
	s->prio_in = prio_in;
	s->prio_out = RTM_RTHOLD_PRIO_NONE;
	s->prio_min = prio;
	s->looked_up = false;
	snprintf(s->policy, sizeof(s->policy), "unknown");
}

int rtm_rtholds_event(const struct rtm_event *ev, void *ctx)
{
	struct rtm_rtholds *h = ctx;
	struct cpu_state *s;
	int prev, next, ret = 0;
	bool pex, nex;
	uint64_t t = ev->ts_ns;

	if (ev->type != RTM_EV_SCHED_SWITCH || ev->cpu < 0 || ev->cpu >= h->ncpus)
		return 0;
	s = &h->st[ev->cpu];
	prev = ev->sw.prev_pid;
	next = ev->sw.next_pid;
	pex = excluded(h, prev);
	nex = excluded(h, next);
	if (!s->known) {
		/* the first switch since tracing began: prev was there from before */
		s->known = true;
		if (!pex)
			start_hold(s, prev, ev->sw.prev_comm, h->from_ns < t ? h->from_ns : t,
				   false, RTM_RTHOLD_PRIO_NONE, ev->sw.prev_prio);
		s->pre_unknown = pex;
	} else if (s->running != prev) {
		/*
		 * Events were lost (or the kernel did not record a switch): the hold's
		 * end is unknown, so it is not recorded; prev came on the CPU at an
		 * unknown time since the last event and counts from now, as a lower bound.
		 */
		h->inconsistent++;
		/*
		 * It matters when it ends a real-time hold, starts one, or when the
		 * switches not seen could have held a real-time task over the bound.
		 */
		if ((s->holder && s->prio_min < KPRIO_RT_END) ||
		    (!pex && ev->sw.prev_prio < KPRIO_RT_END) || t - s->last_ns > h->bound_ns)
			h->uncertain++;
		s->holder = false;
		if (!pex)
			start_hold(s, prev, ev->sw.prev_comm, t, false, RTM_RTHOLD_PRIO_NONE,
				   ev->sw.prev_prio);
		s->pre_unknown = pex;
	}

	if (!pex && s->holder) {
		if (s->pid == prev) {
			s->out = true;
			s->out_ns = t;
			s->prio_out = ev->sw.prev_prio;
			if (ev->sw.prev_prio < s->prio_min)
				s->prio_min = ev->sw.prev_prio;
		} else {	/* cannot happen with consistent events: end it where it left */
			ret = close_hold(h, ev->cpu, s->out ? s->out_ns : t, false);
		}
	}
	if (!nex) {
		if (s->holder && s->pid == next && s->out) {
			s->out = false;		/* back after an excluded thread */
			if (ev->sw.next_prio < s->prio_min)
				s->prio_min = ev->sw.next_prio;
		} else {
			if (s->holder)
				ret = close_hold(h, ev->cpu, s->out ? s->out_ns : t, false);
			start_hold(s, next, ev->sw.next_comm, t, !s->pre_unknown, ev->sw.next_prio,
				   ev->sw.next_prio);
			s->pre_unknown = false;
		}
	}
	s->running = next;
	s->last_ns = t;
	return ret;
}

void rtm_rtholds_tick(struct rtm_rtholds *h, uint64_t now_ns)
{
	int c;

	for (c = 0; c < h->ncpus; c++) {
		struct cpu_state *s = &h->st[c];

		if (s->holder && !s->out && !s->looked_up && s->prio_min < KPRIO_RT_END &&
		    now_ns > s->since_ns && now_ns - s->since_ns > h->bound_ns)
			look_up_policy(h, s);
	}
}

int rtm_rtholds_end(struct rtm_rtholds *h, uint64_t to_ns)
{
	int c, ret = 0;

	h->to_ns = to_ns;
	for (c = 0; c < h->ncpus; c++) {
		struct cpu_state *s = &h->st[c];
		uint64_t end = s->out ? s->out_ns : to_ns > s->last_ns ? to_ns : s->last_ns;

		if (s->holder && close_hold(h, c, end, true))
			ret = -ENOMEM;
		memset(s, 0, sizeof(*s));
	}
	return ret;
}

const struct rtm_rthold_task *rtm_rtholds_tasks(const struct rtm_rtholds *h, int *n)
{
	*n = h->ntasks;
	return h->tasks;
}

const struct rtm_rthold_interval *rtm_rtholds_intervals(const struct rtm_rtholds *h, int *n,
							uint64_t *dropped)
{
	*n = h->niv;
	if (dropped)
		*dropped = h->iv_dropped;
	return h->iv;
}

uint64_t rtm_rtholds_inconsistent(const struct rtm_rtholds *h)
{
	return h->inconsistent;
}

uint64_t rtm_rtholds_uncertain(const struct rtm_rtholds *h)
{
	return h->uncertain;
}

/* "FIFO 90", "DEADLINE", "RT 90 (policy unknown)" */
void rtm_rthold_fmt_sched(char *buf, size_t len, const char *policy, int kprio)
{
	if (kprio < 0 || !strcmp(policy, "DEADLINE"))
		snprintf(buf, len, "%s", kprio < 0 ? "DEADLINE" : policy);
	else if (!strcmp(policy, "FIFO") || !strcmp(policy, "RR"))
		snprintf(buf, len, "%s %d", policy, rtm_task_user_prio(kprio));
	else if (!strcmp(policy, "unknown"))
		snprintf(buf, len, "RT %d (policy unknown)", rtm_task_user_prio(kprio));
	else	/* boosted by priority inheritance, or demoted before /proc was read */
		snprintf(buf, len, "%s (RT %d in the trace)", policy, rtm_task_user_prio(kprio));
}

void rtm_rtholds_line(const struct rtm_rtholds *h, uint64_t now_ns, char *buf, size_t len)
{
	char bound[16], sched[48], d[16];
	size_t off;
	int i, c, shown = 0;

	rtm_fmt_ns(bound, sizeof(bound), h->bound_ns);
	off = (size_t)snprintf(buf, len, "RT tasks holding a CPU > %s:", bound);
	for (c = 0; c < h->ncpus && off < len; c++) {
		const struct cpu_state *s = &h->st[c];

		if (!s->holder || s->out || s->prio_min >= KPRIO_RT_END || now_ns <= s->since_ns ||
		    now_ns - s->since_ns <= h->bound_ns)
			continue;
		rtm_rthold_fmt_sched(sched, sizeof(sched), s->policy, s->prio_min);
		rtm_fmt_ns(d, sizeof(d), now_ns - s->since_ns);
		off += (size_t)snprintf(buf + off, len - off, "%s %s %d %s on CPU %d running %s%s",
					shown++ ? ";" : "", s->comm, s->pid, sched, c,
					s->since_known ? "" : ">= ", d);
	}
	for (i = 0; i < h->ntasks && off < len; i++) {
		const struct rtm_rthold_task *t = &h->tasks[i];

		rtm_rthold_fmt_sched(sched, sizeof(sched), t->policy, t->prio);
		rtm_fmt_ns(d, sizeof(d), t->longest_ns);
		off += (size_t)snprintf(buf + off, len - off, "%s %s %d %s on CPU %d: %llu interval%s, "
					"longest %s%s", shown++ ? ";" : "", t->comm, t->pid, sched,
					t->cpu, (unsigned long long)t->intervals,
					t->intervals == 1 ? "" : "s",
					t->longest_open || !t->longest_known ? ">= " : "", d);
	}
	if (!shown && off < len)
		snprintf(buf + off, len - off, " none");
}

/* ---------------------------------------------------------------- JSON */

static json_t *prio_json(int prio)
{
	return prio == RTM_RTHOLD_PRIO_NONE ? json_null() : json_integer(prio);
}

static int by_longest(const void *a, const void *b)
{
	const struct rtm_rthold_task *x = a, *y = b;

	return x->longest_ns < y->longest_ns ? 1 : x->longest_ns > y->longest_ns ? -1 : 0;
}

json_t *rtm_rtholds_to_json(const struct rtm_rtholds *h)
{
	struct rtm_rthold_task *sorted = NULL;
	json_t *o, *tasks = json_array(), *ivs = json_array();
	int i;

	if (h->ntasks) {
		sorted = malloc((size_t)h->ntasks * sizeof(*sorted));
		if (!sorted) {
			json_decref(tasks);
			json_decref(ivs);
			return NULL;
		}
		memcpy(sorted, h->tasks, (size_t)h->ntasks * sizeof(*sorted));
		qsort(sorted, (size_t)h->ntasks, sizeof(*sorted), by_longest);
	}
	for (i = 0; i < h->ntasks; i++) {
		const struct rtm_rthold_task *t = &sorted[i];

		json_array_append_new(tasks, json_pack("{s:i, s:o, s:i, s:s, s:o, s:i, s:I, s:I, "
			"s:I, s:b, s:b}", "pid", t->pid, "comm", rtm_json_text(t->comm),
			"cpu", t->cpu, "policy", t->policy,
			"priority", t->prio < 0 ? json_null() :
				    json_integer(rtm_task_user_prio(t->prio)),
			"kernel_prio", t->prio, "intervals", (json_int_t)t->intervals,
			"total_ns", (json_int_t)t->total_ns, "longest_ns", (json_int_t)t->longest_ns,
			"longest_open", t->longest_open, "longest_start_known", t->longest_known));
	}
	free(sorted);
	for (i = 0; i < h->niv; i++) {
		const struct rtm_rthold_interval *v = &h->iv[i];

		json_array_append_new(ivs, json_pack("{s:i, s:o, s:i, s:I, s:I, s:I, s:b, s:b, s:o, "
			"s:o}", "pid", v->pid, "comm", rtm_json_text(v->comm), "cpu", v->cpu,
			"start_ns", (json_int_t)v->start_ns, "end_ns", (json_int_t)v->end_ns,
			"duration_ns", (json_int_t)(v->end_ns - v->start_ns),
			"start_known", v->start_known, "open", v->open,
			"prio_in", prio_json(v->prio_in), "prio_out", prio_json(v->prio_out)));
	}
	o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:o, s:I, s:o, s:I}",
		"bound_ns", (json_int_t)h->bound_ns, "from_ns", (json_int_t)h->from_ns,
		"to_ns", (json_int_t)h->to_ns, "inconsistent", (json_int_t)h->inconsistent,
		"uncertain", (json_int_t)h->uncertain,
		"tasks", tasks, "tasks_dropped", (json_int_t)h->tasks_dropped,
		"intervals", ivs, "intervals_dropped", (json_int_t)h->iv_dropped);
	return o;
}

/* ---------------------------------------------------------------- loaded sections */

static int need(const json_t *o, const char *key, int kind, const char *where, const char *what,
		struct rtm_error *err)
{
	const json_t *v = json_object_get(o, key);
	bool good;

	switch (kind) {
	case 'u':	good = json_is_integer(v) && json_integer_value(v) >= 0; break;
	case 'i':	good = json_is_integer(v); break;
	case 'p':	good = json_is_null(v) || json_is_integer(v); break;
	case 'b':	good = json_is_boolean(v); break;
	case 's':	good = json_is_string(v); break;
	default:	good = json_is_array(v); break;
	}
	if (good)
		return 0;
	return rtm_error_set(err, "%s: sections.rt_holds%s: \"%s\" is %s, must be %s", what, where,
			     key, v ? "of the wrong type" : "missing",
			     kind == 'u' ? "an integer >= 0" : kind == 'i' ? "an integer" :
			     kind == 'p' ? "an integer or null" : kind == 'b' ? "true or false" :
			     kind == 's' ? "a string" : "an array");
}

int rtm_rtholds_check(const json_t *sec, const char *what, struct rtm_error *err)
{
	static const char tkeys[][20] = { "pid", "comm", "cpu", "policy", "priority",
		"kernel_prio", "intervals", "total_ns", "longest_ns", "longest_open",
		"longest_start_known" };
	static const char tkind[] = "isuspiuuubb";
	static const char ikeys[][12] = { "pid", "comm", "cpu", "start_ns", "end_ns",
		"duration_ns", "start_known", "open", "prio_in", "prio_out" };
	static const char ikind[] = "isuuuubbpp";
	const json_t *a, *e;
	char where[48];
	size_t i, k, j;

	if (!json_is_object(sec))
		return rtm_error_set(err, "%s: sections.rt_holds must be an object", what);
	if (need(sec, "bound_ns", 'u', "", what, err) || need(sec, "tasks", 'a', "", what, err) ||
	    need(sec, "intervals", 'a', "", what, err))
		return -EINVAL;
	for (k = 0; k < 2; k++) {
		a = json_object_get(sec, k ? "intervals" : "tasks");
		json_array_foreach(a, i, e) {
			snprintf(where, sizeof(where), ".%s[%zu]", k ? "intervals" : "tasks", i);
			if (!json_is_object(e))
				return rtm_error_set(err, "%s: sections.rt_holds%s must be an object",
						     what, where);
			for (j = 0; !k && j < sizeof(tkeys) / sizeof(tkeys[0]); j++)
				if (need(e, tkeys[j], tkind[j], where, what, err))
					return -EINVAL;
			for (j = 0; k && j < sizeof(ikeys) / sizeof(ikeys[0]); j++)
				if (need(e, ikeys[j], ikind[j], where, what, err))
					return -EINVAL;
		}
	}
	return 0;
}
