// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: scheduling policy parsing and validation, policy names, JSON, RT
 * throttling read from recorded trees, and which CPUs a thread may be pinned
 * to. Nothing here needs privileges.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "box/rt.h"
#include "core/units.h"
#include "../tap.h"

#define KEEP_PRIO 42

struct parse_case {
	const char *in;
	int ok;
	enum rtm_policy policy;
	uint64_t runtime_ns, deadline_ns, period_ns;
	const char *msg_has;	/* for failures: a word the message must contain */
};

static const struct parse_case parses[] = {
	{ "fifo", 1, RTM_POLICY_FIFO, 0, 0, 0, NULL },
	{ "FIFO", 1, RTM_POLICY_FIFO, 0, 0, 0, NULL },
	{ "rr", 1, RTM_POLICY_RR, 0, 0, 0, NULL },
	{ "Rr", 1, RTM_POLICY_RR, 0, 0, 0, NULL },
	{ "other", 1, RTM_POLICY_OTHER, 0, 0, 0, NULL },
	{ "batch", 1, RTM_POLICY_BATCH, 0, 0, 0, NULL },
	{ "IDLE", 1, RTM_POLICY_IDLE, 0, 0, 0, NULL },
	{ "deadline:100us:1ms:1ms", 1, RTM_POLICY_DEADLINE, 100000, 1000000, 1000000, NULL },
	{ "DEADLINE:100US:1MS:1MS", 1, RTM_POLICY_DEADLINE, 100000, 1000000, 1000000, NULL },
	{ "deadline:50:100:1000", 1, RTM_POLICY_DEADLINE, 50000, 100000, 1000000, NULL },
	{ "deadline:1ms:1ms:1ms", 1, RTM_POLICY_DEADLINE, 1000000, 1000000, 1000000, NULL },
	{ "deadline:1.5us:10us:100ms", 1, RTM_POLICY_DEADLINE, 1500, 10000, 100000000, NULL },
	{ "deadline:1024ns:1024ns:1024ns", 1, RTM_POLICY_DEADLINE, 1024, 1024, 1024, NULL },
	{ "", 0, 0, 0, 0, 0, "fifo" },
	{ "fif", 0, 0, 0, 0, 0, "deadline:RUNTIME:DEADLINE:PERIOD" },
	{ "sched_fifo", 0, 0, 0, 0, 0, "fifo" },
	{ " fifo", 0, 0, 0, 0, 0, "fifo" },
	{ "fifo ", 0, 0, 0, 0, 0, "fifo" },
	{ "fifo:", 0, 0, 0, 0, 0, "fifo" },
	{ "deadline", 0, 0, 0, 0, 0, "deadline:100us:1ms:1ms" },
	{ "deadline:", 0, 0, 0, 0, 0, "deadline:100us:1ms:1ms" },
	{ "deadlines:1:2:3", 0, 0, 0, 0, 0, "unknown" },
	{ "deadline:100us", 0, 0, 0, 0, 0, "too few" },
	{ "deadline:100us:1ms", 0, 0, 0, 0, 0, "too few" },
	{ "deadline:100us:1ms:1ms:1ms", 0, 0, 0, 0, 0, "too many" },
	{ "deadline::1ms:1ms", 0, 0, 0, 0, 0, "runtime" },
	{ "deadline:abc:1ms:1ms", 0, 0, 0, 0, 0, "runtime" },
	{ "deadline:100us:1m:1ms", 0, 0, 0, 0, 0, "deadline '1m'" },
	{ "deadline:100us:1ms:-1ms", 0, 0, 0, 0, 0, "period" },
	{ "deadline:2ms:1ms:1ms", 0, 0, 0, 0, 0, "exceeds the deadline" },
	{ "deadline:100us:2ms:1ms", 0, 0, 0, 0, 0, "exceeds the period" },
	{ "deadline:500ns:1ms:1ms", 0, 0, 0, 0, 0, "too short" },
	{ "deadline:0:1ms:1ms", 0, 0, 0, 0, 0, "too short" },
	{ "deadline:100us:1ms:0", 0, 0, 0, 0, 0, "exceeds the period" },
	{ "deadline:2us:1ms:10000000000s", 0, 0, 0, 0, 0, "too long" },
	{ "deadline:100us:1ms:1ms:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 0, 0, 0, 0, 0,
	  "too long" },
};

