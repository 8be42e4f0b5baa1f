// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: who is charged for interrupt time (cpuacct.h). The /proc task
 * parsers and this process's threads; the accounting mode and its statements
 * from recorded sysroots; a hand-made event sequence with known answers
 * (windows, the first switch, handlers inside and outside a task's window,
 * idle, a CPU that never switched, a softirq across a switch); and a window
 * recorded on this VM (tests/data/cpuacct-vm-6.18) whose figures were worked
 * out by hand from its event listing.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "irq/charged.h"
#include "../tap.h"

static const char *data(void)
{
	return getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
}

static void parsers(void)
{
	struct rtm_task_stat t;

	memset(&t, 0, sizeof(t));
	ok(rtm_task_parse_stat("4242 (a) (b c) R 1 4242 4242 0 -1 4194304 100 0 0 0 "
			       "1234 56 0 0 -51 0 1 0 500 1000 200 18446744073709551615 1 1 "
			       "0 0 0 0 0 0 0 0 0 0 0 1 50 1 0 0 0\n", &t) == 0,
	   "stat with blanks and ')' in the command parses");
	is_str(t.comm, "a) (b c", "comm is everything between the first '(' and last ')'");
	ok(t.tid == 4242 && t.state == 'R', "tid and state");
	is_u64(t.utime_ticks, 1234, "utime (field 14)");
	is_u64(t.stime_ticks, 56, "stime (field 15)");
	ok(t.cpu == 1 && t.rt_priority == 50 && t.kpolicy == 1,
	   "processor, rt_priority, policy (fields 39-41): CPU 1, FIFO 50");
	ok(rtm_task_parse_stat("12 (x) S 1 2", &t) < 0, "a cut stat line is refused");
	ok(rtm_task_parse_stat("12 x S 1 2", &t) < 0, "a stat line without (comm) is refused");
	ok(rtm_task_parse_schedstat("815000000 12000 37\n", &t) == 0 && t.has_schedstat &&
	   t.sum_exec_ns == 815000000 && t.run_delay_ns == 12000 && t.timeslices == 37,
	   "schedstat: sum_exec_runtime, run_delay, timeslices");
	ok(rtm_task_parse_schedstat("1 2\n", &t) < 0, "schedstat with two fields is refused");
	ok(rtm_task_parse_schedstat("1 2 3 4\n", &t) < 0, "schedstat with four fields is refused");
}

static int count_thread(int tid, void *arg)
{
	int *seen = arg;	/* [0]: the main thread seen, [1]: threads */

	seen[0] += tid == (int)getpid();
	seen[1]++;
	return 0;
}

static int stop_at_first(int tid, void *arg)
{
	(void)arg;
	return tid;
}

/* The threads of this process, listed and named through /proc/self and /proc/PID. */
static void own_threads(void)
{
	int self[2] = { 0, 0 }, bypid[2] = { 0, 0 };
	char comm[32], tcomm[32];

	ok(rtm_task_each_thread_of("/", 0, count_thread, self) == 0 && self[0] == 1,
	   "this process's threads (pid 0, /proc/self/task) hold its main thread");
	ok(rtm_task_each_thread_of("/", (int)getpid(), count_thread, bypid) == 0 &&
	   bypid[0] == 1 && bypid[1] == self[1], "the same threads through /proc/PID/task");
	ok(rtm_task_each_thread_of("/", 0, stop_at_first, NULL) > 0,
	   "a callback's non-zero value stops the listing and is returned");
	ok(rtm_task_each_thread_of("/", INT_MAX, count_thread, self) < 0,
	   "a process that does not exist: -errno");
	ok(rtm_task_read_comm("/", (int)getpid(), comm, sizeof(comm)) > 0 &&
	   rtm_task_read_thread_comm("/", 0, (int)getpid(), tcomm, sizeof(tcomm)) > 0 &&
	   !strcmp(comm, tcomm), "the main thread's comm is the process's");
}

static bool any_line(char lines[RTM_ACCT_LINES][400], int n, const char *needle)
{
	int i;

	for (i = 0; i < n; i++)
		if (strstr(lines[i], needle))
			return true;
	return false;
}

