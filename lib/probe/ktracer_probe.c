// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ktracer_probe.c - the kernel tracer probes' shared part on the probe seam
 * (ktracer_probe.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/fileio.h"
#include "probe/ktracer_probe.h"

int rtm_ktprobe_open(struct rtm_ktprobe *k, const char *tracer, const char *fallback,
		     struct rtm_error *err)
{
	char config[32];
	size_t i;

	k->tracer = tracer;
	k->fallback = fallback;
	k->dir = rtm_trace_find_tracefs(err);
	if (!k->dir)
		return -1;
	if (rtm_ktracer_has(k->dir, tracer))
		return 0;
	for (i = 0; tracer[i] && i < sizeof(config) - 1; i++)
		config[i] = (char)toupper((unsigned char)tracer[i]);
	config[i] = '\0';
	rtm_error_set(err, "this kernel has no %s tracer (CONFIG_%s_TRACER): use --backend %s",
		      tracer, config, fallback);
	return -1;
}

int rtm_ktprobe_cpus(struct rtm_ktprobe *k, const struct rtm_cpulist *given,
		     struct rtm_error *err)
{
	char buf[4096];
	int i, max = 0, ret;

	if (given->n) {
		rtm_cpulist_format(given, buf, sizeof(buf));
	} else {
		ret = rtm_read_small("/sys/devices/system/cpu", "online", buf, sizeof(buf));
		if (ret < 0)
			return rtm_error_setn(err, ret, "cannot read the online CPUs: %s",
					      strerror(-ret));
	}
	ret = rtm_cpulist_parse(buf, &k->cpus, err);
	if (ret)
		return ret;
	for (i = 0; i < k->cpus.n; i++)
		if (k->cpus.cpus[i] > max)
			max = k->cpus.cpus[i];
	k->ncpus = max + 1;
	return 0;
}

int rtm_ktprobe_trace(struct rtm_ktprobe *k, struct rtm_trace_opts *to, struct rtm_error *err)
{
	rtm_cpulist_format(&k->cpus, k->cpulist, sizeof(k->cpulist));
	to->cpus = k->cpulist;		/* tracing_cpumask: the measured CPUs' events only */
	k->trace = rtm_trace_create(to, err);
	return k->trace ? 0 : -1;
}

int rtm_ktprobe_set_tracer(struct rtm_ktprobe *k, struct rtm_error *err)
{
	int ret = rtm_trace_set_tracer(k->trace, k->tracer);

	if (ret == -EBUSY)
		rtm_error_set(err, "the %s tracer is in use in another tracing instance or the "
			      "top level (%s/current_tracer): stop that user first, or use "
			      "--backend %s", k->tracer, k->dir, k->fallback);
	else if (ret == -ENODEV)	/* listed, refused in an instance: no allow_instances */
		rtm_error_set(err, "this kernel runs the %s tracer only in the top level of "
			      "tracefs, which rtmeasure does not take over: use --backend %s",
			      k->tracer, k->fallback);
	else if (ret)
		rtm_error_set(err, "cannot start the %s tracer: %s", k->tracer, strerror(-ret));
	return ret ? -1 : 0;
}

int rtm_ktprobe_trace_on(struct rtm_ktprobe *k, struct rtm_error *err)
{
	if (!rtm_trace_start(k->trace))
		return 0;
	rtm_error_set(err, "cannot turn tracing on in %s", rtm_trace_name(k->trace));
	return -1;
}

void rtm_ktprobe_drain(struct rtm_ktprobe *k)
{
	struct rtm_error err = { "" };
	uint64_t lost = 0;

	if (k->trace && rtm_trace_read(k->trace, k->event, k->acc, &lost, &err) >= 0)
		k->lost += lost;
}

void rtm_ktprobe_end(struct rtm_ktprobe *k, struct rtm_result *r)
{
	rtm_ktclock_stop(&k->clk);
	rtm_trace_stop(k->trace);
	rtm_ktprobe_drain(k);
	/* streaming: what did not fit was refused by the kernel and counted there */
	k->lost += rtm_trace_dropped(k->trace);
	r->duration_ns = rtm_ktclock_end_ns(&k->clk) - k->clk.start_ns;
}

void rtm_ktprobe_close(struct rtm_ktprobe *k)
{
	rtm_trace_destroy(k->trace);
	k->trace = NULL;
}

void rtm_ktprobe_release(struct rtm_ktprobe *k)
{
	rtm_cpulist_release(&k->cpus);
}

void rtm_ktprobe_snapshot(void *p, bool boundary)
{
	struct rtm_ktprobe *k = p;

	if (rtm_ktclock_due(&k->clk, boundary))
		rtm_ktprobe_drain(k);
}

uint64_t rtm_ktprobe_next_tick_ns(const void *p)
{
	return ((const struct rtm_ktprobe *)p)->clk.next_tick_ns;
}

double rtm_ktprobe_elapsed_s(const void *p)
{
	return rtm_ktclock_elapsed_s(&((const struct rtm_ktprobe *)p)->clk);
}

bool rtm_ktprobe_done(const void *p)
{
	return rtm_ktclock_done(&((const struct rtm_ktprobe *)p)->clk);
}

void rtm_ktprobe_stop(void *p)
{
	rtm_ktclock_stop(&((struct rtm_ktprobe *)p)->clk);
}