struct validate_case {
	struct rtm_sched s;
	int ok;
	const char *msg_has;
};

static const struct validate_case validates[] = {
	{ { RTM_POLICY_FIFO, 1, 0, 0, 0 }, 1, NULL },
	{ { RTM_POLICY_FIFO, 99, 0, 0, 0 }, 1, NULL },
	{ { RTM_POLICY_FIFO, 0, 0, 0, 0 }, 0, "1-99" },
	{ { RTM_POLICY_FIFO, 100, 0, 0, 0 }, 0, "SCHED_FIFO priority 100" },
	{ { RTM_POLICY_RR, 50, 0, 0, 0 }, 1, NULL },
	{ { RTM_POLICY_RR, -1, 0, 0, 0 }, 0, "SCHED_RR" },
	{ { RTM_POLICY_OTHER, 0, 0, 0, 0 }, 1, NULL },
	{ { RTM_POLICY_OTHER, -20, 0, 0, 0 }, 1, NULL },
	{ { RTM_POLICY_OTHER, 19, 0, 0, 0 }, 1, NULL },
	{ { RTM_POLICY_OTHER, 20, 0, 0, 0 }, 0, "-20..19" },
	{ { RTM_POLICY_OTHER, 95, 0, 0, 0 }, 0, "nice value 95" },
	{ { RTM_POLICY_BATCH, -21, 0, 0, 0 }, 0, "SCHED_BATCH" },
	{ { RTM_POLICY_BATCH, 5, 0, 0, 0 }, 1, NULL },
	{ { RTM_POLICY_IDLE, 95, 0, 0, 0 }, 1, NULL },
	{ { RTM_POLICY_DEADLINE, 0, 100000, 1000000, 1000000 }, 1, NULL },
	{ { RTM_POLICY_DEADLINE, 95, 100000, 100000, 1000000 }, 1, NULL },
	{ { RTM_POLICY_DEADLINE, 0, 1000, 1000000, 1000000 }, 0, "too short" },
	{ { RTM_POLICY_DEADLINE, 0, 100000, 1000000, 0 }, 0, "period" },
	{ { RTM_POLICY_DEADLINE, 0, 2000000, 1000000, 1000000 }, 0, "deadline" },
	{ { RTM_POLICY_DEADLINE, 0, 100000, UINT64_MAX, UINT64_MAX }, 0, "too long" },
	{ { (enum rtm_policy)42, 1, 0, 0, 0 }, 0, "unknown" },
};

static void test_parse(void)
{
	struct rtm_error err;
	unsigned int i;

	for (i = 0; i < sizeof(parses) / sizeof(parses[0]); i++) {
		const struct parse_case *c = &parses[i];
		struct rtm_sched s = {
			.policy = RTM_POLICY_BATCH, .priority = KEEP_PRIO,
			.dl_runtime_ns = 7, .dl_deadline_ns = 8, .dl_period_ns = 9,
		};
		int ret;

		strcpy(err.msg, "");
		ret = rtm_sched_parse(c->in, &s, &err);
		if (c->ok) {
			ok(ret == 0 && s.policy == c->policy && s.priority == KEEP_PRIO &&
			   s.dl_runtime_ns == c->runtime_ns && s.dl_deadline_ns == c->deadline_ns &&
			   s.dl_period_ns == c->period_ns,
			   "parse '%s' -> %s %" PRIu64 "/%" PRIu64 "/%" PRIu64 " (%s)", c->in,
			   rtm_policy_name(s.policy), s.dl_runtime_ns, s.dl_deadline_ns,
			   s.dl_period_ns, err.msg);
		} else {
			ok(ret == -EINVAL && one_line(err.msg) && strstr(err.msg, c->msg_has) &&
			   s.policy == RTM_POLICY_BATCH && s.priority == KEEP_PRIO &&
			   s.dl_runtime_ns == 7 && s.dl_period_ns == 9,
			   "parse '%.40s' rejected, output untouched: %s", c->in, err.msg);
		}
	}
	ok(rtm_sched_parse(NULL, &(struct rtm_sched){ 0 }, NULL) == -EINVAL,
	   "parse NULL with NULL error rejected");
}

