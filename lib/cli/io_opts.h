/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_opts.h - the storage probe's option values, parsed the same way for
 * `rtmeasure io` (--op, --size, ...) and `rtmeasure run --io` (--io-op,
 * --io-size, ...): one parser, the option's name in its messages.
 */
#ifndef RTM_CLI_IO_OPTS_H
#define RTM_CLI_IO_OPTS_H

#include "box/iotarget.h"
#include "core/error.h"
#include "probe/probe_io.h"

/* Which value an option gives. */
enum rtm_io_optval {
	RTM_IO_VAL_OP,			/* read,write,randread,randwrite,fsync */
	RTM_IO_VAL_SIZE,		/* bytes a request, 512 to 64m */
	RTM_IO_VAL_FILE_SIZE,		/* a created file's size */
	RTM_IO_VAL_INTERVAL,		/* between planned requests */
	RTM_IO_VAL_DEADLINE,		/* a miss beyond it */
	RTM_IO_VAL_IOPRIO,		/* rt:N, be:N, idle */
};

/*
 * @arg of the option @name ("--size", "--io-size") into @p or @req; 0, or
 * -EINVAL with a one-line message in @err (it starts with @name when it names
 * the option itself).
 */
int rtm_io_optval_parse(struct rtm_probe_io_opts *p, struct rtm_io_target_req *req,
			enum rtm_io_optval v, const char *name, const char *arg,
			struct rtm_error *err);

#endif
