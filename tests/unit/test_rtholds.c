// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: real-time tasks holding a CPU, from sched_switch sequences whose
 * answers are known by construction (each case says what the CPU ran and
 * when): a FIFO spinner preempted every millisecond by rtmeasure's probe, a
 * SCHED_OTHER hog, the bound's edge, intervals still open at the end or begun
 * before the trace, a migration, priority changes, lost events, the policy read
 * from a /proc tree while the task holds the CPU, and the JSON, text and check
 * of the result section; then raw pages recorded on this VM (a spinner preempted
 * by a FIFO 95 thread every millisecond), decoded through libtraceevent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "result/result.h"
#include "trace/rtholds.h"
#include "present/rtholds_print.h"
#include "tracefs/tracedec.h"
#include "../fakeproc.h"
#include "../tap.h"

#define MS(x) ((uint64_t)(x) * 1000000ULL)
#define US(x) ((uint64_t)(x) * 1000ULL)
#define BOUND MS(100)
#define PROBE 500		/* the probe thread of CPU 1 (FIFO 95: kernel prio 4) */

static void sw(struct rtm_rtholds *h, int cpu, uint64_t t, const char *pc, int pp, int ppr,
	       const char *nc, int np, int npr)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.ts_ns = t;
	e.cpu = cpu;
	e.type = RTM_EV_SCHED_SWITCH;
	e.system = "sched";
	e.name = "sched_switch";
	snprintf(e.sw.prev_comm, sizeof(e.sw.prev_comm), "%s", pc);
	e.sw.prev_pid = pp;
	e.sw.prev_prio = ppr;
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "%s", nc);
	e.sw.next_pid = np;
	e.sw.next_prio = npr;
	if (rtm_rtholds_event(&e, h))
		printf("# event failed\n");
}

/* spin (FIFO 90) on CPU 1 from 1 ms to 2.311 s, the probe preempting it every ms. */
static void spinner(struct rtm_rtholds *h)
{
	uint64_t t;

	sw(h, 1, MS(1), "swapper/1", 0, 120, "spin", 4321, 9);
	for (t = MS(2); t < MS(2311); t += MS(1)) {
		sw(h, 1, t, "spin", 4321, 9, "rtm-probe/1", PROBE, 4);
		sw(h, 1, t + US(12), "rtm-probe/1", PROBE, 4, "spin", 4321, 9);
	}
	sw(h, 1, MS(2311), "spin", 4321, 9, "swapper/1", 0, 120);
}

static const struct rtm_rthold_interval *only_interval(struct rtm_rtholds *h, const char *what)
{
	const struct rtm_rthold_interval *iv;
	int n;

	iv = rtm_rtholds_intervals(h, &n, NULL);
	is_int(n, 1, what);
	return n == 1 ? iv : NULL;
}

static void test_probe_excluded(void)
{
	struct rtm_rtholds *h = rtm_rtholds_alloc(2, BOUND, NULL);
	const struct rtm_rthold_interval *iv;
	const struct rtm_rthold_task *t;
	int n;

	rtm_rtholds_exclude(h, PROBE);
	spinner(h);
	iv = only_interval(h, "spinner preempted by the probe: one interval");
	if (iv) {
		is_int(iv->pid, 4321, "its pid");
		is_str(iv->comm, "spin", "its comm");
		is_int(iv->cpu, 1, "its CPU");
		is_u64(iv->start_ns, MS(1), "starts at its switch-in, 1 ms");
		is_u64(iv->end_ns, MS(2311), "ends at its switch-out, 2.311 s");
		ok(iv->start_known && !iv->open, "start known, closed");
		is_int(iv->prio_in, 9, "prio at switch-in");
		is_int(iv->prio_out, 9, "prio at switch-out");
	}
	t = rtm_rtholds_tasks(h, &n);
	is_int(n, 1, "one task");
	if (n == 1) {
		is_int(t->intervals, 1, "task: 1 interval");
		is_u64(t->longest_ns, MS(2310), "task: longest 2.310 s");
		is_int(rtm_task_user_prio(t->prio), 90, "task: RT priority 90");
		is_str(t->policy, "unknown", "task: no /proc: policy unknown");
	}
	rtm_rtholds_free(h);

	/* the same sequence with the probe not excluded: 1 ms pieces, nothing over 100 ms */
	h = rtm_rtholds_alloc(2, BOUND, NULL);
	spinner(h);
	rtm_rtholds_intervals(h, &n, NULL);
	is_int(n, 0, "probe not excluded: the spinner's pieces are 1 ms each");
	rtm_rtholds_free(h);
}

