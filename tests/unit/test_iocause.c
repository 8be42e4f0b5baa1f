// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: a cause for every miss of the storage probe (lib/trace/iocause.c).
 * The block events decoded from raw records laid out at the formats recorded on
 * this VM's kernel (tests/data/iotrace-vm-6.18); then synthetic event sequences
 * of chosen times: each miss split into issue late, submit, queued, device,
 * wake-up and return; the tasks that ran instead and the requests of other
 * tasks ahead named; events delivered CPU after CPU; the census and its words.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/iocause.h"
#include "tracefs/tracedec.h"
#include "../tap.h"

#define US	1000ULL
#define DEV	(7U << 20 | 0)		/* loop0 */
#define CPU	1
#define TID	100
#define BE4	(2 << 13 | 4)
#define RT4	(1 << 13 | 4)

static const char *data_dir(void)
{
	return getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
}

/* ---------------------------------------------------------------- decoding */

struct blkrec {
	int id, pid;
	uint64_t sector;
	uint32_t nr, bytes_or_error;
	uint16_t ioprio;
	const char *rwbs, *comm;
};

/* One record of the recorded block_rq_* layout at @p; its length (a multiple of 4). */
static int put_record(unsigned char *p, const struct blkrec *r)
{
	bool complete = r->id == 2107;
	int cmd_off = complete ? 48 : 64, len = (cmd_off + 1 + 3) & ~3;
	uint32_t dev = DEV, loc = 1u << 16 | (uint32_t)cmd_off;
	uint16_t type = (uint16_t)r->id;

	memset(p, 0, (size_t)len + 4);
	p[0] = (unsigned char)((len / 4) | (10 << 5));		/* type_len, a delta of 10 */
	p = p + 4;
	memcpy(p + 0, &type, 2);
	memcpy(p + 4, &r->pid, 4);
	memcpy(p + 8, &dev, 4);
	memcpy(p + 16, &r->sector, 8);
	memcpy(p + 24, &r->nr, 4);
	memcpy(p + 28, &r->bytes_or_error, 4);
	memcpy(p + 32, &r->ioprio, 2);
	memcpy(p + 34, r->rwbs, strlen(r->rwbs));
	if (!complete)
		memcpy(p + 44, r->comm, strlen(r->comm));
	memcpy(p + cmd_off - 4, &loc, 4);
	return len + 4;
}

static struct rtm_event got[8];
static char printed[8][256];
static int ngot;

/* The event kept, and its text through its own print format while its record is there. */
static int keep(const struct rtm_event *ev, void *arg)
{
	if (ngot < 8) {
		if (rtm_tracedec_print(arg, ev, printed[ngot], sizeof(printed[ngot])) < 0)
			snprintf(printed[ngot], sizeof(printed[ngot]), "(not printed)");
		got[ngot++] = *ev;
	}
	return 0;
}