static void test_validate(void)
{
	struct rtm_error err;
	unsigned int i;

	for (i = 0; i < sizeof(validates) / sizeof(validates[0]); i++) {
		const struct validate_case *c = &validates[i];
		int ret;

		strcpy(err.msg, "");
		ret = rtm_sched_validate(&c->s, &err);
		if (c->ok)
			ok(ret == 0, "validate %s %d ok (%s)", rtm_policy_name(c->s.policy),
			   c->s.priority, err.msg);
		else
			ok(ret == -EINVAL && one_line(err.msg) && strstr(err.msg, c->msg_has),
			   "validate %s %d rejected: %s", rtm_policy_name(c->s.policy),
			   c->s.priority, err.msg);
	}
	/* every good parse result validates with a fitting priority */
	for (i = 0; i < sizeof(parses) / sizeof(parses[0]); i++) {
		struct rtm_sched s = { .priority = 0 };

		if (!parses[i].ok)
			continue;
		rtm_sched_parse(parses[i].in, &s, NULL);
		s.priority = (s.policy == RTM_POLICY_FIFO || s.policy == RTM_POLICY_RR) ? 80 : 0;
		strcpy(err.msg, "");
		ok(rtm_sched_validate(&s, &err) == 0, "parsed '%s' validates (%s)", parses[i].in,
		   err.msg);
	}
}

static void test_names(void)
{
	static const struct {
		enum rtm_policy p;
		const char *name;
	} names[] = {
		{ RTM_POLICY_OTHER, "other" }, { RTM_POLICY_FIFO, "fifo" }, { RTM_POLICY_RR, "rr" },
		{ RTM_POLICY_DEADLINE, "deadline" }, { RTM_POLICY_BATCH, "batch" },
		{ RTM_POLICY_IDLE, "idle" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct rtm_sched s = { .priority = KEEP_PRIO };

		is_str(rtm_policy_name(names[i].p), names[i].name, names[i].name);
		if (names[i].p != RTM_POLICY_DEADLINE)
			ok(rtm_sched_parse(names[i].name, &s, NULL) == 0 && s.policy == names[i].p,
			   "name '%s' parses back", names[i].name);
	}
	is_str(rtm_policy_name((enum rtm_policy)99), "unknown", "unknown policy has a name");
}

static void check_json(const struct rtm_sched *s, const char *want)
{
	json_t *j = rtm_sched_to_json(s);
	char *got = j ? json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT) : NULL;

	is_str(got, want, want);
	free(got);
	json_decref(j);
}

static void test_json(void)
{
	check_json(&(struct rtm_sched){ .policy = RTM_POLICY_FIFO, .priority = 95 },
		   "{\"policy\":\"fifo\",\"priority\":95}");
	check_json(&(struct rtm_sched){ .policy = RTM_POLICY_RR, .priority = 1 },
		   "{\"policy\":\"rr\",\"priority\":1}");
	check_json(&(struct rtm_sched){ .policy = RTM_POLICY_OTHER, .priority = -5 },
		   "{\"nice\":-5,\"policy\":\"other\"}");
	check_json(&(struct rtm_sched){ .policy = RTM_POLICY_BATCH, .priority = 0 },
		   "{\"nice\":0,\"policy\":\"batch\"}");
	check_json(&(struct rtm_sched){ .policy = RTM_POLICY_IDLE, .priority = 95 },
		   "{\"policy\":\"idle\"}");
	check_json(&(struct rtm_sched){ .policy = RTM_POLICY_DEADLINE, .dl_runtime_ns = 100000,
					.dl_deadline_ns = 1000000, .dl_period_ns = 2000000 },
		   "{\"deadline_ns\":1000000,\"period_ns\":2000000,\"policy\":\"deadline\","
		   "\"runtime_ns\":100000}");
}