static void modes(void)
{
	static const struct {
		const char *root;
		const char *irq_time, *cputime, *needle;
		bool threaded;
	} cases[] = {
		/* this VM: 6.18, IRQ_TIME_ACCOUNTING not set, tick-based, KVM steal */
		{ "sysroot-vm-6.18", "off", "tick", "charged to the task it interrupted", false },
		/* Debian 6.1 RT: VIRT_CPU_ACCOUNTING_GEN but no nohz_full: ticks at run time */
		{ "sysroot-rt-6.1", "off", "virt_gen", "PREEMPT_RT: device interrupt", true },
		/* the same with threadirqs and nohz_full=2,3 */
		{ "sysroot-rt-isolated", "off", "virt_gen", "nohz_full CPUs 2-3", true },
		{ "sysroot-stock-6.1", "off", "virt_gen", "No forced IRQ threads", false },
	};
	char root[PATH_MAX], lines[RTM_ACCT_LINES][400], name[PATH_MAX + 64];
	struct rtm_error err = { "" };
	struct rtm_acct_mode m;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rtm_sysinfo *si;
		json_t *j;
		int n;

		snprintf(root, sizeof(root), "%s/%s", data(), cases[i].root);
		si = rtm_sysinfo_collect(root, &err);
		if (!ok(si != NULL, "%s: sysinfo (%s)", cases[i].root, err.msg))
			continue;
		rtm_acct_mode_from_sysinfo(si, &m);
		rtm_sysinfo_free(si);
		j = rtm_acct_mode_to_json(&m);
		snprintf(name, sizeof(name), "%s: IRQ time accounting %s", cases[i].root,
			 cases[i].irq_time);
		is_str(json_string_value(json_object_get(j, "irq_time_accounting")),
		       cases[i].irq_time, name);
		snprintf(name, sizeof(name), "%s: CPU time %s", cases[i].root, cases[i].cputime);
		is_str(json_string_value(json_object_get(j, "cputime")), cases[i].cputime, name);
		ok(m.threaded == cases[i].threaded, "%s: device handlers %sthreaded",
		   cases[i].root, cases[i].threaded ? "" : "not ");
		snprintf(name, sizeof(name), "%s: expect schedstat = ran", cases[i].root);
		is_str(json_string_value(json_object_get(j, "expect")), "schedstat = ran", name);
		n = rtm_acct_mode_lines(&m, lines);
		ok(n >= 3 && any_line(lines, n, cases[i].needle), "%s: says \"%s\"",
		   cases[i].root, cases[i].needle);
		json_decref(j);
	}
	/* on: what a kernel with CONFIG_IRQ_TIME_ACCOUNTING=y gets */
	memset(&m, 0, sizeof(m));
	m.irq_time_config = 1;
	m.irq_time = true;
	m.cputime = RTM_CPUTIME_TICK;
	m.hz = 1000;
	m.user_hz = 100;
	ok(any_line(lines, rtm_acct_mode_lines(&m, lines), "leaves that time out of the "
		    "interrupted task's sum_exec_runtime"), "on: handler time is not the task's");
	ok(any_line(lines, rtm_acct_mode_lines(&m, lines), "Expect schedstat = ran - interrupt"),
	   "on: expect schedstat = ran - interrupt");
	m.irq_time_config = -1;
	m.irq_time = false;
	ok(any_line(lines, rtm_acct_mode_lines(&m, lines), "not known"),
	   "no config: the accounting is not known, and said so");
}

static struct rtm_event ev(uint64_t ts, int cpu, enum rtm_ev_type type, const char *name)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.ts_ns = ts;
	e.cpu = cpu;
	e.type = type;
	e.name = name;
	e.system = "";
	return e;
}

static struct rtm_event sw(uint64_t ts, int cpu, int prev, const char *pc, int next,
			   const char *nc)
{
	struct rtm_event e = ev(ts, cpu, RTM_EV_SCHED_SWITCH, "sched_switch");

	e.sw.prev_pid = prev;
	e.sw.next_pid = next;
	snprintf(e.sw.prev_comm, sizeof(e.sw.prev_comm), "%s", pc);
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "%s", nc);
	return e;
}

static const struct rtm_cpuacct_task *task(const struct rtm_cpuacct *a, int tid)
{
	const struct rtm_cpuacct_task *t;
	int n, i;

	t = rtm_cpuacct_tasks(a, &n);
	for (i = 0; i < n; i++)
		if (t[i].tid == tid)
			return &t[i];
	return NULL;
}

