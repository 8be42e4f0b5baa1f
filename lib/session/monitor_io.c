// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * monitor_io.c - rtmeasure monitor --io: the storage deadline probe's lines.
 *
 * The probe of `rtmeasure io` (lib/probe/probe_io.c) runs beside the timer
 * probe, its thread on a CPU of its own (a FIFO thread waiting on the disk and
 * then running would delay the timer probe's wake-ups on a shared CPU): the
 * last CPU this process may use unless --io-cpu names one, which the timer
 * probe then leaves out when -a did not choose its CPUs. The target is opened
 * as io opens it (lib/box/iotarget.c: a created file in -o's folder or in
 * --io-target's, removed after; a device only when forced), before the probes
 * start. At each refresh the probe's figures are copied (its histograms under
 * its sequence counter, never stopping it) into a line per operation:
 * requests, p99 and max of the latency from the planned issue time, misses of
 * the deadline, and the latest miss the probe kept, whose own times say
 * whether it was issued late or served late. The lines are drawn by
 * lib/present/dashboard_io.c.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "session/monitor.h"
#include "session/session_priv.h"

/* The last CPU this process may run on that is in neither list, or -1. */
static int free_cpu(const struct rtm_cpulist *a, const struct rtm_cpulist *b)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (i = CPU_SETSIZE - 1; i >= 0; i--)
		if (CPU_ISSET(i, &set) && !rtm_cpulist_has(a, i) && !rtm_cpulist_has(b, i))
			return i;
	return -1;
}

/* The timer probe's CPUs less @cpu. */
static void drop_cpu(struct rtm_cpulist *t, int cpu)
{
	int i, j;

	for (i = j = 0; i < t->n; i++)
		if (t->cpus[i] != cpu)
			t->cpus[j++] = t->cpus[i];
	t->n = j;
}

/* The probe's CPU apart from the other probes'; 0 or the exit status. */
static int io_cpu(struct rtm_mon *mo)
{
	struct rtm_cpulist *t = &mo->m.probe.cpus;
	char a[256];
	int cpu = mo->io_probe.cpu;

	rtm_cpulist_format(t, a, sizeof(a));
	if (rtm_cpulist_has(&mo->noise_cpus, cpu) && mo->io_cpu_given)
		return rtm_session_fail(&mo->m, "monitor: --io-cpu %d is a --noise-cpus CPU: the "
					"probes never share a CPU; give another", cpu);
	if (mo->m.box.cpus_given) {
		if (mo->io_cpu_given && rtm_cpulist_has(t, cpu))
			return rtm_session_fail(&mo->m, "monitor: --io-cpu %d is one of -a %s: the "
						"storage probe's thread would delay the timer "
						"probe there; give them apart", cpu, a);
		if (!mo->io_cpu_given && (cpu = free_cpu(t, &mo->noise_cpus)) < 0)
			return rtm_session_fail(&mo->m, "monitor: --io: no CPU is left beside -a "
						"%s for the storage probe (give --io-cpu, or "
						"fewer CPUs to -a)", a);
	} else {
		if (!mo->io_cpu_given && rtm_cpulist_has(&mo->noise_cpus, cpu) &&
		    (cpu = free_cpu(&mo->noise_cpus, &mo->noise_cpus)) < 0)
			cpu = mo->io_probe.cpu;
		drop_cpu(t, cpu);	/* the timer probe: every other CPU */
		if (!t->n)
			return rtm_session_fail(&mo->m, "monitor: --io takes the last CPU for its "
						"probe: leave one for the timer probe (give -a or "
						"--io-cpu)");
	}
	mo->io_probe.cpu = cpu;
	return 0;
}

int rtm_mon_io_prepare(struct rtm_mon *mo)
{
	int i, k, ret;

	if (!mo->io_on) {
		if (mo->io_opt_given)
			return rtm_session_fail(&mo->m, "monitor: the --io-* options go with --io");
		return 0;
	}
	if (!mo->io_req.target && !mo->m.out.outdir)
		return rtm_session_fail(&mo->m, "monitor: --io needs a place for its file: give "
					"--io-target DIR (a file is created there and removed "
					"after) or -o DIR");
	ret = io_cpu(mo);
	if (ret)
		return ret;
	mo->io_probe.duration_ns = 0;	/* until the monitor stops */
	mo->io_req.dir = mo->m.out.outdir;
	mo->io_req.size = mo->io_probe.size;
	mo->io_target.fd = -1;
	mo->io_target.dirfd = -1;
	/* a line per operation, in --io-op's order */
	for (i = 0; i < mo->io_probe.nseq; i++) {
		for (k = 0; k < mo->nio && mo->io[k].op != mo->io_probe.seq[i]; k++)
			;
		if (k == mo->nio)
			mo->io[mo->nio++].op = mo->io_probe.seq[i];
	}
	if (rtm_io_rec_init(&mo->io_rec, mo->io_probe.seq, mo->io_probe.nseq,
			    mo->io_probe.deadline_ns, 0))
		return rtm_session_fail(&mo->m, "out of memory");
	return 0;
}

