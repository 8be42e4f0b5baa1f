// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * capture.c - the events around a spike, saved as text and JSON.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "trace/analysis.h"
#include "trace/capture.h"
#include "core/fileio.h"
#include "core/jsonutil.h"
#include "core/task.h"

struct window_ctx {
	const struct rtm_spike_window *w;
	struct rtm_trace *t;		/* prints each kept event's text */
	uint64_t from, to;
	struct rtm_event *ev;
	size_t n, cap;
	uint64_t first_ns;		/* oldest event of the CPU the buffer still held */
	uint64_t last_ns;		/* newest event of the CPU, in the window or not */
	int error;
};

static int keep(const struct rtm_event *ev, void *arg)
{
	struct window_ctx *c = arg;

	if (ev->cpu == c->w->cpu && ev->ts_ns > c->last_ns)
		c->last_ns = ev->ts_ns;
	if (ev->cpu == c->w->cpu && (!c->first_ns || ev->ts_ns < c->first_ns))
		c->first_ns = ev->ts_ns;
	if (ev->cpu != c->w->cpu || ev->ts_ns < c->from || ev->ts_ns > c->to)
		return 0;
	{
		struct rtm_event *n = rtm_grow(c->ev, &c->cap, c->n, sizeof(*n), 1024);

		if (!n) {
			c->error = -ENOMEM;
			return -ENOMEM;
		}
		c->ev = n;
	}
	c->ev[c->n] = *ev;
	c->ev[c->n].raw = NULL;		/* the record is gone after this call */
	c->ev[c->n].info = NULL;
	if (c->t) {
		char text[512];

		if (rtm_trace_print_event(c->t, ev, text, sizeof(text)) >= 0 &&
		    !(c->ev[c->n].info = strdup(text))) {
			c->error = -ENOMEM;
			return -ENOMEM;
		}
	}
	c->n++;
	return 0;
}

static void free_window(struct window_ctx *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free((char *)c->ev[i].info);
	free(c->ev);
	c->ev = NULL;
	c->n = 0;
}

uint64_t rtm_spike_window_before_ns(uint64_t interval_ns)
{
	return interval_ns > 1000000 ? interval_ns : 1000000;
}

void rtm_spike_window_init(struct rtm_spike_window *w, int cpu, uint64_t planned_ns,
			   uint64_t woke_ns, uint64_t interval_ns, const char *preempt_model)
{
	memset(w, 0, sizeof(*w));
	w->cpu = cpu;
	w->planned_ns = planned_ns;
	w->woke_ns = woke_ns;
	w->before_ns = rtm_spike_window_before_ns(interval_ns);
	w->after_ns = 200000;
	snprintf(w->probe_comm, sizeof(w->probe_comm), "rtm-probe/%d", cpu);
	w->preempt_model = preempt_model;
}

json_t *rtm_event_to_json(const struct rtm_event *ev)
{
	json_t *o = json_pack("{s:I, s:i, s:s, s:s}", "ts_ns", (json_int_t)ev->ts_ns,
			      "cpu", ev->cpu, "system", ev->system ? ev->system : "",
			      "event", ev->name ? ev->name : "");

	if (ev->info)
		json_object_set_new(o, "info", rtm_json_text(ev->info));

	switch (ev->type) {
	case RTM_EV_SCHED_SWITCH:
		json_object_update_new(o, json_pack("{s:o, s:i, s:i, s:I, s:o, s:i, s:i}",
			"prev_comm", rtm_json_text(ev->sw.prev_comm), "prev_pid", ev->sw.prev_pid,
			"prev_prio", ev->sw.prev_prio, "prev_state", (json_int_t)ev->sw.prev_state,
			"next_comm", rtm_json_text(ev->sw.next_comm), "next_pid", ev->sw.next_pid,
			"next_prio", ev->sw.next_prio));
		break;
	case RTM_EV_SCHED_WAKEUP:
	case RTM_EV_SCHED_WAKING:
		json_object_update_new(o, json_pack("{s:o, s:i, s:i, s:i}", "comm",
			rtm_json_text(ev->wakeup.comm),
			"pid", ev->wakeup.pid, "prio", ev->wakeup.prio,
			"target_cpu", ev->wakeup.target_cpu));
		break;
	case RTM_EV_IRQ_ENTRY:
	case RTM_EV_IRQ_EXIT:
		json_object_update_new(o, json_pack("{s:i, s:o, s:i}", "irq", ev->irq.irq,
			"name", rtm_json_text(ev->irq.name), "ret", ev->irq.ret));
		break;
	case RTM_EV_SOFTIRQ_ENTRY:
	case RTM_EV_SOFTIRQ_EXIT:
	case RTM_EV_SOFTIRQ_RAISE:
		json_object_set_new(o, "vec", json_integer(ev->softirq.vec));
		break;
	case RTM_EV_HRTIMER_ENTRY:
	case RTM_EV_HRTIMER_EXIT:
		json_object_update_new(o, json_pack("{s:I, s:I, s:I}",
			"hrtimer", (json_int_t)ev->hrtimer.hrtimer,
			"function", (json_int_t)ev->hrtimer.function,
			"now", (json_int_t)ev->hrtimer.now));
		break;
	case RTM_EV_VECTOR_ENTRY:
	case RTM_EV_VECTOR_EXIT:
		json_object_set_new(o, "vector", json_integer(ev->vector.vector));
		break;
	case RTM_EV_NMI:
		json_object_set_new(o, "delta_ns", json_integer((json_int_t)ev->nmi.delta_ns));
		break;
	case RTM_EV_PRINT:
		json_object_set_new(o, "buf", rtm_json_text(ev->print.buf));
		break;
	default:
		break;
	}
	return o;
}

