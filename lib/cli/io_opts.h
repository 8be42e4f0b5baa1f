/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_opts.h - the storage deadline probe's options as `rtmeasure io` and
 * `monitor --io` take them (io's --op is the monitor's --io-op): their values
 * parsed into the probe's and the target's settings, and the checks between
 * them, with the same words under each command's option names.
 */
#ifndef RTM_CLI_IO_OPTS_H
#define RTM_CLI_IO_OPTS_H

#include <stdbool.h>

#include "box/iotarget.h"
#include "core/error.h"
#include "probe/probe_io.h"

/* What an option sets, whatever it is called in the command. */
enum rtm_io_opt {
	RTM_IO_OPT_OP,
	RTM_IO_OPT_SIZE,
	RTM_IO_OPT_FILE_SIZE,
	RTM_IO_OPT_INTERVAL,
	RTM_IO_OPT_DEADLINE,
	RTM_IO_OPT_DURATION,
	RTM_IO_OPT_IOPRIO,
	RTM_IO_OPT_PRIORITY,
	RTM_IO_OPT_CPU,
	RTM_IO_OPT_MAX_MISSES,
	RTM_IO_OPT_TARGET,
	RTM_IO_OPT_FORCE_DEVICE,
	RTM_IO_OPT_NO_RT,
	RTM_IO_OPT_N
};

struct rtm_io_cli {
	struct rtm_probe_io_opts probe;
	struct rtm_io_target_req req;
	bool no_rt, cpu_given;
	const char *const *names;	/* RTM_IO_OPT_N option names of the command */
};

/* io's defaults (randread of 4 KiB every 10 ms at FIFO 90, a 64 MiB file), @names kept. */
void rtm_io_cli_init(struct rtm_io_cli *o, const char *const *names);

/*
 * One option's value (@w from RTM_IO_OPT_OP to RTM_IO_OPT_MAX_MISSES) into @o.
 * 0, or -EINVAL with @err: a message that starts with the option's name when
 * it names it, else what is wrong with @arg.
 */
int rtm_io_cli_set(struct rtm_io_cli *o, enum rtm_io_opt w, const char *arg,
		   struct rtm_error *err);

/*
 * The checks between the options once all are in, and the defaults that hang
 * on them (the writes of the operations, the probe's CPU: the last this process
 * may use, the privileges of real-time scheduling). 0 or -EINVAL with @err.
 */
int rtm_io_cli_check(struct rtm_io_cli *o, struct rtm_error *err);

#endif