/*
 * The target's and the probe's refusals (lib/box/iotarget.c, probe_io.c) name
 * io's options: here they are the monitor's, --target its --io-target and so
 * on, "io:" its "--io:".
 */
static void monitor_names(struct rtm_error *err)
{
	static const char *const words[] = { "target", "size", "file-size", "force-device",
					     "allow-writes", "op" };
	char out[sizeof(err->msg)], *p = err->msg;
	size_t n = 0, w, k;

	if (!strncmp(p, "io: ", 4)) {
		n = (size_t)snprintf(out, sizeof(out), "--io: ");
		p += 4;
	}
	while (*p && n + 8 < sizeof(out)) {
		w = strncmp(p, "--", 2) ? 0 : strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-");
		for (k = 0; w && k < sizeof(words) / sizeof(words[0]); k++)
			if (strlen(words[k]) == w && !strncmp(p + 2, words[k], w))
				break;
		if (w && k < sizeof(words) / sizeof(words[0])) {
			n += (size_t)snprintf(out + n, sizeof(out) - n, "--io-");
			p += 2;
			continue;
		}
		out[n++] = *p++;
	}
	out[n < sizeof(out) ? n : sizeof(out) - 1] = '\0';
	snprintf(err->msg, sizeof(err->msg), "%s", out);
}

int rtm_mon_io_start(struct rtm_mon *mo, struct rtm_error *err)
{
	if (!mo->io_on)
		return 0;
	if (rtm_io_target_open(&mo->io_target, &mo->io_req, err)) {
		monitor_names(err);
		return -1;
	}
	mo->io_open = true;
	mo->io_probe.fd = mo->io_target.fd;
	mo->io_probe.region_bytes = mo->io_target.bytes;
	mo->io_probe.align = mo->io_target.align;
	mo->iorun = rtm_probe_run_start(&rtm_probe_io_ops, &mo->io_probe, 0, err);
	if (!mo->iorun) {
		monitor_names(err);
		return -1;
	}
	mo->iop = rtm_probe_run_probe(mo->iorun);
	return 0;
}

/* The misses kept since the last turn: each operation's latest. */
void rtm_mon_io_poll(struct rtm_mon *mo)
{
	struct rtm_io_miss m[64];
	uint32_t i, n;
	int k;

	if (!mo->iorun)
		return;
	rtm_probe_run_tick(mo->iorun);
	while ((n = rtm_probe_io_misses(mo->iop, mo->io_taken, m, 64)) > 0) {
		for (i = 0; i < n; i++)
			for (k = 0; k < mo->nio; k++)
				if (mo->io[k].op == m[i].op) {
					mo->io[k].last = m[i];
					mo->io[k].missed = true;
				}
		mo->io_taken += n;
	}
}

void rtm_mon_io_fill(struct rtm_mon_io *row, const struct rtm_io_oprec *rec)
{
	row->requests = rec->count + rec->errors;
	row->misses = rec->misses;
	row->errors = rec->errors;
	row->count = rec->latency ? rec->latency->count : 0;
	row->max_ns = rec->latency && rec->latency->count ? rec->latency->max_ns : 0;
	row->p99_ns = rec->latency && rtm_pct_defined(rec->latency->count, 99) ?
		      rtm_hist_percentile(rec->latency, 99) : 0;
}

void rtm_mon_io_refresh(struct rtm_mon *mo)
{
	struct rtm_io_snap snap;
	int k;

	if (!mo->iop)
		return;
	rtm_probe_io_snapshot(mo->iop, &snap, &mo->io_rec);
	for (k = 0; k < mo->nio; k++)
		rtm_mon_io_fill(&mo->io[k], &mo->io_rec.ops[mo->io[k].op]);
}

int rtm_mon_io_finish(struct rtm_mon *mo, struct rtm_result *r, struct rtm_error *err)
{
	struct rtm_result *t;
	json_t *sec;
	int ret;

	if (!mo->iorun)
		return 0;
	rtm_probe_run_stop(mo->iorun);
	t = rtm_result_alloc("io");
	if (!t)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	ret = rtm_probe_run_finish(mo->iorun, t, err);
	sec = json_object_get(t->sections, "io");
	if (!ret && sec) {
		json_object_set_new(sec, "target", rtm_io_target_to_json(&mo->io_target));
		json_object_set(r->sections, "io", sec);
	}
	rtm_result_free(t);
	return ret;
}

void rtm_mon_io_free(struct rtm_mon *mo)
{
	if (mo->iorun) {
		rtm_probe_run_stop(mo->iorun);
		rtm_probe_run_free(mo->iorun);
		mo->iorun = NULL;
		mo->iop = NULL;
	}
	if (mo->io_open)	/* a created file removed, a scheduler put back */
		rtm_io_target_close(&mo->io_target, "/", NULL);
	mo->io_open = false;
	rtm_io_rec_release(&mo->io_rec);
}