static void test_other_and_bound(void)
{
	struct rtm_rtholds *h = rtm_rtholds_alloc(2, BOUND, NULL);
	const struct rtm_rthold_interval *iv;
	int n;

	/* a SCHED_OTHER hog for 4.5 s: never reported */
	sw(h, 0, MS(500), "swapper/0", 0, 120, "hog", 777, 120);
	sw(h, 0, MS(5000), "hog", 777, 120, "swapper/0", 0, 120);
	/* FIFO 50 for exactly the bound: not longer, not reported */
	sw(h, 0, MS(6000), "swapper/0", 0, 120, "rt", 10, 49);
	sw(h, 0, MS(6100), "rt", 10, 49, "swapper/0", 0, 120);
	/* ... and for the bound + 1 ns: reported */
	sw(h, 0, MS(7000), "swapper/0", 0, 120, "rt", 10, 49);
	sw(h, 0, MS(7100) + 1, "rt", 10, 49, "swapper/0", 0, 120);
	/* a SCHED_OTHER task still running at the end: not reported either */
	sw(h, 0, MS(8000), "swapper/0", 0, 120, "hog", 777, 120);
	rtm_rtholds_end(h, MS(20000));
	iv = rtm_rtholds_intervals(h, &n, NULL);
	is_int(n, 1, "OTHER hogs never reported; only the hold over the bound");
	if (n == 1) {
		is_int(iv->pid, 10, "the FIFO 50 task");
		is_u64(iv->end_ns - iv->start_ns, BOUND + 1, "bound + 1 ns");
	}
	rtm_rtholds_free(h);
}

static void test_open_and_before(void)
{
	struct rtm_rtholds *h = rtm_rtholds_alloc(2, BOUND, NULL);
	const struct rtm_rthold_interval *iv;
	const struct rtm_rthold_task *t;
	char line[256];
	int n;

	rtm_rtholds_begin(h, MS(1000));
	/* CPU 0: "old" was on it before the trace began at 1 s; leaves at 1.5 s */
	sw(h, 0, MS(1500), "old", 99, 19, "swapper/0", 0, 120);
	/* CPU 1: spin2 (FIFO 90) from 2 s, still there when the trace ends at 4 s */
	sw(h, 1, MS(2000), "swapper/1", 0, 120, "spin2", 88, 9);
	rtm_rtholds_line(h, MS(3000), line, sizeof(line));
	is_str(line, "RT tasks holding a CPU > 100 ms: spin2 88 RT 90 (policy unknown) on CPU 1 "
	       "running 1.00 s; old 99 RT 80 (policy unknown) on CPU 0: 1 interval, longest >= 500 ms",
	       "live line: closed and running holds");
	rtm_rtholds_end(h, MS(4000));
	iv = rtm_rtholds_intervals(h, &n, NULL);
	is_int(n, 2, "two intervals");
	if (n == 2) {
		is_u64(iv[0].start_ns, MS(1000), "before the trace: counted from its start");
		ok(!iv[0].start_known && !iv[0].open, "before the trace: start unknown, closed");
		ok(iv[0].prio_in == RTM_RTHOLD_PRIO_NONE && iv[0].prio_out == 19,
		   "before the trace: no prio at switch-in, 19 at switch-out");
		is_u64(iv[1].end_ns - iv[1].start_ns, MS(2000), "open at the end: 2 s so far");
		ok(iv[1].start_known && iv[1].open, "open at the end: start known, open");
		ok(iv[1].prio_out == RTM_RTHOLD_PRIO_NONE, "open at the end: no switch-out prio");
	}
	t = rtm_rtholds_tasks(h, &n);
	if (n == 2)
		ok(t[1].longest_open && t[1].longest_known && !t[0].longest_known,
		   "tasks carry open / unknown start of their longest");
	/* after the end every CPU is unknown again: a new begin counts from there */
	rtm_rtholds_begin(h, MS(10000));
	sw(h, 1, MS(10300), "spin2", 88, 9, "swapper/1", 0, 120);
	iv = rtm_rtholds_intervals(h, &n, NULL);
	is_int(n, 3, "after a new begin, the holder counts from it");
	if (n == 3)
		is_u64(iv[2].end_ns - iv[2].start_ns, MS(300), "300 ms since the new begin");
	rtm_rtholds_free(h);
}

