// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: spike analysis on event windows captured on this VM
 * (tests/data/spikes): a 5 ms FIFO 99 injection on CPU 0, and a vCPU stall
 * with no event to explain it. The events are loaded back from the spike JSON
 * and analysed again; the numbers are checked against the events themselves.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "capture.h"
#include "../tap.h"

static json_t *load(const char *name, struct rtm_event **ev, size_t *n)
{
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
	char path[PATH_MAX];
	struct rtm_error err = { "" };
	json_t *doc;

	snprintf(path, sizeof(path), "%s/spikes/%s", data, name);
	doc = json_load_file(path, 0, NULL);
	if (!ok(doc && rtm_events_from_json(json_object_get(doc, "events"), ev, n, &err) == 0,
		"%s loads (%s)", name, err.msg)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

static uint64_t jget(json_t *doc, const char *key)
{
	return (uint64_t)json_integer_value(json_object_get(doc, key));
}

int main(void)
{
	struct rtm_analysis a;
	struct rtm_event *ev = NULL;
	json_t *doc;
	size_t n;

	/* --- injection: the FIFO 99 spinner is named and its time accounted */
	doc = load("inject-5ms-vm-6.18.json", &ev, &n);
	if (doc) {
		uint64_t planned = jget(doc, "planned_ns"), woke = jget(doc, "woke_ns");

		rtm_analyze(ev, n, 0, planned, woke, "rtm-probe/0", &a);
		is_u64(a.latency_ns, woke - planned, "latency = woke - planned");
		ok(a.found_timer && a.found_wakeup && a.found_switch,
		   "timer, wake-up and switch of the probe found");
		is_u64(a.timer_delay_ns + a.wakeup_ns + a.sched_delay_ns + a.return_ns, a.latency_ns,
		       "the four parts add up to the latency");
		ok(a.ntasks >= 1 && !strcmp(a.tasks[0].comm, "rtm-inject") && a.tasks[0].prio == 0,
		   "the task that held the CPU is rtm-inject at RT priority 99 (%s, prio %d)",
		   a.ntasks ? a.tasks[0].comm : "-", a.ntasks ? a.tasks[0].prio : -1);
		ok(a.ntasks >= 1 && a.tasks[0].ran_ns * 10 >= a.sched_delay_ns * 9 &&
		   a.tasks[0].ran_ns <= a.sched_delay_ns,
		   "its run time (%llu ns) covers the scheduling delay (%llu ns) within 10%%",
		   a.ntasks ? (unsigned long long)a.tasks[0].ran_ns : 0ULL,
		   (unsigned long long)a.sched_delay_ns);
		ok(a.sched_delay_ns * 10 >= a.latency_ns * 9, "the scheduling delay is the spike");
		ok(strstr(a.verdict, "rtm-inject") && strstr(a.verdict, "RT priority 99") &&
		   strstr(a.verdict, "CPU0 woke"), "verdict: %s", a.verdict);
		ok(a.unexplained_ns < 50000, "little unexplained time (%llu ns)",
		   (unsigned long long)a.unexplained_ns);
		{
			json_t *j = rtm_analysis_to_json(&a);

			ok(j && !strcmp(json_string_value(json_object_get(j, "verdict")), a.verdict),
			   "JSON form carries the verdict");
			json_decref(j);
		}
		/* another CPU's probe name finds nothing: no wake-up, all unexplained */
		rtm_analyze(ev, n, 0, planned, woke, "rtm-probe/7", &a);
		ok(!a.found_wakeup && strstr(a.verdict, "no wake-up"),
		   "a probe that is not in the window: %s", a.verdict);
	}
	free(ev);
	json_decref(doc);

	/* --- a vCPU stall: the timer fires late and no event says why */
	ev = NULL;
	doc = load("vm-stall-6.18.json", &ev, &n);
	if (doc) {
		uint64_t planned = jget(doc, "planned_ns"), woke = jget(doc, "woke_ns");
		int cpu = (int)jget(doc, "cpu");
		char probe[32];

		snprintf(probe, sizeof(probe), "rtm-probe/%d", cpu);
		rtm_analyze(ev, n, cpu, planned, woke, probe, &a);
		ok(a.found_timer, "the late timer is found");
		ok(a.timer_delay_ns * 10 >= a.latency_ns * 9, "the timer delay is the spike");
		ok(a.unexplained_ns * 10 >= a.timer_delay_ns * 9,
		   "and nearly all of it is unexplained (%llu of %llu ns)",
		   (unsigned long long)a.unexplained_ns, (unsigned long long)a.timer_delay_ns);
		ok(a.largest_gap_ns * 10 >= a.unexplained_ns * 9,
		   "as one stretch without events (%llu ns)", (unsigned long long)a.largest_gap_ns);
		ok(strstr(a.verdict, "unexplained") && strstr(a.verdict, "hypervisor"),
		   "verdict: %s", a.verdict);
	}
	free(ev);
	json_decref(doc);

	/* --- no events at all */
	rtm_analyze(NULL, 0, 3, 1000000, 1500000, "rtm-probe/3", &a);
	ok(a.latency_ns == 500000 && a.unexplained_ns == 500000 && a.largest_gap_ns == 500000,
	   "an empty window: all 500 us unexplained");

	/* --- bad spike JSON */
	{
		struct rtm_error err = { "" };
		json_t *bad = json_loads("[{\"ts_ns\": 1}]", 0, NULL);

		ok(rtm_events_from_json(bad, &ev, &n, &err) < 0 && one_line(err.msg),
		   "an event without names is rejected: %s", err.msg);
		json_decref(bad);
		bad = json_loads("{}", 0, NULL);
		ok(rtm_events_from_json(bad, &ev, &n, &err) < 0, "not an array is rejected");
		json_decref(bad);
	}
	return tap_done();
}
