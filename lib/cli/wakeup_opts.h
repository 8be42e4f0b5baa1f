/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wakeup_opts.h - the selection of the wake-up programs as `rtmeasure wakeup`
 * and `monitor --wakeup` take it (wakeup's --pid is the monitor's --wakeup-pid):
 * which tasks are measured and the bound of the waits counted above it, with
 * the same words under each command's option names.
 */
#ifndef RTM_CLI_WAKEUP_OPTS_H
#define RTM_CLI_WAKEUP_OPTS_H

#include <stdbool.h>

#include "core/error.h"
#include "probe/wakeup.h"

/* What an option sets, whatever it is called in the command. */
enum rtm_wakeup_opt {
	RTM_WAKEUP_OPT_PID,
	RTM_WAKEUP_OPT_COMM,
	RTM_WAKEUP_OPT_POLICY,
	RTM_WAKEUP_OPT_ABOVE,
	RTM_WAKEUP_OPT_N
};

struct rtm_wakeup_cli {
	struct rtm_wakeup_opts sel;
	bool sel_given;			/* one of --pid, --comm, --policy was given */
	const char *const *names;	/* RTM_WAKEUP_OPT_N option names of the command */
};

/* wakeup's default, every real-time task (fifo, rr, deadline), no bound; @names kept. */
void rtm_wakeup_cli_init(struct rtm_wakeup_cli *o, const char *const *names);

/*
 * One option's value into @o: 0, or -EINVAL with @err, a message that starts
 * with the option's name (two selections given: both names and the third).
 */
int rtm_wakeup_cli_set(struct rtm_wakeup_cli *o, enum rtm_wakeup_opt w, const char *arg,
		       struct rtm_error *err);

#endif
