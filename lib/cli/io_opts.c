// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * io_opts.c - the storage deadline probe's options for `rtmeasure io` and
 * `monitor --io` (io_opts.h): one parser and one set of checks, so the two
 * commands take the same values and refuse the same things.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "box/rt.h"
#include "cli/io_opts.h"
#include "core/units.h"

void rtm_io_cli_init(struct rtm_io_cli *o, const char *const *names)
{
	memset(o, 0, sizeof(*o));
	o->probe.size = 4096;
	o->probe.interval_ns = 10000000ULL;
	o->probe.nseq = 1;
	o->probe.seq[0] = RTM_IO_RANDREAD;
	o->probe.sched.policy = RTM_POLICY_FIFO;
	o->probe.sched.priority = 90;
	o->probe.max_misses = RTM_IO_MAX_MISSES;
	o->probe.lock_memory = true;
	o->req.file_bytes = RTM_IO_FILE_BYTES;
	o->names = names;
}

/* A parser's message that names io's option (@io_name) under the command's name; -EINVAL. */
static int own_name(const struct rtm_io_cli *o, enum rtm_io_opt w, const char *io_name,
		    struct rtm_error *err)
{
	size_t n = strlen(io_name);

	if (!strncmp(err->msg, io_name, n) && strcmp(o->names[w], io_name)) {
		struct rtm_error why = *err;

		rtm_error_set(err, "%s%.400s", o->names[w], why.msg + n);
	}
	return -EINVAL;
}

int rtm_io_cli_set(struct rtm_io_cli *o, enum rtm_io_opt w, const char *arg,
		   struct rtm_error *err)
{
	uint64_t v;
	char *end;
	long n;

	switch (w) {
	case RTM_IO_OPT_OP:
		o->probe.nseq = rtm_io_ops_parse(arg, o->probe.seq, err);
		if (o->probe.nseq >= 0)
			return 0;
		return own_name(o, w, "--op", err);
	case RTM_IO_OPT_SIZE:
		if (rtm_io_bytes_parse(arg, o->names[w], &v, err))
			return -EINVAL;
		if (!v || v > (64U << 20))
			return rtm_error_set(err, "give 512 bytes to 64m");
		o->probe.size = (uint32_t)v;
		return 0;
	case RTM_IO_OPT_FILE_SIZE:
		return rtm_io_bytes_parse(arg, o->names[w], &o->req.file_bytes, err);
	case RTM_IO_OPT_INTERVAL:
		return rtm_parse_latency_ns(arg, &o->probe.interval_ns, err);
	case RTM_IO_OPT_DEADLINE:
		return rtm_parse_latency_ns(arg, &o->probe.deadline_ns, err);
	case RTM_IO_OPT_DURATION:
		return rtm_parse_duration_ns(arg, &o->probe.duration_ns, err);
	case RTM_IO_OPT_IOPRIO:
		if (!rtm_ioprio_parse(arg, &o->probe.ioprio, err))
			return 0;
		return own_name(o, w, "--ioprio", err);
	default:
		break;
	}
	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 0)
		return rtm_error_set(err, "'%s' is not a number", arg);
	if (w == RTM_IO_OPT_PRIORITY) {
		o->probe.sched.priority = (int)n;
	} else if (w == RTM_IO_OPT_CPU) {
		o->probe.cpu = (int)n;
		o->cpu_given = true;
	} else {
		o->probe.max_misses = (uint32_t)n;
	}
	return 0;
}

int rtm_io_cli_check(struct rtm_io_cli *o, struct rtm_error *err)
{
	const char *const *nm = o->names;
	struct rtm_error why = { "" };
	cpu_set_t set;
	int i;

	if (!o->probe.interval_ns)
		return rtm_error_set(err, "%s must be above 0 (e.g. %s 10ms)",
				     nm[RTM_IO_OPT_INTERVAL], nm[RTM_IO_OPT_INTERVAL]);
	if (o->probe.size > o->req.file_bytes && !o->req.target)
		return rtm_error_set(err, "%s is larger than %s", nm[RTM_IO_OPT_SIZE],
				     nm[RTM_IO_OPT_FILE_SIZE]);
	for (i = 0; i < o->probe.nseq; i++)
		o->req.writes |= rtm_io_op_writes(o->probe.seq[i]);
	if (o->req.force_device && !o->req.target)
		return rtm_error_set(err, "%s needs %s DEVICE", nm[RTM_IO_OPT_FORCE_DEVICE],
				     nm[RTM_IO_OPT_TARGET]);
	if (o->no_rt) {
		o->probe.sched.policy = RTM_POLICY_OTHER;
		o->probe.sched.priority = 0;
		o->probe.lock_memory = false;
	} else if (rtm_sched_validate(&o->probe.sched, &why)) {
		return rtm_error_set(err, "%s: %.400s", nm[RTM_IO_OPT_PRIORITY], why.msg);
	}
	if (o->cpu_given && o->probe.cpu >= sysconf(_SC_NPROCESSORS_CONF))
		return rtm_error_set(err, "%s %d: this box has CPUs 0-%ld", nm[RTM_IO_OPT_CPU],
				     o->probe.cpu, sysconf(_SC_NPROCESSORS_CONF) - 1);
	if (!o->cpu_given && !sched_getaffinity(0, sizeof(set), &set))
		for (i = CPU_SETSIZE - 1; i >= 0; i--)
			if (CPU_ISSET(i, &set)) {
				o->probe.cpu = i;
				break;
			}
	if (!o->no_rt && rtm_rt_privileges(&o->probe.sched, o->probe.lock_memory, &why))
		return rtm_error_set(err, "%.400s (or give %s)", why.msg, nm[RTM_IO_OPT_NO_RT]);
	return 0;
}