static int64_t jint(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static void jstr(const json_t *o, const char *key, char *buf, size_t len)
{
	snprintf(buf, len, "%s", json_string_value(json_object_get(o, key)) ?: "");
}

int rtm_events_from_json(const json_t *arr, struct rtm_event **out, size_t *np,
			 struct rtm_error *err)
{
	struct rtm_event *ev;
	const json_t *o;
	size_t i, n = json_array_size(arr);

	if (!json_is_array(arr))
		return rtm_error_set(err, "spike file: \"events\" is not an array");
	ev = calloc(n ? n : 1, sizeof(*ev));
	if (!ev)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	json_array_foreach(arr, i, o) {
		struct rtm_event *e = &ev[i];

		if (!json_is_object(o) || !json_is_integer(json_object_get(o, "ts_ns")) ||
		    !json_is_string(json_object_get(o, "event")) ||
		    !json_is_string(json_object_get(o, "system"))) {
			free(ev);
			return rtm_error_set(err, "spike file: event %zu lacks ts_ns, system or "
					     "event", i);
		}
		e->ts_ns = (uint64_t)jint(o, "ts_ns");
		e->cpu = (int)jint(o, "cpu");
		e->system = json_string_value(json_object_get(o, "system"));
		e->name = json_string_value(json_object_get(o, "event"));
		e->type = rtm_ev_type_of(e->system, e->name);
		e->info = json_string_value(json_object_get(o, "info"));
		switch (e->type) {
		case RTM_EV_SCHED_SWITCH:
			jstr(o, "prev_comm", e->sw.prev_comm, sizeof(e->sw.prev_comm));
			jstr(o, "next_comm", e->sw.next_comm, sizeof(e->sw.next_comm));
			e->sw.prev_pid = (int)jint(o, "prev_pid");
			e->sw.prev_prio = (int)jint(o, "prev_prio");
			e->sw.prev_state = jint(o, "prev_state");
			e->sw.next_pid = (int)jint(o, "next_pid");
			e->sw.next_prio = (int)jint(o, "next_prio");
			break;
		case RTM_EV_SCHED_WAKEUP:
		case RTM_EV_SCHED_WAKING:
			jstr(o, "comm", e->wakeup.comm, sizeof(e->wakeup.comm));
			e->wakeup.pid = (int)jint(o, "pid");
			e->wakeup.prio = (int)jint(o, "prio");
			e->wakeup.target_cpu = (int)jint(o, "target_cpu");
			break;
		case RTM_EV_IRQ_ENTRY:
		case RTM_EV_IRQ_EXIT:
			e->irq.irq = (int)jint(o, "irq");
			e->irq.ret = (int)jint(o, "ret");
			jstr(o, "name", e->irq.name, sizeof(e->irq.name));
			break;
		case RTM_EV_SOFTIRQ_ENTRY:
		case RTM_EV_SOFTIRQ_EXIT:
		case RTM_EV_SOFTIRQ_RAISE:
			e->softirq.vec = (unsigned int)jint(o, "vec");
			break;
		case RTM_EV_HRTIMER_ENTRY:
		case RTM_EV_HRTIMER_EXIT:
			e->hrtimer.hrtimer = (uint64_t)jint(o, "hrtimer");
			e->hrtimer.function = (uint64_t)jint(o, "function");
			e->hrtimer.now = (uint64_t)jint(o, "now");
			break;
		case RTM_EV_VECTOR_ENTRY:
		case RTM_EV_VECTOR_EXIT:
			e->vector.vector = (int)jint(o, "vector");
			break;
		case RTM_EV_NMI:
			e->nmi.delta_ns = (uint64_t)jint(o, "delta_ns");
			break;
		case RTM_EV_PRINT:
			jstr(o, "buf", e->print.buf, sizeof(e->print.buf));
			break;
		default:
			break;
		}
	}
	*out = ev;
	*np = n;
	return 0;
}

static int save_text(const char *path, const struct window_ctx *c, bool truncated,
		     const char *verdict)
{
	char *text = NULL, line[512];
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	fprintf(f, "# CPU %d: planned wake-up %llu.%09llu, woke %llu.%09llu (%llu ns late); "
		"%zu events%s\n", c->w->cpu,
		(unsigned long long)(c->w->planned_ns / 1000000000ULL),
		(unsigned long long)(c->w->planned_ns % 1000000000ULL),
		(unsigned long long)(c->w->woke_ns / 1000000000ULL),
		(unsigned long long)(c->w->woke_ns % 1000000000ULL),
		(unsigned long long)(c->w->woke_ns - c->w->planned_ns), c->n,
		truncated ? "; the buffer no longer held the window's start (raise "
		"--trace-buffer)" : "");
	fprintf(f, "# %s\n", verdict);
	for (i = 0; i < c->n; i++) {
		if (c->ev[i].ts_ns >= c->w->planned_ns &&
		    (i == 0 || c->ev[i - 1].ts_ns < c->w->planned_ns))
			fprintf(f, "# ---- planned wake-up\n");
		rtm_event_format(&c->ev[i], line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	fclose(f);
	ret = text ? rtm_write_atomic(path, text, len) : -ENOMEM;
	free(text);
	return ret;
}

struct own_tids {
	int *tid;
	size_t n, cap;
};

static int add_own(int tid, void *arg)
{
	struct own_tids *o = arg;
	int *n = rtm_grow(o->tid, &o->cap, o->n, sizeof(*n), 16);

	if (!n)
		return -ENOMEM;
	o->tid = n;
	o->tid[o->n++] = tid;
	return 0;
}

/*
 * The window analysed; with w->own_name, this process's threads named so. Their
 * ids as a JSON array for the spike file (NULL without), so a later analyze says
 * the same.
 */
static json_t *analyse(const struct window_ctx *c, struct rtm_analysis *an)
{
	const struct rtm_spike_window *w = c->w;
	struct own_tids o = { NULL, 0, 0 };
	json_t *tids = NULL;
	size_t i;

	rtm_analyze(c->ev, c->n, w->cpu, w->planned_ns, w->woke_ns, w->probe_comm,
		    w->preempt_model, an);
	if (w->own_name && rtm_task_each_thread_of("/", 0, add_own, &o) >= 0) {
		rtm_analysis_own(an, o.tid, (int)o.n, w->own_name);
		tids = json_array();
		for (i = 0; i < o.n; i++)
			json_array_append_new(tids, json_integer(o.tid[i]));
	}
	free(o.tid);
	return tids;
}

/* The spike's files: DIR/spikes/spike-NNN.txt and .json; @rel gets "spikes/spike-NNN". */
static int save_files(const struct window_ctx *c, const struct rtm_analysis *an, json_t *own,
		      const char *dir, int index, char *rel, size_t rlen, uint64_t lost,
		      bool truncated, uint64_t refused, struct rtm_error *err)
{
	const struct rtm_spike_window *w = c->w;
	char sdir[PATH_MAX], txt[PATH_MAX + 32], js[PATH_MAX + 32];
	json_t *arr, *doc;
	char *text;
	size_t i;
	int ret;

	snprintf(sdir, sizeof(sdir), "%s/spikes", dir);
	ret = rtm_dir_make(dir, "spikes");	/* a symlink planted at spikes is not followed */
	if (ret) {
		json_decref(own);
		return rtm_error_set(err, "cannot create %s: %s", sdir, rtm_write_strerror(ret));
	}
	snprintf(rel, rlen, "spikes/spike-%03d", index);
	snprintf(txt, sizeof(txt), "%s/%s.txt", dir, rel);
	snprintf(js, sizeof(js), "%s/%s.json", dir, rel);
	ret = save_text(txt, c, truncated, an->verdict);
	arr = json_array();
	for (i = 0; i < c->n; i++)
		json_array_append_new(arr, rtm_event_to_json(&c->ev[i]));
	doc = json_pack("{s:i, s:s, s:s, s:I, s:I, s:I, s:b, s:o, s:o}", "cpu", w->cpu,
			"probe_comm", w->probe_comm,
			"preempt_model", w->preempt_model ? w->preempt_model : "unknown",
			"planned_ns", (json_int_t)w->planned_ns, "woke_ns", (json_int_t)w->woke_ns,
			"lost", (json_int_t)lost, "truncated", truncated,
			"analysis", rtm_analysis_to_json(an), "events", arr);
	if (doc && refused)
		json_object_set_new(doc, "refused_pages", json_integer((json_int_t)refused));
	if (own) {
		json_object_set_new(doc, "own_name", json_string(w->own_name));
		json_object_set_new(doc, "own_tids", own);
	}
	text = json_dumps(doc, JSON_INDENT(1));
	json_decref(doc);
	if (!ret)
		ret = text ? rtm_write_atomic(js, text, strlen(text)) : -ENOMEM;
	free(text);
	if (ret)
		return rtm_error_set(err, "cannot write %s: %s", txt, rtm_write_strerror(ret));
	return 0;
}

json_t *rtm_capture_window(struct rtm_trace *t, const struct rtm_spike_window *w, int index,
			   const char *dir, struct rtm_error *err)
{
	/* the events' text (libtraceevent's print) goes only into the files */
	struct window_ctx c = { .w = w, .t = dir ? t : NULL };
	struct rtm_analysis an;
	char rel[64];
	uint64_t lost = 0, refused = rtm_trace_refused(t);
	bool truncated, wrapped = false;
	json_t *own, *sum;
	long n;
	size_t nev;

	c.from = w->planned_ns > w->before_ns ? w->planned_ns - w->before_ns : 0;
	c.to = w->woke_ns + w->after_ns;
	/*
	 * The window is one CPU's: the others' records are consumed, not decoded,
	 * and so are its own pages that end before the window. A streaming
	 * instance that keeps what it drained (rtm_trace_keep()) is not read: its
	 * consumers had the events, the window is decoded from the kept pages.
	 */
	if (rtm_trace_keeps(t))
		n = rtm_trace_read_kept(t, w->cpu, c.from, keep, &c, &lost, &wrapped, err);
	else
		n = rtm_trace_read_cpu_from(t, w->cpu, c.from, keep, &c, &lost, err);
	if (n < 0 || c.error) {
		free_window(&c);
		if (c.error)
			rtm_error_set(err, "out of memory keeping the spike's events");
		return NULL;
	}
	/*
	 * A flight recorder overwrites old events all the time (and says so as
	 * "lost" or in its overrun counters), kept pages give way to newer ones;
	 * that matters only when it took the start of the window: the CPU's
	 * oldest event is later than it.
	 */
	truncated = (!c.first_ns || c.first_ns > c.from) &&
		    (lost || wrapped || rtm_trace_dropped(t));
	refused = rtm_trace_refused(t) - refused;	/* corrupt pages skipped: events missing */
	truncated = truncated || refused;
	nev = c.n;
	own = analyse(&c, &an);
	if (dir && save_files(&c, &an, own, dir, index, rel, sizeof(rel), lost, truncated,
			      refused, err)) {
		free_window(&c);
		return NULL;
	}
	if (!dir)
		json_decref(own);
	free_window(&c);
	sum = json_pack("{s:s, s:i}", "type", "spike_capture", "cpu", w->cpu);
	if (sum && dir) {
		char file[80];

		snprintf(file, sizeof(file), "%s.txt", rel);
		json_object_set_new(sum, "file", json_string(file));
	}
	if (sum)
		json_object_update_new(sum, json_pack("{s:I, s:I, s:I, s:b, s:I, s:I, s:o}",
			"latency_ns", (json_int_t)(w->woke_ns - w->planned_ns),
			"events", (json_int_t)nev, "lost", (json_int_t)lost,
			"truncated", truncated, "from_ns", (json_int_t)c.from,
			"last_event_ns", (json_int_t)c.last_ns,
			"verdict", rtm_json_text(an.verdict)));
	return sum;
}