static void test_decode(void)
{
	static const struct blkrec recs[] = {
		{ 2105, 812, 179130, 8, 4096, BE4, "WS", "fio" },
		{ 2104, 0, 179130, 16, 8192, RT4, "RS", "kworker/1:1H" },
		{ 2107, 0, 179130, 16, (uint32_t)-5, RT4, "RS", NULL },
	};
	struct rtm_error err = { "" };
	unsigned char page[4096];
	char dir[4096], text[256];
	struct rtm_tracedec *d;
	uint64_t ts = 1000000, lost = 0, commit;
	int i, off = 16, n;

	snprintf(dir, sizeof(dir), "%s/iotrace-vm-6.18", data_dir());
	d = rtm_tracedec_alloc(dir, &err);
	ok(d != NULL, "the recorded block formats load (%s)", err.msg);
	if (!d)
		return;
	memset(page, 0, sizeof(page));
	for (i = 0; i < 3; i++)
		off += put_record(page + off, &recs[i]);
	commit = (uint64_t)(off - 16);
	memcpy(page, &ts, 8);
	memcpy(page + 8, &commit, 8);
	n = rtm_tracedec_page(d, page, CPU, keep, d, &lost);
	is_int(n, 3, "three block records decoded");
	is_int(got[0].type, RTM_EV_BLOCK_INSERT, "block_rq_insert's type");
	is_int(got[1].type, RTM_EV_BLOCK_ISSUE, "block_rq_issue's type");
	is_int(got[2].type, RTM_EV_BLOCK_COMPLETE, "block_rq_complete's type");
	ok(got[0].blk.dev == DEV && got[0].blk.sector == 179130 && got[0].blk.nr_sector == 8,
	   "insert: dev, sector, nr_sector");
	is_str(got[0].blk.rwbs, "WS", "insert: rwbs");
	is_str(got[0].blk.comm, "fio", "insert: comm");
	is_int(got[0].blk.ioprio, BE4, "insert: ioprio be:4");
	is_int(got[0].pid, 812, "insert: the task in whose context it ran");
	is_str(got[1].blk.comm, "kworker/1:1H", "issue: comm");
	is_int(got[1].blk.nr_sector, 16, "issue: nr_sector");
	is_int(got[2].blk.error, -5, "complete: error -EIO");
	is_str(got[2].blk.comm, "", "complete: no comm");
	is_int(got[2].blk.ioprio, RT4, "complete: ioprio rt:4");
	/* the class's enum names are not in the format: libtraceevent prints its number */
	is_str(printed[0], "7,0 WS 4096 () 179130 + 8 0x2,0,4 [fio]",
	       "libtraceevent prints the insert through its format");
	is_str(printed[2], "7,0 RS () 179130 + 16 0x1,0,4 [-5]", "and the completion");
	rtm_event_format(&got[0], text, sizeof(text));
	ok(strstr(text, "7,0 WS 179130 + 8") && strstr(text, "[fio]"),
	   "the decoded fields in a line (%s)", text);
	rtm_tracedec_free(d);
}

/* ---------------------------------------------------------------- synthetic sequences */

static struct rtm_event sw(uint64_t t, int cpu, int next_pid, int prio, const char *comm)
{
	struct rtm_event e = { .ts_ns = t, .cpu = cpu, .type = RTM_EV_SCHED_SWITCH };

	e.sw.next_pid = next_pid;
	e.sw.next_prio = prio;
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "%s", comm);
	return e;
}

static struct rtm_event wake(uint64_t t, int pid)
{
	struct rtm_event e = { .ts_ns = t, .cpu = 0, .type = RTM_EV_SCHED_WAKEUP };

	e.wakeup.pid = pid;
	e.wakeup.target_cpu = CPU;
	return e;
}

static struct rtm_event blk(enum rtm_ev_type type, uint64_t t, int cpu, int pid, uint64_t sector,
			    const char *rwbs, int ioprio, const char *comm)
{
	struct rtm_event e = { .ts_ns = t, .cpu = cpu, .pid = pid, .type = type };

	e.blk.dev = DEV;
	e.blk.sector = sector;
	e.blk.nr_sector = 8;
	e.blk.ioprio = ioprio;
	snprintf(e.blk.rwbs, sizeof(e.blk.rwbs), "%s", rwbs);
	snprintf(e.blk.comm, sizeof(e.blk.comm), "%s", comm ? comm : "");
	return e;
}

#define INS	RTM_EV_BLOCK_INSERT
#define ISS	RTM_EV_BLOCK_ISSUE
#define CMP	RTM_EV_BLOCK_COMPLETE

static void feed(struct rtm_iocause *c, const struct rtm_event *ev, int n)
{
	for (int i = 0; i < n; i++)
		rtm_iocause_event(&ev[i], c);
}

/*
 * A read planned at P, issued 70 us late (cc1 held the CPU), inserted 5 us later,
 * issued after 395 us in the queue, 2 ms on the device, the probe switched in 50 us
 * after completion (kworker held the CPU), 5 us back. Ahead of it: one fio write in
 * flight when it arrived and one dispatched while it waited; not ahead: a dd read
 * issued after it and a fio write completed before it came.
 */
#define P	(10000 * US)
#define I	(P + 70 * US)
#define C	(I + 2400 * US)
#define D	(C + 55 * US)

