// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wakeup_opts.c - the wake-up programs' selection for `rtmeasure wakeup` and
 * `monitor --wakeup` (wakeup_opts.h): one parser, so the two commands take the
 * same values and refuse the same things.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/wakeup_opts.h"
#include "core/task.h"
#include "core/units.h"

void rtm_wakeup_cli_init(struct rtm_wakeup_cli *o, const char *const *names)
{
	memset(o, 0, sizeof(*o));
	o->sel.sel = RTM_WK_SEL_POLICY;
	o->sel.policies = RTM_WAKEUP_RT_POLICIES;
	o->names = names;
}

static int set_policies(struct rtm_wakeup_cli *o, const char *arg, struct rtm_error *err)
{
	const char *name = o->names[RTM_WAKEUP_OPT_POLICY];
	char *copy = strdup(arg), *tok, *save = NULL;
	int p, ret = 0;

	if (!copy)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	o->sel.policies = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		p = rtm_kpolicy_parse(tok, RTM_KPOLICY_LOWER);
		if (p < 0 || p >= 32)
			ret = rtm_error_set(err, "%s: unknown policy '%s' (fifo, rr, deadline, "
					    "other, batch, idle)", name, tok);
		else
			o->sel.policies |= 1u << p;
	}
	free(copy);
	if (!ret && !o->sel.policies)
		ret = rtm_error_set(err, "%s: give at least one policy (e.g. fifo,rr)", name);
	return ret;
}

static int set_pid(struct rtm_wakeup_cli *o, const char *arg, struct rtm_error *err)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > 0x3fffffff)
		return rtm_error_set(err, "%s '%s': give a whole number from 1 to %d",
				     o->names[RTM_WAKEUP_OPT_PID], arg, 0x3fffffff);
	o->sel.pid = (int)n;
	return 0;
}

int rtm_wakeup_cli_set(struct rtm_wakeup_cli *o, enum rtm_wakeup_opt w, const char *arg,
		       struct rtm_error *err)
{
	const char *const *nm = o->names;
	struct rtm_error why = { "" };

	if (w == RTM_WAKEUP_OPT_ABOVE) {
		if (rtm_parse_latency_ns(arg, &o->sel.above_ns, &why))
			return rtm_error_set(err, "%s: %.400s", nm[w], why.msg);
		return 0;
	}
	if (o->sel_given)
		return rtm_error_set(err, "%s, %s and %s select the tasks in different ways: give "
				     "one of them", nm[RTM_WAKEUP_OPT_PID], nm[RTM_WAKEUP_OPT_COMM],
				     nm[RTM_WAKEUP_OPT_POLICY]);
	o->sel_given = true;
	switch (w) {
	case RTM_WAKEUP_OPT_PID:
		o->sel.sel = RTM_WK_SEL_PID;
		return set_pid(o, arg, err);
	case RTM_WAKEUP_OPT_COMM:
		o->sel.sel = RTM_WK_SEL_COMM;
		if (!arg[0] || strlen(arg) >= RTM_WK_COMM_LEN)
			return rtm_error_set(err, "%s '%s': a task's name has 1 to %d characters "
					     "(the kernel cuts longer ones; see /proc/TID/comm)",
					     nm[w], arg, RTM_WK_COMM_LEN - 1);
		memset(o->sel.comm, 0, sizeof(o->sel.comm));
		memcpy(o->sel.comm, arg, strlen(arg));
		return 0;
	default:
		o->sel.sel = RTM_WK_SEL_POLICY;
		return set_policies(o, arg, err);
	}
}
