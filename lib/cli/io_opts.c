// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * io_opts.c - the storage probe's option values (io_opts.h), shared by `io` and `run --io`.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/io_opts.h"
#include "core/units.h"

/* A message from the probe's parsers names `io`'s option ("--op: ..."): @name instead. */
static int renamed(struct rtm_error *err, const char *name, int ret)
{
	char rest[sizeof(err->msg)];
	size_t w;

	if (!err || strncmp(err->msg, "--", 2))
		return ret;
	w = strcspn(err->msg, ": ");
	if (w == strlen(name) && !strncmp(err->msg, name, w))
		return ret;
	snprintf(rest, sizeof(rest), "%s", err->msg + w);
	snprintf(err->msg, sizeof(err->msg), "%s%s", name, rest);
	return ret;
}

int rtm_io_optval_parse(struct rtm_probe_io_opts *p, struct rtm_io_target_req *req,
			enum rtm_io_optval v, const char *name, const char *arg,
			struct rtm_error *err)
{
	uint64_t bytes;
	int n;

	switch (v) {
	case RTM_IO_VAL_OP:
		n = rtm_io_ops_parse(arg, p->seq, err);
		if (n < 0)
			return renamed(err, name, n);
		p->nseq = n;
		return 0;
	case RTM_IO_VAL_SIZE:
		if (rtm_io_bytes_parse(arg, name, &bytes, err))
			return -EINVAL;
		if (!bytes || bytes > (64U << 20))
			return rtm_error_set(err, "give 512 bytes to 64m");
		p->size = (uint32_t)bytes;
		return 0;
	case RTM_IO_VAL_FILE_SIZE:
		return rtm_io_bytes_parse(arg, name, &req->file_bytes, err);
	case RTM_IO_VAL_INTERVAL:
		return rtm_parse_latency_ns(arg, &p->interval_ns, err);
	case RTM_IO_VAL_DEADLINE:
		return rtm_parse_latency_ns(arg, &p->deadline_ns, err);
	case RTM_IO_VAL_IOPRIO:
		return renamed(err, name, rtm_ioprio_parse(arg, &p->ioprio, err));
	}
	return rtm_error_set(err, "unknown storage probe option");
}
