// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: result.json save/load round trip, atomic write, bad files. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result/result.h"
#include "../tap.h"

static char tmpdir[PATH_MAX];

static void write_file(const char *name, const char *text, size_t len)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(99);
	}
	fwrite(text, 1, len, f);
	fclose(f);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static struct rtm_result *make_result(void)
{
	struct rtm_result *r = rtm_result_alloc("cyclic");
	uint64_t seed = 88172645463325252ULL;
	int c, i;

	r->duration_ns = 5000000000ULL;
	r->sysinfo = json_pack("{s:s, s:{s:s}}", "schema", "rtmeasure-sysinfo/1", "kernel",
			       "release", "6.18.0-test");
	json_object_set_new(r->options, "interval_us", json_integer(1000));
	json_object_set_new(r->options, "priority", json_integer(95));
	json_array_append_new(r->events, json_pack("{s:s, s:i, s:I}", "type", "break", "cpu", 1,
						   "latency_ns", (json_int_t)512345));
	json_object_set_new(r->sections, "provenance", json_pack("{s:s}", "tool", "test"));
	for (c = 0; c < 2; c++) {
		struct rtm_result_cpu *rc = rtm_result_add_cpu(r, c, true, 1000000000ULL);

		for (i = 0; i < 5000; i++) {
			uint64_t v;

			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			v = 10000 + seed % 50000 + (i == 4321 ? 3000000 : 0);
			rtm_hist_record(rc->raw, v);
			rtm_hist_record_corrected(rc->corrected, v, 1000000);
		}
		rc->overruns = (uint64_t)c * 3;
		for (i = 0; i < 5; i++) {
			struct rtm_ts_point p = {
				.start_ns = (uint64_t)i * 1000000000ULL, .width_ns = 1000000000ULL,
				.count = 1000, .min_ns = 10000 + (uint64_t)i, .max_ns = 60000,
				.p99_ns = 59000,
			};

			rtm_ts_add(rc->ts, &p);
		}
	}
	return r;
}

static int same_cpu(const struct rtm_result_cpu *a, const struct rtm_result_cpu *b)
{
	uint32_t i;

	if (a->cpu != b->cpu || a->overruns != b->overruns)
		return 0;
	if (memcmp(a->raw, b->raw, sizeof(*a->raw)) != 0)
		return 0;
	if (!!a->corrected != !!b->corrected ||
	    (a->corrected && memcmp(a->corrected, b->corrected, sizeof(*a->corrected)) != 0))
		return 0;
	if (!!a->ts != !!b->ts)
		return 0;
	if (a->ts) {
		if (a->ts->n != b->ts->n || a->ts->interval_ns != b->ts->interval_ns)
			return 0;
		for (i = 0; i < a->ts->n; i++)
			if (memcmp(&a->ts->pts[i], &b->ts->pts[i], sizeof(a->ts->pts[i])) != 0)
				return 0;
	}
	return 1;
}

static void test_bad(const char *name, const char *text, const char *want)
{
	char path[PATH_MAX + 64];
	struct rtm_error err = { "" };
	struct rtm_result *r;

	write_file(name, text, strlen(text));
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	r = rtm_result_load(path, &err);
	ok(!r && one_line(err.msg) && strstr(err.msg, want) && strstr(err.msg, name),
	   "%s rejected: %s", name, err.msg);
	rtm_result_free(r);
}