static struct rtm_iocause *scenario(int block_cpu, bool reorder)
{
	struct rtm_iocause *c = rtm_iocause_alloc(DEV, CPU, 500 * US, NULL);
	const struct rtm_event sched[] = {
		sw(P - 500 * US, CPU, 0, 120, "swapper/1"),
		sw(P + 10 * US, CPU, 7, 120, "cc1"),
		wake(P + 55 * US, TID),
		sw(P + 60 * US, CPU, TID, 9, "rtm-io"),
		sw(I + 8 * US, CPU, 0, 120, "swapper/1"),
		sw(C + 10 * US, CPU, 9, 120, "kworker/1:1"),
		wake(C + 30 * US, TID),
		sw(C + 50 * US, CPU, TID, 9, "rtm-io"),
		/* another CPU's switches and another device's requests are not the probe's */
		sw(C + 20 * US, 0, 33, 0, "other-cpu"),
	};
	struct rtm_event block[] = {
		blk(INS, P - 900 * US, block_cpu, 50, 4000, "WS", BE4, "fio"),
		blk(ISS, P - 850 * US, block_cpu, 50, 4000, "WS", BE4, "fio"),
		blk(CMP, P - 100 * US, block_cpu, 0, 4000, "WS", BE4, NULL),
		blk(INS, P - 100 * US, block_cpu, 50, 2000, "WS", BE4, "fio"),
		blk(ISS, P - 50 * US, block_cpu, 50, 2000, "WS", BE4, "fio"),
		blk(INS, I + 1 * US, block_cpu, 50, 3000, "WS", BE4, "fio"),
		blk(INS, I + 5 * US, block_cpu, TID, 800, "RS", RT4, "rtm-io"),
		blk(ISS, I + 300 * US, block_cpu, 9, 3000, "WS", BE4, "kworker/1:1H"),
		blk(ISS, I + 400 * US, block_cpu, 9, 800, "RS", RT4, "kworker/1:1H"),
		blk(ISS, I + 450 * US, block_cpu, 60, 5000, "R", BE4, "dd"),
		blk(CMP, I + 1000 * US, block_cpu, 0, 2000, "WS", BE4, NULL),
		blk(CMP, I + 2300 * US, block_cpu, 0, 3000, "WS", BE4, NULL),
		blk(CMP, C, block_cpu, 0, 800, "RS", RT4, NULL),
		blk(CMP, I + 500 * US, block_cpu, 0, 800, "RS", RT4, NULL),
	};

	/* the last: another device's completion of the same sector, not the probe's */
	block[sizeof(block) / sizeof(block[0]) - 1].blk.dev = DEV + 1;
	rtm_iocause_follow(c, TID);
	if (reorder) {	/* a drain: one CPU's events, then the other's */
		feed(c, block, (int)(sizeof(block) / sizeof(block[0])));
		feed(c, sched, (int)(sizeof(sched) / sizeof(sched[0])));
	} else {
		feed(c, sched, (int)(sizeof(sched) / sizeof(sched[0])));
		feed(c, block, (int)(sizeof(block) / sizeof(block[0])));
	}
	rtm_iocause_add(c, "randread", P, I, D);
	return c;
}

static void check_split(const struct rtm_iocause_verdict *v, const char *how)
{
	is_int(v->cause, RTM_IOCAUSE_DEVICE, "the device's 2 ms is the cause");
	is_u64(v->latency_ns, D - P, "latency");
	is_u64(v->part_ns[RTM_IOPART_ISSUE_LATE], 70 * US, "issue late 70 us");
	is_u64(v->part_ns[RTM_IOPART_SUBMIT], 5 * US, "submit 5 us");
	is_u64(v->part_ns[RTM_IOPART_QUEUED], 395 * US, "queued 395 us");
	is_u64(v->part_ns[RTM_IOPART_DEVICE], 2000 * US, "on the device 2 ms");
	is_u64(v->part_ns[RTM_IOPART_WAKEUP], 50 * US, "switched in 50 us after completion");
	is_u64(v->part_ns[RTM_IOPART_RETURN], 5 * US, "return 5 us");
	is_u64(v->woken_ns, 30 * US, "woken 30 us after completion");
	is_str(v->issue_by, "cc1 pid 7 (nice 0)", "what ran while the issue was late");
	is_str(v->wakeup_by, "kworker/1:1 pid 9 (nice 0)", "what ran before the switch-in");
	is_str(v->culprit, "fio pid 50 (WS, be:4)", "the culprit: the requester ahead");
	ok(v->request && v->sector == 800 && !strcmp(v->rwbs, "RS") && v->ioprio == RT4,
	   "%s: the probe's request: sector 800, RS, rt:4", how);
	is_int(v->queued, 1, "one request dispatched while it waited");
	is_int(v->in_flight, 1, "one request in flight when it came");
	is_int(v->nahead, 1, "one requester ahead");
	ok(v->ahead[0].pid == 50 && v->ahead[0].queued == 1 && v->ahead[0].in_flight == 1 &&
	   !strcmp(v->ahead[0].comm, "fio"), "%s: fio pid 50, 1 queued and 1 in flight", how);
}