static void synthetic(void)
{
	struct rtm_task_stat f0 = { .tid = 100, .pid = 100, .comm = "spin", .utime_ticks = 10,
				    .stime_ticks = 5, .has_schedstat = true, .sum_exec_ns = 1000,
				    .read_ns = 3000, .read_end_ns = 3000 };
	struct rtm_task_stat l0 = f0;
	struct rtm_task_snap first = { 1, 1, &f0, 3000, 3000 }, last = { 1, 1, &l0, 4500, 4500 };
	struct rtm_cpuacct *a = rtm_cpuacct_alloc(2);
	const struct rtm_cpuacct_task *t;
	const struct rtm_cpuacct_cpu *c;
	struct rtm_cpuacct_row *rows;
	struct rtm_cpulist cpu0 = { 1, (int[]){ 0 } };
	struct rtm_event e[32];
	json_t *j, *jt;
	int n = 0, i, nr, rc;

	l0.stime_ticks = 6;
	l0.sum_exec_ns = 2600;
	l0.read_ns = 4500;
	l0.read_end_ns = 4500;
	rtm_cpuacct_trace_on(a, 1000);
	rtm_cpuacct_window(a, 2000, UINT64_MAX, &first, NULL);
	/* CPU 1, before its first switch: a tick outside the window */
	e[n++] = ev(1100, 1, RTM_EV_VECTOR_ENTRY, "local_timer_entry");
	e[n++] = ev(1150, 1, RTM_EV_VECTOR_EXIT, "local_timer_exit");
	/* first switch: spin ran 1000..1500 (before its window) */
	e[n++] = sw(1500, 1, 100, "spin", 200, "kworker/1:1");
	e[n++] = sw(2500, 1, 200, "kworker/1:1", 100, "spin");	/* kworker: 2000..2500 */
	/* spin runs, but its window begins at 3000: the CPU counts this one, spin not */
	e[n++] = ev(2800, 1, RTM_EV_VECTOR_ENTRY, "local_timer_entry");
	e[n++] = ev(2900, 1, RTM_EV_VECTOR_EXIT, "local_timer_exit");
	e[n++] = ev(3500, 1, RTM_EV_VECTOR_ENTRY, "call_function_single_entry");
	e[n++] = ev(3600, 1, RTM_EV_VECTOR_EXIT, "call_function_single_exit");
	e[n] = ev(3600, 1, RTM_EV_SOFTIRQ_ENTRY, "softirq_entry");
	e[n++].softirq.vec = 3;
	e[n] = ev(3700, 1, RTM_EV_IRQ_ENTRY, "irq_handler_entry");
	e[n].irq.irq = 24;
	strcpy(e[n++].irq.name, "virtio0");
	e[n] = ev(3750, 1, RTM_EV_IRQ_EXIT, "irq_handler_exit");
	e[n++].irq.irq = 24;
	e[n] = ev(4000, 1, RTM_EV_SOFTIRQ_EXIT, "softirq_exit");	/* own: 400 - 50 */
	e[n++].softirq.vec = 3;
	/* CPU 0 never switches: its handler time is not attributed */
	e[n++] = ev(2100, 0, RTM_EV_VECTOR_ENTRY, "local_timer_entry");
	e[n++] = ev(2200, 0, RTM_EV_VECTOR_EXIT, "local_timer_exit");
	for (i = 0, rc = 0; i < n; i++)
		rc |= rtm_cpuacct_event(&e[i], a);
	ok(rc == 0, "events accounted");
	/* the final drain: the last reads are known now */
	rtm_cpuacct_window(a, 2000, 5500, &first, &last);
	n = 0;
	e[n++] = sw(5000, 1, 100, "spin", 0, "swapper/1");	/* spin: 2500..5000 */
	e[n++] = ev(5200, 1, RTM_EV_VECTOR_ENTRY, "local_timer_entry");	/* while idle */
	e[n++] = ev(5300, 1, RTM_EV_VECTOR_EXIT, "local_timer_exit");
	/* a softirq begun while idle, ended in a thread: the thread's, counted as spanning */
	e[n] = ev(5400, 1, RTM_EV_SOFTIRQ_ENTRY, "softirq_entry");
	e[n++].softirq.vec = 1;
	e[n++] = sw(5450, 1, 0, "swapper/1", 300, "ktimers/1");
	e[n] = ev(5480, 1, RTM_EV_SOFTIRQ_EXIT, "softirq_exit");
	e[n++].softirq.vec = 1;
	for (i = 0; i < n; i++)
		rtm_cpuacct_event(&e[i], a);
	rtm_cpuacct_finish(a, 6000);

	t = task(a, 100);
	if (ok(t != NULL, "spin is a task")) {
		is_u64(t->cpu[1].ran_ns, 1500, "spin ran 3000..4500 (window) of 2500..5000");
		is_u64(t->cpu[1].hardirq_ns, 150, "spin: hardirq 100 (vector) + 50 (in softirq)");
		is_u64(t->cpu[1].softirq_ns, 350, "spin: NET_RX 400 less the 50 nested");
		ok(t->cpu[1].hardirqs == 2 && t->cpu[1].softirqs == 1, "spin: 2 hard, 1 soft");
		is_u64(t->cpu[0].ran_ns, 0, "spin: nothing on CPU 0");
		ok(t->win_start_ns == 3000 && t->win_end_ns == 4500, "spin's window: its reads");
	}
	t = task(a, 200);
	ok(t && t->cpu[1].ran_ns == 500 && t->win_start_ns == 2000 && t->win_end_ns == 5500,
	   "kworker (no reads): 2000..2500 of 1500..2500, window = the whole window");
	t = task(a, 300);
	ok(t && t->cpu[1].ran_ns == 50 && t->cpu[1].softirq_ns == 80 && t->spanning == 1,
	   "ktimers/1: ran 5450..5500, the 80 ns softirq across the switch, counted as spanning");
	c = rtm_cpuacct_cpu(a, 1);
	is_u64(c->tasks.ran_ns, 3050, "CPU 1 tasks: kworker 500 + spin 2500 + ktimers 50");
	is_u64(c->tasks.hardirq_ns, 250, "CPU 1 tasks: hardirq 100 + 100 + 50");
	is_u64(c->tasks.softirq_ns, 430, "CPU 1 tasks: softirq 350 + 80");
	is_u64(c->idle.ran_ns, 450, "CPU 1 idle 5000..5450");
	is_u64(c->idle.hardirq_ns, 100, "CPU 1 idle: the tick at 5200");
	is_u64(c->unattributed_ns, 0, "CPU 1: the early tick lies before the window");
	c = rtm_cpuacct_cpu(a, 0);
	ok(!c->known && c->unattributed_ns == 100 && c->tasks.ran_ns == 0,
	   "CPU 0: never switched: 100 ns not attributed, no task time");

	nr = rtm_cpuacct_rows(a, NULL, 100, &rows);
	ok(nr == 3 && rows[0].task->tid == 100 && rows[1].task->tid == 200 &&
	   rows[2].task->tid == 300, "rows: spin, kworker, ktimers (busiest first)");
	if (nr == 3) {
		ok(rows[0].has_charged && rows[0].charged_stat_ns == 10000000,
		   "spin charged (stat): 1 tick of 1/100 s");
		ok(rows[0].has_schedstat && rows[0].charged_sched_ns == 1600,
		   "spin charged (schedstat): 2600 - 1000");
		ok(!rows[1].has_charged && !rows[1].has_schedstat,
		   "kworker: not read: charged unknown");
		ok(rows[2].irq_thread && !rows[0].irq_thread, "ktimers/1 is an IRQ thread");
		j = rtm_cpuacct_to_json(a, rows, nr, NULL, NULL, 100);
		jt = json_array_get(json_object_get(j, "tasks"), 0);
		ok(json_integer_value(json_object_get(jt, "charged_schedstat_ns")) == 1600 &&
		   json_integer_value(json_object_get(jt, "interrupt_ns")) == 500 &&
		   json_integer_value(json_object_get(jt, "ran_ns")) == 1500,
		   "JSON: spin charged 1600, ran 1500, interrupt 500");
		ok(json_is_null(json_object_get(json_array_get(json_object_get(j, "tasks"), 1),
						"charged_stat_ns")), "JSON: unknown is null");
		ok(json_array_size(json_object_get(j, "cpus")) == 2, "JSON: both CPUs");
		json_decref(j);
	}
	rtm_cpuacct_rows_free(rows, nr);
	nr = rtm_cpuacct_rows(a, &cpu0, 100, &rows);
	ok(nr == 1 && rows[0].task->tid == 300,
	   "CPU 0 only: no task ran there; the IRQ thread ktimers/1 is listed wherever it ran");
	rtm_cpuacct_rows_free(rows, nr);
	rtm_cpuacct_free(a);
}