static void test_migration_prio_lost(void)
{
	struct rtm_rtholds *h = rtm_rtholds_alloc(2, BOUND, NULL);
	const struct rtm_rthold_interval *iv;
	int n;

	rtm_rtholds_exclude(h, PROBE);
	/* mig (FIFO 70) 80 ms on CPU 0, then 170 ms on CPU 1: only CPU 1's counts */
	sw(h, 0, 0, "swapper/0", 0, 120, "mig", 300, 29);
	sw(h, 0, MS(80), "mig", 300, 29, "swapper/0", 0, 120);
	sw(h, 1, 0, "swapper/1", 0, 120, "idle-ish", 301, 120);
	sw(h, 1, MS(80), "idle-ish", 301, 120, "mig", 300, 29);
	sw(h, 1, MS(250), "mig", 300, 29, "swapper/1", 0, 120);
	iv = rtm_rtholds_intervals(h, &n, NULL);
	is_int(n, 1, "migration: one interval, on the second CPU");
	if (n == 1) {
		is_int(iv->cpu, 1, "migration: CPU 1");
		is_u64(iv->end_ns - iv->start_ns, MS(170), "migration: 170 ms on CPU 1");
	}
	rtm_rtholds_free(h);

	h = rtm_rtholds_alloc(2, BOUND, NULL);
	rtm_rtholds_exclude(h, PROBE);
	/* OTHER at switch-in, made FIFO 70 while running: RT at switch-out */
	sw(h, 0, 0, "swapper/0", 0, 120, "up", 400, 120);
	sw(h, 0, MS(300), "up", 400, 29, "swapper/0", 0, 120);
	/* FIFO 90 at switch-in, demoted to OTHER while running (as guard --action demote) */
	sw(h, 0, MS(400), "swapper/0", 0, 120, "down", 401, 9);
	sw(h, 0, MS(600), "down", 401, 120, "swapper/0", 0, 120);
	/* preempted by the probe, which then hands the CPU to another task: ends at 900 ms */
	sw(h, 1, MS(700), "swapper/1", 0, 120, "x", 402, 39);
	sw(h, 1, MS(900), "x", 402, 39, "rtm-probe/1", PROBE, 4);
	sw(h, 1, MS(900) + US(20), "rtm-probe/1", PROBE, 4, "y", 403, 120);
	iv = rtm_rtholds_intervals(h, &n, NULL);
	is_int(n, 3, "prio changes: three intervals");
	if (n == 3) {
		ok(iv[0].pid == 400 && iv[0].prio_in == 120 && iv[0].prio_out == 29,
		   "made RT while running: counted, prio 120 in, 29 out");
		ok(iv[1].pid == 401 && iv[1].prio_in == 9 && iv[1].prio_out == 120,
		   "demoted while running: counted, prio 9 in, 120 out");
		ok(iv[2].pid == 402 && iv[2].end_ns == MS(900),
		   "ends when it left for the probe, not when the probe left");
	}
	rtm_rtholds_free(h);

	h = rtm_rtholds_alloc(1, BOUND, NULL);
	rtm_rtholds_exclude(h, PROBE);
	/* a's switch-out was lost: the next switch names b as prev */
	sw(h, 0, 0, "swapper/0", 0, 120, "a", 10, 9);
	sw(h, 0, MS(500), "b", 11, 120, "swapper/0", 0, 120);
	sw(h, 0, MS(600), "swapper/0", 0, 120, "c", 12, 9);
	sw(h, 0, MS(800), "c", 12, 9, "swapper/0", 0, 120);
	/* the switch to d was lost (as this VM's kernel never records its agent's switch-outs):
	 * d is seen first leaving for the probe at 1 s, and holds until 1.3 s */
	sw(h, 0, MS(900), "swapper/0", 0, 120, "agent", 14, 110);
	sw(h, 0, MS(1000), "d", 15, 9, "rtm-probe/1", PROBE, 4);
	sw(h, 0, MS(1000) + US(10), "rtm-probe/1", PROBE, 4, "d", 15, 9);
	sw(h, 0, MS(1300), "d", 15, 9, "swapper/0", 0, 120);
	iv = rtm_rtholds_intervals(h, &n, NULL);
	is_int(rtm_rtholds_inconsistent(h), 2, "lost events: two switches out of sequence");
	is_int(rtm_rtholds_uncertain(h), 2, "both touch a real-time task: uncertain");
	ok(n == 2 && iv[0].pid == 12 && iv[0].start_known,
	   "lost events: a's end is unknown and not guessed; c counted");
	ok(n == 2 && iv[1].pid == 15 && !iv[1].start_known && iv[1].start_ns == MS(1000) &&
	   iv[1].end_ns == MS(1300), "a task first seen leaving: counted from then, start unknown");
	/* an agent thread's switch-out not recorded, between SCHED_OTHER tasks, 1 ms apart */
	sw(h, 0, MS(1400), "swapper/0", 0, 120, "agent", 14, 110);
	sw(h, 0, MS(1401), "cc1", 16, 120, "swapper/0", 0, 120);
	is_int(rtm_rtholds_inconsistent(h), 3, "a third switch out of sequence");
	is_int(rtm_rtholds_uncertain(h), 2, "between OTHER tasks within the bound: not uncertain");
	/* the same, but 150 ms apart: an RT hold over the bound could hide in the gap */
	sw(h, 0, MS(1500), "swapper/0", 0, 120, "agent", 14, 110);
	sw(h, 0, MS(1650), "cc1", 16, 120, "swapper/0", 0, 120);
	is_int(rtm_rtholds_uncertain(h), 3, "a gap over the bound: uncertain");
	/* the probe seen leaving where the agent ran: nothing RT hidden in 1 ms */
	sw(h, 0, MS(1700), "swapper/0", 0, 120, "agent", 14, 110);
	sw(h, 0, MS(1701), "rtm-probe/1", PROBE, 4, "agent", 14, 110);
	is_int(rtm_rtholds_uncertain(h), 3, "the excluded probe leaving: not uncertain");
	/* CPUs beyond the ones followed, and other events, are ignored */
	sw(h, 3, MS(900), "swapper/3", 0, 120, "far", 13, 9);
	sw(h, 3, MS(1900), "far", 13, 9, "swapper/3", 0, 120);
	rtm_rtholds_intervals(h, &n, NULL);
	is_int(n, 2, "an event of a CPU not followed is ignored");
	rtm_rtholds_free(h);
}

