// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * result_check - load a results folder through librtmeasure and print facts the
 * integration tests check, one CPU a line:
 *
 *   cpu=0 count=3000 min_ns=14000 max_ns=1500000 overruns=0 corrected=3000
 *         in_range=12 ge_interval=3
 *
 * usage: result_check DIR [LO_NS HI_NS [INTERVAL_NS]]
 *        result_check DIR --spikes     one "spike CPU PLANNED_MONO_NS LATENCY_NS" a line
 *   in_range     raw samples in buckets lying within [LO_NS, HI_NS]
 *   ge_interval  raw samples in buckets at or above INTERVAL_NS
 * Exit status 2 with the loader's one-line message when the result is bad.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/result.h"

int main(int argc, char **argv)
{
	struct rtm_error err = { "" };
	uint64_t lo = 0, hi = 0, interval = 0;
	struct rtm_result *r;
	int i;

	if (argc == 3 && !strcmp(argv[2], "--spikes")) {
		size_t k;
		json_t *e;

		r = rtm_result_load(argv[1], &err);
		if (!r) {
			fprintf(stderr, "result_check: %s\n", err.msg);
			return 2;
		}
		json_array_foreach(r->events, k, e) {
			if (strcmp(json_string_value(json_object_get(e, "type")) ?: "", "spike"))
				continue;
			printf("spike %lld %lld %lld\n",
			       json_integer_value(json_object_get(e, "cpu")),
			       json_integer_value(json_object_get(e, "planned_mono_ns")),
			       json_integer_value(json_object_get(e, "latency_ns")));
		}
		rtm_result_free(r);
		return 0;
	}
	if (argc != 2 && argc != 4 && argc != 5) {
		fprintf(stderr, "usage: result_check DIR [LO_NS HI_NS [INTERVAL_NS]]\n");
		return 2;
	}
	if (argc >= 4) {
		lo = strtoull(argv[2], NULL, 10);
		hi = strtoull(argv[3], NULL, 10);
	}
	if (argc == 5)
		interval = strtoull(argv[4], NULL, 10);
	r = rtm_result_load(argv[1], &err);
	if (!r) {
		fprintf(stderr, "result_check: %s\n", err.msg);
		return 2;
	}
	printf("duration_ns=%llu interrupted=%d ncpus=%d events=%zu\n",
	       (unsigned long long)r->duration_ns, r->interrupted, r->ncpus,
	       json_array_size(r->events));
	for (i = 0; i < r->ncpus; i++) {
		const struct rtm_result_cpu *c = &r->cpus[i];
		uint64_t in_range = 0, ge = 0;
		struct rtm_hist_bucket b;
		unsigned int pos = 0;

		while (rtm_hist_next(c->raw, &pos, &b)) {
			if (b.lo_ns >= lo && b.hi_ns <= hi)
				in_range += b.count;
			if (interval && b.lo_ns >= interval)
				ge += b.count;
		}
		printf("cpu=%d count=%llu min_ns=%llu max_ns=%llu overruns=%llu corrected=%llu "
		       "in_range=%llu ge_interval=%llu ts_points=%u\n", c->cpu,
		       (unsigned long long)c->raw->count,
		       (unsigned long long)(c->raw->count ? c->raw->min_ns : 0),
		       (unsigned long long)c->raw->max_ns, (unsigned long long)c->overruns,
		       (unsigned long long)(c->corrected ? c->corrected->count : 0),
		       (unsigned long long)in_range, (unsigned long long)ge,
		       c->ts ? c->ts->n : 0);
	}
	rtm_result_free(r);
	return 0;
}
