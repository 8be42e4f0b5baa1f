// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_io.c - the storage probe without a device: operations and I/O
 * priorities by name, the accounting of one request (latency from the plan,
 * service from the issue, lateness, misses against the deadline, the bounded
 * miss list, failed requests), its JSON, and the loop itself at SCHED_OTHER
 * on an ordinary file (counts only, no timing).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/jsonutil.h"
#include "probe/probe_io.h"
#include "../tap.h"

#define MS	1000000ULL
#define US	1000ULL

static void test_ops_parse(void)
{
	struct rtm_error err = { "" };
	uint8_t seq[RTM_IO_SEQ_MAX];
	int n;

	n = rtm_io_ops_parse("read,randwrite,fsync", seq, &err);
	is_int(n, 3, "three operations");
	ok(n == 3 && seq[0] == RTM_IO_READ && seq[1] == RTM_IO_RANDWRITE && seq[2] == RTM_IO_FSYNC,
	   "in the order given");
	is_int(rtm_io_ops_parse("RandRead", seq, &err), 1, "names are case-blind");
	is_int(seq[0], RTM_IO_RANDREAD, "randread");
	is_int(rtm_io_ops_parse("read,wrte", seq, &err), -EINVAL, "a misspelt name is refused");
	ok(strstr(err.msg, "'wrte'") && strstr(err.msg, "randwrite") && one_line(err.msg),
	   "the error names the word and the choices: %s", err.msg);
	is_int(rtm_io_ops_parse("read,", seq, &err), -EINVAL, "a trailing comma is refused");
	is_int(rtm_io_ops_parse("", seq, &err), -EINVAL, "an empty list is refused");
	is_int(rtm_io_ops_parse("read,read,read,read,read,read,read,read,read,read,read,read,read,"
				"read,read,read,read", seq, &err), -EINVAL, "17 operations: too many");
	ok(rtm_io_op_writes(RTM_IO_FSYNC) && rtm_io_op_writes(RTM_IO_RANDWRITE) &&
	   !rtm_io_op_writes(RTM_IO_READ) && !rtm_io_op_writes(RTM_IO_RANDREAD),
	   "writes, fsync among them, are told from reads");
}

static void test_ioprio(void)
{
	struct rtm_error err = { "" };
	struct rtm_ioprio p;
	char buf[16];

	ok(!rtm_ioprio_parse("rt:4", &p, &err) && p.klass == RTM_IOPRIO_RT && p.level == 4,
	   "rt:4");
	is_int(rtm_ioprio_value(&p), 1 << 13 | 4, "rt:4 is class 1 << 13 | 4 for ioprio_set");
	ok(!rtm_ioprio_parse("be", &p, &err) && p.klass == RTM_IOPRIO_BE && p.level == 4,
	   "a class alone is level 4 (the kernel's default)");
	is_str(rtm_ioprio_format(&p, buf, sizeof(buf)), "be:4", "formatted back");
	ok(!rtm_ioprio_parse("idle", &p, &err) && p.klass == RTM_IOPRIO_IDLE,
	   "idle");
	is_int(rtm_ioprio_value(&p), 3 << 13, "idle is class 3, no level");
	is_int(rtm_ioprio_parse("rt:8", &p, &err), -EINVAL, "level 8 is refused");
	ok(strstr(err.msg, "0 to 7") != NULL, "and names the range: %s", err.msg);
	is_int(rtm_ioprio_parse("idle:3", &p, &err), -EINVAL, "idle takes no level");
	is_int(rtm_ioprio_parse("fifo:1", &p, &err), -EINVAL, "an unknown class is refused");
	ok(one_line(err.msg) && strstr(err.msg, "rt:N"), "with the forms: %s", err.msg);
}

/*
 * A run of chosen requests against a 2 ms deadline: on time and quick, issued
 * late (the lateness alone makes the miss), slow on the device, issued before
 * its plan, failed.
 */