static void test_throttling(const char *datadir)
{
	static const char *const trees[] = {
		"sysroot-vm-6.18", "sysroot-stock-6.1", "sysroot-rt-6.1", "sysroot-rt-isolated",
	};
	char root[PATH_MAX];
	int64_t runtime = 0, period = 0;
	unsigned int i;

	for (i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		snprintf(root, sizeof(root), "%s/%s", datadir, trees[i]);
		runtime = period = 0;
		is_int(rtm_rt_throttling(root, &runtime, &period), 0, trees[i]);
		is_int(runtime, 950000, "recorded sched_rt_runtime_us");
		is_int(period, 1000000, "recorded sched_rt_period_us");
	}
	snprintf(root, sizeof(root), "%s/no-such-tree", datadir);
	is_int(rtm_rt_throttling(root, &runtime, &period), -ENOENT, "missing tree: -ENOENT");
}

/*
 * rtm_cpus_pinnable asks the kernel: every CPU of the caller's own affinity is
 * pinnable, a CPU number that does not exist is not, the order of @online is
 * kept, and the caller's affinity is the same afterwards.
 */
static void test_pinnable(void)
{
	struct rtm_cpulist online = { 0, NULL }, got = { 0, NULL };
	struct rtm_error err = { "" };
	cpu_set_t before, after;
	int i, mine = 0, all_in = 1, ordered = 1;

	CPU_ZERO(&before);
	CPU_ZERO(&after);
	ok(sched_getaffinity(0, sizeof(before), &before) == 0, "own affinity read");
	online.cpus = calloc(CPU_SETSIZE + 1, sizeof(int));
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &before))
			online.cpus[online.n++] = i;
	mine = online.n;
	online.cpus[online.n++] = RTM_MAX_CPUS - 1;	/* no such CPU here */
	is_int(rtm_cpus_pinnable(&online, &got, &err), 0, "pinnable: asked");
	ok(got.n >= mine && got.n < online.n, "every CPU of the own mask, not the missing one "
	   "(%d of %d)", got.n, online.n);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &before) && !rtm_cpulist_has(&got, i))
			all_in = 0;
	ok(all_in, "the own mask is a subset of the pinnable CPUs");
	ok(!rtm_cpulist_has(&got, RTM_MAX_CPUS - 1), "CPU %d (not present) left out",
	   RTM_MAX_CPUS - 1);
	for (i = 1; i < got.n; i++)
		if (got.cpus[i] <= got.cpus[i - 1])
			ordered = 0;
	ok(ordered, "ascending as given");
	ok(sched_getaffinity(0, sizeof(after), &after) == 0 && CPU_EQUAL(&before, &after),
	   "the caller's affinity is untouched");
	rtm_cpulist_release(&got);
	online.n = 0;
	is_int(rtm_cpus_pinnable(&online, &got, &err), 0, "empty list: asked");
	is_int(got.n, 0, "empty list: nothing pinnable");
	rtm_cpulist_release(&got);
	rtm_cpulist_release(&online);
}

int main(void)
{
	const char *datadir = getenv("RTM_TESTDATA");

	if (!datadir)
		datadir = "tests/data";
	test_parse();
	test_validate();
	test_names();
	test_json();
	test_throttling(datadir);
	test_pinnable();
	return tap_done();
}