static void test_split(void)
{
	struct rtm_iocause *c = scenario(CPU, false);
	const struct rtm_iocause_verdict *v;
	size_t n;

	rtm_iocause_advance(c, D);
	rtm_iocause_verdicts(c, &n);
	is_int((int)n, 0, "a miss is not judged before the trace was read past its end");
	rtm_iocause_advance(c, D + 5000 * US);
	v = rtm_iocause_verdicts(c, &n);
	is_int((int)n, 1, "judged once the trace passed it");
	if (n)
		check_split(v, "in order");
	rtm_iocause_free(c);

	/* the block events on CPU 0 delivered before CPU 1's switches: the same verdict */
	c = scenario(0, true);
	rtm_iocause_advance(c, D + 5000 * US);
	v = rtm_iocause_verdicts(c, &n);
	is_int((int)n, 1, "CPU after CPU: judged");
	if (n)
		check_split(v, "CPU after CPU");
	rtm_iocause_free(c);
}

/* The census of that miss in JSON and in words. */
static void test_words(void)
{
	struct rtm_iocause *c = scenario(CPU, false);
	char line[1024];
	json_t *sec, *m;

	rtm_iocause_advance(c, UINT64_MAX);
	sec = rtm_iocause_to_json(c);
	ok(sec != NULL, "sections.io.causes");
	is_int((int)json_integer_value(json_object_get(sec, "misses")), 1, "misses 1");
	is_int((int)json_integer_value(json_object_get(json_object_get(sec, "by_cause"),
	       "device")), 1, "by_cause.device 1");
	is_str(json_string_value(json_object_get(sec, "dev")), "7:0", "dev 7:0");
	is_str(json_string_value(json_object_get(json_array_get(json_object_get(sec, "ahead"), 0),
	       "ioprio")), "be:4", "the requester's class");
	ok(json_is_true(json_object_get(sec, "complete")), "complete");
	rtm_iocause_sentence(sec, line, sizeof(line), 4);
	is_str(line, "1 miss over 500 us: 1 on the device behind fio pid 50 (WS, be:4)",
	       "the census's sentence");
	m = json_array_get(json_object_get(sec, "list"), 0);
	rtm_iocause_miss_sentence(m, P - 1000 * US, line, sizeof(line));
	is_str(line, "randread at 1.00 ms, 2.52 ms: on the device behind fio pid 50 (WS, be:4); "
	       "issued 70.0 us late (cc1 pid 7 (nice 0) ran); queued 395 us; on the device "
	       "2.00 ms; switched in 50.0 us after completion (kworker/1:1 pid 9 (nice 0) ran); "
	       "10.0 us in the system call; ahead of it 2 requests (1 queued, 1 in flight): 2 of "
	       "fio pid 50 (WS, be:4)", "the miss's sentence");
	json_decref(sec);
	rtm_iocause_free(c);

	c = rtm_iocause_alloc(DEV, CPU, 2000 * US, NULL);
	rtm_iocause_advance(c, UINT64_MAX);
	sec = rtm_iocause_to_json(c);
	rtm_iocause_sentence(sec, line, sizeof(line), 4);
	is_str(line, "no miss over 2.00 ms", "no miss");
	json_decref(sec);
	rtm_iocause_free(c);
}