static void test_policy(void)
{
	char root[] = "/tmp/test_rtholds.XXXXXX", path[512];
	const struct rtm_rthold_task *t;
	struct rtm_rtholds *h;
	int n;

	if (!mkdtemp(root)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0755);
	fake_proc_stat(root, 4321, "spin", 1);
	fake_proc_stat(root, 77, "someone-else", 1);	/* the pid of a gone "rr" reused */
	fake_proc_stat(root, 78, "bee", 2);

	h = rtm_rtholds_alloc(2, BOUND, root);
	rtm_rtholds_exclude(h, PROBE);
	spinner(h);
	sw(h, 0, 0, "swapper/0", 0, 120, "rr", 77, 9);
	sw(h, 0, MS(200), "rr", 77, 9, "bee", 78, 89);
	rtm_rtholds_tick(h, MS(350));		/* bee holds CPU 0 for 150 ms by now */
	snprintf(path, sizeof(path), "%s/proc/78/stat", root);
	unlink(path);				/* ... and is gone when it leaves */
	sw(h, 0, MS(500), "bee", 78, 89, "swapper/0", 0, 120);
	t = rtm_rtholds_tasks(h, &n);
	is_int(n, 3, "three tasks");
	if (n == 3) {
		is_str(t[0].policy, "FIFO", "spin: FIFO from /proc at its switch-out");
		is_str(t[1].policy, "unknown", "a reused pid (another comm): unknown");
		is_str(t[2].policy, "RR", "read while it held the CPU: RR, though gone since");
		is_int(rtm_task_user_prio(t[2].prio), 10, "bee: RT priority 10");
	}
	rtm_rtholds_free(h);

	/* without the tick while it held the CPU: gone at its end, unknown */
	fake_proc_stat(root, 78, "bee", 2);
	h = rtm_rtholds_alloc(1, BOUND, root);
	sw(h, 0, 0, "swapper/0", 0, 120, "bee", 78, 89);
	unlink(path);
	sw(h, 0, MS(300), "bee", 78, 89, "swapper/0", 0, 120);
	t = rtm_rtholds_tasks(h, &n);
	ok(n == 1 && !strcmp(t[0].policy, "unknown"), "gone before anyone looked: unknown");
	rtm_rtholds_free(h);

	/* SCHED_OTHER in /proc, FIFO 90 in the trace (demoted first, or boosted) */
	fake_proc_stat(root, 79, "dem", 0);
	h = rtm_rtholds_alloc(1, BOUND, root);
	sw(h, 0, 0, "swapper/0", 0, 120, "dem", 79, 9);
	sw(h, 0, MS(300), "dem", 79, 9, "swapper/0", 0, 120);
	{
		char line[256];

		rtm_rtholds_line(h, MS(400), line, sizeof(line));
		is_str(line, "RT tasks holding a CPU > 100 ms: dem 79 OTHER (RT 90 in the trace) on "
		       "CPU 0: 1 interval, longest 300 ms", "OTHER in /proc, RT in the trace: both said");
	}
	rtm_rtholds_free(h);
	snprintf(path, sizeof(path), "%s/proc/79/stat", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/79", root);
	rmdir(path);

	snprintf(path, sizeof(path), "%s/proc/4321/stat", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/77/stat", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/4321", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/proc/77", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/proc/78", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/proc", root);
	rmdir(path);
	rmdir(root);
}

static char *print_of(const json_t *sec)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	rtm_rtholds_fprint(sec, f);
	fclose(f);
	return text;
}

static void test_json_and_text(void)
{
	struct rtm_rtholds *h = rtm_rtholds_alloc(2, BOUND, NULL);
	struct rtm_error err = { "" };
	json_t *sec, *copy;
	char *text;

	rtm_rtholds_exclude(h, PROBE);
	spinner(h);
	sw(h, 0, MS(100), "swapper/0", 0, 120, "late", 55, 98);
	rtm_rtholds_end(h, MS(3000));
	sec = rtm_rtholds_to_json(h);
	ok(sec && rtm_rtholds_check(sec, "t", &err) == 0, "its own JSON passes the check (%s)",
	   err.msg);
	is_int(json_integer_value(json_object_get(json_array_get(json_object_get(sec, "tasks"), 0),
						  "priority")), 1,
	       "tasks sorted by longest: late (FIFO 1, 2.9 s) first");
	text = print_of(sec);
	is_str(text, "RT tasks holding a CPU > 100 ms (result.json: sections.rt_holds):\n"
	       "  late 55 RT 1 (policy unknown) on CPU 0: 1 interval, longest still running, "
	       ">= 2.90 s\n"
	       "  spin 4321 RT 90 (policy unknown) on CPU 1: 1 interval, longest 2.31 s\n",
	       "summary block");
	free(text);
	{
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		rtm_rtholds_md(sec, f);
		fclose(f);
		is_str(text, "**Real-time tasks holding a CPU over 100 ms:**\n\n"
		       "- late 55 RT 1 (policy unknown) on CPU 0: 1 interval, longest still running, "
		       "\\>= 2.90 s\n"
		       "- spin 4321 RT 90 (policy unknown) on CPU 1: 1 interval, longest 2.31 s\n\n",
		       "report.md list, '>' escaped");
		free(text);
	}

	copy = json_deep_copy(sec);
	json_object_set_new(json_array_get(json_object_get(copy, "intervals"), 0), "end_ns",
			    json_string("soon"));
	ok(rtm_rtholds_check(copy, "result.json", &err) == -EINVAL &&
	   strstr(err.msg, "sections.rt_holds.intervals[0]: \"end_ns\""),
	   "a wrong type is named: %s", err.msg);
	json_decref(copy);
	copy = json_deep_copy(sec);
	json_object_del(json_array_get(json_object_get(copy, "tasks"), 1), "policy");
	ok(rtm_rtholds_check(copy, "result.json", &err) == -EINVAL &&
	   strstr(err.msg, "tasks[1]: \"policy\" is missing"), "a missing key is named: %s",
	   err.msg);
	json_decref(copy);
	{	/* a loaded result.json is checked: a good section loads, a bad one names itself */
		struct rtm_result *r = rtm_result_alloc("run"), *back;
		json_t *root;

		json_object_set(r->sections, "rt_holds", sec);
		root = rtm_result_to_json(r);
		back = rtm_result_from_json(root, "result.json", &err);
		ok(back && json_equal(json_object_get(back->sections, "rt_holds"), sec),
		   "a result with sections.rt_holds loads unchanged (%s)", back ? "" : err.msg);
		rtm_result_free(back);
		json_object_set_new(json_object_get(root, "sections"), "rt_holds",
				    json_pack("{s:s}", "bound_ns", "long"));
		back = rtm_result_from_json(root, "result.json", &err);
		ok(!back && strstr(err.msg, "result.json: sections.rt_holds: \"bound_ns\""),
		   "a bad one is refused on load: %s", err.msg);
		rtm_result_free(back);
		json_decref(root);
		rtm_result_free(r);
	}
	json_decref(sec);
	rtm_rtholds_free(h);

	h = rtm_rtholds_alloc(2, BOUND, NULL);
	rtm_rtholds_end(h, MS(1000));
	sec = rtm_rtholds_to_json(h);
	json_object_set_new(sec, "trace_lost", json_integer(12));
	text = print_of(sec);
	is_str(text, "RT tasks holding a CPU > 100 ms: none\n"
	       "  (the trace is incomplete: 12 events lost, 0 switches out of sequence around "
	       "real-time tasks or long gaps: holds may be missing or cut short)\n",
	       "none, with lost events said");
	free(text);
	text = print_of(NULL);
	ok(!text || !*text, "no section: nothing printed");
	free(text);
	json_decref(sec);
	rtm_rtholds_free(h);
}

/*
 * Raw pages recorded on this VM (tests/data/rtholds-vm-6.18/RECORDED): a FIFO 90 spinner
 * preempted every millisecond by a FIFO 95 thread standing in for the probe. Known from the
 * spinner's own clock reads: it was on CPU 1 from 75929313934497 to 75929613934525.
 */
#define REC_PROBE 29493
#define REC_SPIN 29502
#define REC_START 75929313934497ULL
#define REC_END 75929613934525ULL

static int feed(const struct rtm_event *ev, void *ctx)
{
	return rtm_rtholds_event(ev, ctx);
}

static int decode_recorded(struct rtm_rtholds *h, uint64_t *lost)
{
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
	struct rtm_error err = { "" };
	struct rtm_tracedec *d;
	char dir[512], *page;
	int psize, pages = 0;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/trace-vm-6.18", data);
	d = rtm_tracedec_alloc(dir, &err);
	if (!d) {
		printf("# %s\n", err.msg);
		return -1;
	}
	psize = rtm_tracedec_page_size(d);
	page = malloc((size_t)psize);
	snprintf(dir, sizeof(dir), "%s/rtholds-vm-6.18/cpu1.raw", data);
	f = fopen(dir, "rb");
	while (f && page && fread(page, 1, (size_t)psize, f) == (size_t)psize) {
		if (rtm_tracedec_page(d, page, 1, feed, h, lost) < 0) {
			pages = -1;
			break;
		}
		pages++;
	}
	if (f)
		fclose(f);
	free(page);
	rtm_tracedec_free(d);
	return pages;
}

static void test_recorded(void)
{
	struct rtm_rtholds *h = rtm_rtholds_alloc(2, BOUND, NULL);
	const struct rtm_rthold_interval *iv;
	uint64_t lost = 0;
	int n, i, mine = -1, spin = 0;

	rtm_rtholds_exclude(h, REC_PROBE);
	ok(decode_recorded(h, &lost) > 0, "recorded pages decode");
	rtm_rtholds_end(h, REC_END + MS(1000));
	iv = rtm_rtholds_intervals(h, &n, NULL);
	is_u64(lost + rtm_rtholds_inconsistent(h), 0, "recorded: nothing lost, every switch in order");
	for (i = 0; i < n; i++)
		if (iv[i].pid == REC_SPIN) {
			spin++;
			mine = i;
		}
	is_int(spin, 1, "recorded: one interval of the spinner");
	if (mine >= 0) {
		ok(iv[mine].start_ns <= REC_START && iv[mine].end_ns >= REC_END,
		   "recorded: it holds the spin (%" PRIu64 "..%" PRIu64 ")", iv[mine].start_ns,
		   iv[mine].end_ns);
		ok(REC_START - iv[mine].start_ns < MS(1) && iv[mine].end_ns - REC_END < MS(1),
		   "recorded: within a probe period of the spin at both ends");
		ok(iv[mine].cpu == 1 && iv[mine].start_known && !iv[mine].open &&
		   iv[mine].prio_in == 9, "recorded: CPU 1, closed, FIFO 90 at switch-in");
	}
	rtm_rtholds_free(h);

	h = rtm_rtholds_alloc(2, BOUND, NULL);
	decode_recorded(h, &lost);
	iv = rtm_rtholds_intervals(h, &n, NULL);
	for (i = 0, spin = 0; i < n; i++)
		spin += iv[i].pid == REC_SPIN;
	is_int(spin, 0, "recorded, the probe not excluded: the spinner's pieces are under 100 ms");
	rtm_rtholds_free(h);
}

int main(void)
{
	is_int(rtm_task_user_prio(9), 90, "kernel prio 9 is FIFO 90");
	is_int(rtm_task_user_prio(0), 99, "kernel prio 0 is 99");
	is_int(rtm_task_user_prio(98), 1, "kernel prio 98 is 1");
	is_int(rtm_task_user_prio(-1), 0, "kernel prio -1 (DEADLINE): 0");
	test_probe_excluded();
	test_other_and_bound();
	test_open_and_before();
	test_migration_prio_lost();
	test_policy();
	test_json_and_text();
	test_recorded();
	return tap_done();
}