static void test_rec_accounting(void)
{
	const uint8_t seq[] = { RTM_IO_READ, RTM_IO_WRITE };
	const uint64_t t0 = 1000 * MS;
	struct rtm_io_rec rec;
	uint32_t i;

	ok(!rtm_io_rec_init(&rec, seq, 2, 2 * MS, 3), "a record of read and write");
	ok(rec.ops[RTM_IO_READ].latency && rec.ops[RTM_IO_WRITE].latency &&
	   !rec.ops[RTM_IO_FSYNC].latency && !rec.ops[RTM_IO_RANDREAD].latency,
	   "histograms only for the operations in use");

	rtm_io_rec_add(&rec, RTM_IO_READ, 0, t0, t0 + 10 * US, t0 + 110 * US, 0);
	/* issued 3 ms late, served in 100 us: a miss from the plan (no coordinated omission) */
	rtm_io_rec_add(&rec, RTM_IO_READ, 4096, t0 + 10 * MS, t0 + 13 * MS,
		       t0 + 13 * MS + 100 * US, 0);
	/* on time, 5 ms on the device */
	rtm_io_rec_add(&rec, RTM_IO_WRITE, 8192, t0 + 20 * MS, t0 + 20 * MS, t0 + 25 * MS, 0);
	/* exactly the deadline: not a miss */
	rtm_io_rec_add(&rec, RTM_IO_WRITE, 0, t0 + 30 * MS, t0 + 30 * MS, t0 + 32 * MS, 0);
	/* issued before its plan (a clock read early): on time, lateness 0 */
	rtm_io_rec_add(&rec, RTM_IO_READ, 0, t0 + 40 * MS, t0 + 40 * MS - 5, t0 + 40 * MS + 50 * US, 0);
	rtm_io_rec_add(&rec, RTM_IO_WRITE, 0, t0 + 50 * MS, t0 + 50 * MS, t0 + 51 * MS, -EIO);

	is_u64(rec.ops[RTM_IO_READ].count, 3, "three reads completed");
	is_u64(rec.ops[RTM_IO_WRITE].count, 2, "two writes completed");
	is_u64(rec.ops[RTM_IO_WRITE].errors, 1, "one write failed");
	is_u64(rec.ops[RTM_IO_WRITE].latency->count, 2, "the failed one is in no histogram");
	is_int(rec.first_error, -EIO, "the first error is kept");
	is_u64(rec.misses, 2, "two misses");
	is_u64(rec.ops[RTM_IO_READ].misses, 1, "one read missed");
	is_u64(rec.ops[RTM_IO_WRITE].misses, 1, "one write missed");
	is_u64(rec.ops[RTM_IO_READ].latency->max_ns, 3 * MS + 100 * US,
	       "the late read's latency counts from its plan");
	is_u64(rec.ops[RTM_IO_READ].service->max_ns, 100 * US, "its service from the issue");
	is_u64(rec.ops[RTM_IO_READ].lateness->max_ns, 3 * MS, "its lateness");
	is_u64(rec.ops[RTM_IO_READ].lateness->min_ns, 0, "an issue before the plan is on time");
	is_u64(rec.ops[RTM_IO_READ].latency->min_ns, 50 * US, "and counts from the plan");
	is_int(rec.nmiss, 2, "both misses listed");
	ok(rec.miss[0].op == RTM_IO_READ && rec.miss[0].offset == 4096 &&
	   rec.miss[0].issue_ns - rec.miss[0].planned_ns == 3 * MS,
	   "the first miss: the late read, its offset and times");
	ok(rec.miss[1].op == RTM_IO_WRITE && rec.miss[1].done_ns - rec.miss[1].issue_ns == 5 * MS,
	   "the second: the slow write");

	/* the list keeps the first three; the rest are counted */
	for (i = 0; i < 4; i++)
		rtm_io_rec_add(&rec, RTM_IO_READ, 0, t0 + (60 + i) * MS, t0 + (60 + i) * MS,
			       t0 + (60 + i) * MS + 3 * MS, 0);
	is_u64(rec.misses, 6, "six misses counted");
	is_int(rec.nmiss, 3, "three kept");
	is_u64(rec.miss_dropped, 3, "three dropped from the list");
	is_u64(rec.nmiss + rec.miss_dropped, rec.misses, "kept + dropped = counted");
	rtm_io_rec_release(&rec);
}