/* Each cause as the largest part, and what is not in the trace. */
static void test_causes(void)
{
	struct rtm_iocause *c = rtm_iocause_alloc(DEV, CPU, 500 * US, NULL);
	const struct rtm_iocause_verdict *v;
	const uint64_t q = 100000 * US;	/* the second scenario's start */
	const struct rtm_event ev[] = {
		/* 1: an RT spinner holds the CPU 1.2 ms past the plan, then a quick read */
		sw(q - 10 * US, CPU, 66, 0, "rtm-inject"),
		sw(q + 1200 * US, CPU, TID, 9, "rtm-io"),
		blk(ISS, q + 1210 * US, CPU, TID, 64, "RS", RT4, "rtm-io"),
		blk(CMP, q + 1300 * US, CPU, 0, 64, "RS", RT4, NULL),
		/* 2: queued 2 ms behind an idle-class writer's requests, directly issued */
		blk(ISS, q + 9990 * US, CPU, 70, 9000, "W", 3 << 13, "backup"),
		blk(INS, q + 10010 * US, CPU, TID, 72, "RS", RT4, "rtm-io"),
		blk(ISS, q + 12010 * US, CPU, 0, 72, "RS", RT4, ""),
		blk(CMP, q + 12050 * US, CPU, 0, 9000, "W", 3 << 13, NULL),
		blk(CMP, q + 12100 * US, CPU, 0, 72, "RS", RT4, NULL),
	};
	size_t n;

	rtm_iocause_follow(c, TID);
	rtm_iocause_begin(c, q - 1000 * US);
	feed(c, ev, (int)(sizeof(ev) / sizeof(ev[0])));
	rtm_iocause_add(c, "randread", q - 2000 * US, q - 2000 * US, q - 1000 * US);
	rtm_iocause_add(c, "randread", q, q + 1205 * US, q + 1310 * US);
	rtm_iocause_add(c, "randread", q + 10000 * US, q + 10005 * US, q + 12110 * US);
	/* 4: a request of its own never came (an fsync with nothing to write) */
	rtm_iocause_add(c, "fsync", q + 20000 * US, q + 20010 * US, q + 20900 * US);
	/* 5: a read's request not in the trace: a read always has one, nothing is claimed */
	rtm_iocause_add(c, "randread", q + 30000 * US, q + 30010 * US, q + 30900 * US);
	rtm_iocause_advance(c, UINT64_MAX);
	v = rtm_iocause_verdicts(c, &n);
	is_int((int)n, 5, "five misses judged");
	if (n != 5)
		goto out;
	is_int(v[0].cause, RTM_IOCAUSE_UNTRACED, "planned before the trace began: untraced");
	is_str(v[0].culprit, "before the trace's window", "said why");
	is_int(v[1].cause, RTM_IOCAUSE_ISSUE_LATE, "an RT task held the CPU: issued late");
	is_str(v[1].culprit, "rtm-inject pid 66 (rt 99)", "the RT task named");
	is_u64(v[1].part_ns[RTM_IOPART_DEVICE], 90 * US, "its request on the device 90 us");
	is_u64(v[1].part_ns[RTM_IOPART_QUEUED], 0, "issued directly: never queued");
	is_int(v[2].cause, RTM_IOCAUSE_QUEUED, "2 ms in the queue: queued");
	is_str(v[2].culprit, "backup pid 70 (W, idle)", "behind an idle-class writer");
	is_int(v[2].in_flight, 1, "its request in flight when the probe's came");
	is_int(v[3].cause, RTM_IOCAUSE_SYSCALL, "no request of its own: the system call");
	is_str(v[3].culprit, "no request of its own", "said so");
	is_int(v[4].cause, RTM_IOCAUSE_UNTRACED, "a read without its request: untraced");
	is_str(v[4].culprit, "its request is not in the trace", "said why");
out:
	rtm_iocause_free(c);

	/* never a request of the probe (another device): untraced, not the system call */
	c = rtm_iocause_alloc(DEV, CPU, 500 * US, NULL);
	rtm_iocause_follow(c, TID);
	rtm_iocause_add(c, "randread", q, q + 10 * US, q + 900 * US);
	rtm_iocause_advance(c, UINT64_MAX);
	v = rtm_iocause_verdicts(c, &n);
	ok(n == 1 && v[0].cause == RTM_IOCAUSE_UNTRACED, "no request of the probe seen: untraced");
	rtm_iocause_free(c);
}

int main(void)
{
	char buf[16];

	test_decode();
	test_split();
	test_words();
	test_causes();
	is_str(rtm_iocause_ioprio_str(0, buf, sizeof(buf)), "none", "class 0: none");
	is_str(rtm_iocause_ioprio_str(-1, buf, sizeof(buf)), "?", "no ioprio field: ?");
	return tap_done();
}