/* tests/data/cpuacct-vm-6.18: the figures worked out by hand in its RECORDED */
static void recorded(void)
{
	unsigned long long on = 0, first_ns = 0, last_ns = 0, off = 0;
	char dir[PATH_MAX], path[PATH_MAX + 32], page[4096];
	struct rtm_error err = { "" };
	struct rtm_task_snap first, last;
	const struct rtm_cpuacct_task *t;
	const struct rtm_cpuacct_cpu *c;
	struct rtm_cpuacct_row *rows = NULL;
	struct rtm_tracedec *d;
	struct rtm_cpuacct *a;
	uint64_t lost = 0;
	int nr = 0, i;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/cpuacct-vm-6.18", data());
	snprintf(path, sizeof(path), "%s/times", dir);
	f = fopen(path, "r");
	if (!ok(f && fscanf(f, "trace_on_ns %llu first_read_ns %llu last_read_ns %llu "
			    "trace_off_ns %llu", &on, &first_ns, &last_ns, &off) == 4,
		"recorded clock readings"))
		return;
	fclose(f);
	snprintf(path, sizeof(path), "%s/first", dir);
	ok(rtm_task_snap_read(path, &first, &err) == 0 && first.n == 1, "first read: 1 task (%s)",
	   err.msg);
	snprintf(path, sizeof(path), "%s/last", dir);
	ok(rtm_task_snap_read(path, &last, &err) == 0 && last.n == 1, "last read: 1 task (%s)",
	   err.msg);
	if (first.n != 1 || last.n != 1)
		return;
	/* a recorded tree's reads were made at the recorded times */
	first.t[0].read_ns = first.t[0].read_end_ns = first.begin_ns = first.end_ns = first_ns;
	last.t[0].read_ns = last.t[0].read_end_ns = last.begin_ns = last.end_ns = last_ns;
	d = rtm_tracedec_alloc(dir, &err);
	if (!ok(d != NULL, "recorded formats load (%s)", err.msg))
		return;
	a = rtm_cpuacct_alloc(2);
	rtm_cpuacct_trace_on(a, on);
	rtm_cpuacct_window(a, first_ns, last_ns, &first, &last);
	snprintf(path, sizeof(path), "%s/cpu1.raw", dir);
	f = fopen(path, "r");
	while (f && fread(page, 1, sizeof(page), f) == sizeof(page))
		rtm_tracedec_page(d, page, 1, rtm_cpuacct_event, a, &lost);
	if (f)
		fclose(f);
	rtm_cpuacct_finish(a, off);
	is_u64(lost, 0, "nothing lost in the recording");

	t = task(a, 32690);
	if (ok(t != NULL, "the spinning sh (32690) is a task")) {
		is_u64(t->cpu[1].ran_ns, 7776858, "sh ran 7776858 ns in the window (3 intervals)");
		is_u64(t->cpu[1].hardirq_ns, 47401, "sh: 4 local timer interrupts, 47401 ns");
		is_u64(t->cpu[1].hardirqs, 4, "sh: 4 hard interrupts");
		is_u64(t->cpu[1].softirq_ns, 23415, "sh: 2 RCU softirqs, 23415 ns");
		is_u64(t->cpu[1].softirqs, 2, "sh: 2 softirqs");
		is_u64(t->cpu[0].ran_ns, 0, "sh: nothing on CPU 0 (not traced)");
	}
	c = rtm_cpuacct_cpu(a, 1);
	ok(c->known, "CPU 1's running task known (the forced switch)");
	is_u64(c->tasks.ran_ns, 24208283, "CPU 1 never idle: tasks ran the whole window");
	is_u64(c->idle.ran_ns, 0, "CPU 1: no idle time");
	nr = rtm_cpuacct_rows(a, NULL, 100, &rows);
	for (i = 0; i < nr && rows[i].task->tid != 32690; i++)
		;
	if (ok(i < nr, "sh is a row")) {
		ok(rows[i].has_schedstat && rows[i].charged_sched_ns == 7755395,
		   "sh charged (schedstat) 7755395 ns");
		ok(rows[i].has_charged && rows[i].charged_stat_ns == 0,
		   "sh charged (utime+stime) 0: 43 ticks both times");
		is_str(rows[i].task->comm, "sh", "its name from the trace");
	}
	rtm_cpuacct_rows_free(rows, nr);
	rtm_cpuacct_free(a);
	rtm_tracedec_free(d);
	rtm_task_snap_release(&first);
	rtm_task_snap_release(&last);
}

int main(void)
{
	parsers();
	own_threads();
	modes();
	synthetic();
	recorded();
	return tap_done();
}
