// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_analysis - the spike analysis input: a spike file as `rtmeasure analyze`
 * reads it (rtm_events_from_json, then rtm_analyze and its JSON form). The
 * four parts of the latency add up to it, and nothing else exceeds it.
 * Seeds: tests/data/spikes.
 */
#include <jansson.h>

#include "trace/analysis.h"
#include "trace/capture.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtm_error err = { "" };
	struct rtm_event *ev = NULL;
	struct rtm_analysis a;
	const char *probe, *model;
	json_t *doc, *j;
	size_t n;

	doc = json_loadb((const char *)data, size, 0, NULL);
	if (!doc)
		return 0;
	if (!json_is_integer(json_object_get(doc, "planned_ns")) ||
	    !json_is_integer(json_object_get(doc, "woke_ns")) ||
	    !json_is_integer(json_object_get(doc, "cpu")) ||
	    rtm_events_from_json(json_object_get(doc, "events"), &ev, &n, &err)) {
		if (err.msg[0])
			fuzz_check_msg(&err);
		json_decref(doc);
		return 0;
	}
	probe = json_string_value(json_object_get(doc, "probe_comm"));
	model = json_string_value(json_object_get(doc, "preempt_model"));
	memset(&a, 0, sizeof(a));
	rtm_analyze(ev, n, (int)json_integer_value(json_object_get(doc, "cpu")),
		    (uint64_t)json_integer_value(json_object_get(doc, "planned_ns")),
		    (uint64_t)json_integer_value(json_object_get(doc, "woke_ns")),
		    probe ? probe : "", model, &a);
	fuzz_check(memchr(a.verdict, '\0', sizeof(a.verdict)) != NULL, "verdict not terminated");
	fuzz_check(a.ntasks >= 0 && a.ntasks <= RTM_ANALYSIS_MAX_ITEMS, "%d tasks", a.ntasks);
	fuzz_check(a.nirqs >= 0 && a.nirqs <= RTM_ANALYSIS_MAX_ITEMS, "%d irqs", a.nirqs);
	fuzz_check(a.held_by >= -1 && a.held_by < a.ntasks, "held_by %d of %d", a.held_by,
		   a.ntasks);
	fuzz_check(a.timer_delay_ns + a.wakeup_ns + a.sched_delay_ns + a.return_ns ==
		   a.latency_ns, "timer %llu + wake-up %llu + scheduling %llu + return %llu != "
		   "latency %llu", (unsigned long long)a.timer_delay_ns,
		   (unsigned long long)a.wakeup_ns, (unsigned long long)a.sched_delay_ns,
		   (unsigned long long)a.return_ns, (unsigned long long)a.latency_ns);
	fuzz_check(a.unexplained_ns <= a.latency_ns && a.largest_gap_ns <= a.latency_ns,
		   "unexplained %llu or gap %llu > latency %llu",
		   (unsigned long long)a.unexplained_ns, (unsigned long long)a.largest_gap_ns,
		   (unsigned long long)a.latency_ns);
	j = rtm_analysis_to_json(&a);
	fuzz_check(j != NULL, "no JSON for an analysis");
	json_decref(j);
	free(ev);
	json_decref(doc);
	return 0;
}