static void test_rec_json(void)
{
	const uint8_t seq[] = { RTM_IO_RANDREAD, RTM_IO_FSYNC };
	const uint64_t t0 = 5000 * MS;
	struct rtm_error err = { "" };
	struct rtm_io_rec rec;
	struct rtm_hist *h = rtm_hist_alloc();
	json_t *ops, *list, *m;

	rtm_io_rec_init(&rec, seq, 2, 1 * MS, 10);
	rtm_io_rec_add(&rec, RTM_IO_RANDREAD, 12288, t0 + 7 * MS, t0 + 8 * MS, t0 + 9 * MS, 0);
	rtm_io_rec_add(&rec, RTM_IO_FSYNC, 0, t0 + 17 * MS, t0 + 17 * MS, t0 + 17 * MS + 300 * US,
		       0);
	ops = rtm_io_rec_ops_json(&rec);
	ok(ops && json_object_size(ops) == 2 && json_object_get(ops, "randread") &&
	   json_object_get(ops, "fsync"), "ops: one entry per operation in use");
	ok(json_integer_value(json_object_get(json_object_get(ops, "randread"), "misses")) == 1,
	   "randread: one miss");
	ok(!rtm_hist_from_json(h, json_object_get(json_object_get(ops, "randread"), "latency"),
			       &err) && h->count == 1 && h->max_ns == 2 * MS,
	   "its latency histogram reads back (2 ms)");
	list = rtm_io_rec_misses_json(&rec, t0);
	m = json_array_get(list, 0);
	ok(json_array_size(list) == 1, "one miss listed");
	is_str(json_string_value(json_object_get(m, "op")), "randread", "its op");
	is_u64((uint64_t)json_integer_value(json_object_get(m, "time_ns")), 7 * MS,
	       "its time from the start");
	is_u64((uint64_t)json_integer_value(json_object_get(m, "latency_ns")), 2 * MS, "latency");
	is_u64((uint64_t)json_integer_value(json_object_get(m, "service_ns")), 1 * MS, "service");
	is_u64((uint64_t)json_integer_value(json_object_get(m, "lateness_ns")), 1 * MS, "lateness");
	is_u64((uint64_t)json_integer_value(json_object_get(m, "offset")), 12288, "offset");
	json_decref(ops);
	json_decref(list);
	rtm_hist_free(h);
	rtm_io_rec_release(&rec);
}

/* The loop at SCHED_OTHER on an ordinary file: every planned request issued and counted. */
static void test_probe_loop(void)
{
	char path[] = "test_io.XXXXXX";
	struct rtm_probe_io_opts o = {
		.size = 4096, .align = 4096, .region_bytes = 8 * 4096, .interval_ns = 1 * MS,
		.loops = 20, .sched = { .policy = RTM_POLICY_OTHER },
		.max_misses = 4, .deadline_ns = 1,
	};
	struct rtm_error err = { "" };
	struct rtm_probe_io *p;
	struct rtm_result *r;
	const json_t *io;
	char data[8 * 4096];
	int fd = mkstemp(path), i;

	o.cpu = sched_getcpu();
	memset(data, 'x', sizeof(data));
	ok(fd >= 0 && write(fd, data, sizeof(data)) == (ssize_t)sizeof(data), "a 32 KiB file");
	unlink(path);
	o.fd = fd;
	o.nseq = rtm_io_ops_parse("read,randwrite", o.seq, &err);
	p = rtm_probe_io_start(&o, &err);
	ok(p != NULL, "the probe starts at SCHED_OTHER%s%s", p ? "" : ": ", p ? "" : err.msg);
	if (!p) {
		close(fd);
		return;
	}
	for (i = 0; i < 5000 && !rtm_probe_io_done(p); i++)
		usleep(1000);
	ok(rtm_probe_io_done(p), "and ends after its 20 loops");
	r = rtm_result_alloc("io");
	ok(!rtm_probe_io_finish(p, r, &err), "finish fills the result");
	io = json_object_get(r->sections, "io");
	is_u64((uint64_t)json_integer_value(json_object_get(io, "requests")), 20, "20 requests");
	is_u64((uint64_t)json_integer_value(rtm_json_path(io, "ops.read.count")), 10,
	       "10 reads (every other one)");
	is_u64((uint64_t)json_integer_value(rtm_json_path(io, "ops.randwrite.count")), 10,
	       "10 random writes");
	is_u64((uint64_t)json_integer_value(json_object_get(io, "misses")), 20,
	       "a 1 ns deadline: every request missed");
	is_int((int)json_array_size(json_object_get(io, "miss_list")), 4, "four kept");
	is_u64((uint64_t)json_integer_value(json_object_get(io, "misses_dropped")), 16,
	       "sixteen dropped from the list");
	rtm_result_free(r);
	rtm_probe_io_free(p);
	close(fd);
}

static void test_probe_refusals(void)
{
	struct rtm_probe_io_opts o = {
		.fd = 0, .size = 1000, .align = 512, .region_bytes = 1 << 20, .interval_ns = MS,
		.nseq = 1, .sched = { .policy = RTM_POLICY_OTHER },
	};
	struct rtm_error err = { "" };

	ok(!rtm_probe_io_start(&o, &err) && strstr(err.msg, "--size 1000") &&
	   strstr(err.msg, "512"), "a size not in whole blocks is refused: %s", err.msg);
	o.size = 4096;
	o.region_bytes = 2048;
	ok(!rtm_probe_io_start(&o, &err) && strstr(err.msg, "smaller than one request"),
	   "a target smaller than a request is refused: %s", err.msg);
}

int main(void)
{
	test_ops_parse();
	test_ioprio();
	test_rec_accounting();
	test_rec_json();
	test_probe_loop();
	test_probe_refusals();
	return tap_done();
}