int main(void)
{
	struct rtm_error err = { "" };
	struct rtm_result *r, *back;
	char path[PATH_MAX + 64], *text;
	struct rtm_hist *t1, *t2;
	struct dirent *de;
	size_t len = 0;
	int leftovers = 0, i;
	DIR *d;

	snprintf(tmpdir, sizeof(tmpdir), "%s/rtm-test-result.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 99;
	}

	/* round trip */
	r = make_result();
	/* RTM_WRITE_GOLDEN=DIR regenerates tests/data/results/golden-v1 */
	if (getenv("RTM_WRITE_GOLDEN"))
		return rtm_result_save(r, getenv("RTM_WRITE_GOLDEN"), &err) ? 99 : 0;
	snprintf(path, sizeof(path), "%s/run1/nested", tmpdir);
	ok(rtm_result_save(r, path, &err) == 0, "save into a new nested folder (%s)", err.msg);
	back = rtm_result_load(path, &err);
	ok(back != NULL, "load the folder back (%s)", err.msg);
	if (back) {
		is_str(back->command, "cyclic", "command kept");
		is_str(back->created, r->created, "created kept");
		is_str(back->tool, r->tool, "tool kept");
		is_u64(back->duration_ns, r->duration_ns, "duration kept");
		is_int(back->ncpus, 2, "two CPUs");
		for (i = 0; i < back->ncpus && i < 2; i++)
			ok(same_cpu(&r->cpus[i], &back->cpus[i]), "cpu %d histograms, time series "
			   "and overruns identical", i);
		ok(json_equal(back->options, r->options), "options identical");
		ok(json_equal(back->events, r->events), "events identical");
		ok(json_equal(back->sections, r->sections), "sections identical");
		ok(json_equal(back->sysinfo, r->sysinfo), "sysinfo identical");
		t1 = rtm_hist_alloc();
		t2 = rtm_hist_alloc();
		rtm_result_total(back, t1, t2);
		is_u64(t1->count, 10000, "total merges both CPUs' raw samples");
		ok(t2->count > t1->count, "corrected total holds the implied samples (%llu > %llu)",
		   (unsigned long long)t2->count, (unsigned long long)t1->count);
		is_u64(t1->max_ns, r->cpus[0].raw->max_ns > r->cpus[1].raw->max_ns ?
		       r->cpus[0].raw->max_ns : r->cpus[1].raw->max_ns, "total max");
		rtm_hist_free(t1);
		rtm_hist_free(t2);
	}
	rtm_result_free(back);

	/* atomic write leaves no temporary file */
	d = opendir(path);
	while (d && (de = readdir(d)) != NULL)
		if (strstr(de->d_name, ".tmp"))
			leftovers++;
	if (d)
		closedir(d);
	is_int(leftovers, 0, "no temporary file left after save");

	/* saving over an existing result replaces it */
	r->interrupted = true;
	ok(rtm_result_save(r, path, &err) == 0, "save again over the old file");
	back = rtm_result_load(path, &err);
	ok(back && back->interrupted, "the new content is read back");
	rtm_result_free(back);

	/* the result.json path works as well as the folder */
	snprintf(path, sizeof(path), "%s/run1/nested/result.json", tmpdir);
	back = rtm_result_load(path, &err);
	ok(back != NULL, "load by file path");
	rtm_result_free(back);

	/* truncated copies of a valid file */
	text = slurp(path, &len);
	if (!text) {
		diag("cannot read %s back", path);
		return 99;
	}
	for (i = 1; i <= 3; i++) {
		char name[32];

		snprintf(name, sizeof(name), "truncated%d.json", i);
		write_file(name, text, len * (size_t)i / 4);
		snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
		back = rtm_result_load(path, &err);
		ok(!back && one_line(err.msg) && strstr(err.msg, "truncated or corrupt"),
		   "file cut at %d/4 rejected: %s", i, err.msg);
		rtm_result_free(back);
	}
	free(text);

	test_bad("empty.json", "", "not valid JSON");
	test_bad("garbage.json", "\x7f" "ELF\x02\x01", "not valid JSON");
	test_bad("array.json", "[1, 2]", "not a JSON object");
	test_bad("noschema.json", "{\"cpus\": []}", "no \"schema\"");
	test_bad("schema2.json", "{\"schema\": \"rtmeasure-result/2\"}", "has schema");
	test_bad("noduration.json", "{\"schema\": \"rtmeasure-result/1\", \"tool\": \"x\", "
		 "\"command\": \"c\", \"created\": \"t\", \"cpus\": []}", "duration_ns");
	test_bad("nocpus.json", "{\"schema\": \"rtmeasure-result/1\", \"tool\": \"x\", "
		 "\"command\": \"c\", \"created\": \"t\", \"duration_ns\": 1}", "cpus");
	test_bad("negdur.json", "{\"schema\": \"rtmeasure-result/1\", \"tool\": \"x\", "
		 "\"command\": \"c\", \"created\": \"t\", \"duration_ns\": -1, \"cpus\": []}",
		 "non-negative");
	test_bad("cpuobj.json", "{\"schema\": \"rtmeasure-result/1\", \"tool\": \"x\", "
		 "\"command\": \"c\", \"created\": \"t\", \"duration_ns\": 1, \"cpus\": [3]}",
		 "cpus[0]");
	test_bad("nohist.json", "{\"schema\": \"rtmeasure-result/1\", \"tool\": \"x\", "
		 "\"command\": \"c\", \"created\": \"t\", \"duration_ns\": 1, "
		 "\"cpus\": [{\"cpu\": 0, \"overruns\": 0}]}", "hist");
	test_bad("badhist.json", "{\"schema\": \"rtmeasure-result/1\", \"tool\": \"x\", "
		 "\"command\": \"c\", \"created\": \"t\", \"duration_ns\": 1, "
		 "\"cpus\": [{\"cpu\": 0, \"overruns\": 0, \"hist\": {\"count\": 5}}]}", "hist");
	test_bad("dupkey.json", "{\"schema\": \"rtmeasure-result/1\", "
		 "\"schema\": \"rtmeasure-result/1\"}", "not valid JSON");
	test_bad("badoptions.json", "{\"schema\": \"rtmeasure-result/1\", \"tool\": \"x\", "
		 "\"command\": \"c\", \"created\": \"t\", \"duration_ns\": 1, \"options\": 3, "
		 "\"cpus\": []}", "options");
	snprintf(path, sizeof(path), "%s/does-not-exist", tmpdir);
	back = rtm_result_load(path, &err);
	ok(!back && one_line(err.msg) && strstr(err.msg, "cannot read"),
	   "missing folder rejected: %s", err.msg);

	/* a result recorded by an earlier build still loads (schema stability) */
	{
		char golden[PATH_MAX];
		const char *data = getenv("RTM_TESTDATA");

		snprintf(golden, sizeof(golden), "%s/results/golden-v1",
			 data ? data : "tests/data");
		err.msg[0] = '\0';
		back = rtm_result_load(golden, &err);
		ok(back != NULL, "recorded result.json (schema 1) loads (%s)", err.msg);
		if (back) {
			is_int(back->ncpus, 2, "recorded result: 2 CPUs");
			is_u64(back->cpus[0].raw->count, 5000, "recorded result: cpu0 count");
			is_u64(back->cpus[1].overruns, 3, "recorded result: cpu1 overruns");
		}
		rtm_result_free(back);
	}

	rtm_result_free(r);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmpdir);
	if (system(path) != 0)
		diag("could not remove %s", tmpdir);
	return tap_done();
}
