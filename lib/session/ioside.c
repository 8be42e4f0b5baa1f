// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ioside.c - run --io: the storage probe (lib/probe/probe_io.c) beside the timer
 * probe, on a target opened as `rtmeasure io` opens it (lib/box/iotarget.c), its
 * thread on a CPU the timer probe does not measure unless --io-cpu names one;
 * with --trace and --io-deadline a cause for every miss (lib/trace/iotrace.c).
 * sections.io is the one `rtmeasure io` writes. Also the causes' feed that
 * `rtmeasure io` drives.
 */
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/units.h"
#include "session/session_priv.h"
#include "trace/iotrace.h"

/* The storage probe running beside the timer probe. */
struct rtm_session_io {
	struct rtm_io_target t;
	struct rtm_probe_io *p;
	struct rtm_iotrace *tr;
	uint32_t taken;			/* misses handed to the causes */
	bool open;			/* @t is open (a created file to remove) */
};

struct rtm_iotrace *rtm_session_io_causes_start(const struct rtm_io_target *t, int cpu,
						uint64_t deadline_ns, struct rtm_error *err)
{
	struct rtm_iotrace_opts to = { .cpu = cpu, .deadline_ns = deadline_ns };
	char dev[32];

	if (!t->disk[0] || rtm_read_smallf("/", dev, sizeof(dev), "/sys/block/%s/dev",
					   t->disk) < 0 ||
	    sscanf(dev, "%u:%u", &to.major, &to.minor) != 2) {
		rtm_error_set(err, "the block device under %s is unknown, so its requests "
			      "cannot be traced", t->path);
		return NULL;
	}
	return rtm_iotrace_start(&to, err);
}

void rtm_session_io_causes_feed(struct rtm_iotrace *tr, const struct rtm_probe_io *p,
				uint32_t *taken)
{
	struct rtm_io_miss m[256];
	uint32_t i, n;

	while ((n = rtm_probe_io_misses(p, *taken, m, 256)) > 0) {
		for (i = 0; i < n; i++)
			rtm_iotrace_add(tr, rtm_io_op_name(m[i].op), m[i].planned_ns,
					m[i].issue_ns, m[i].done_ns);
		*taken += n;
	}
}

void rtm_session_io_causes_finish(struct rtm_iotrace *tr, const struct rtm_probe_io *p,
				  uint32_t *taken, struct rtm_result *r, FILE *errf)
{
	json_t *io = json_object_get(r->sections, "io"), *sec;

	rtm_session_io_causes_feed(tr, p, taken);
	sec = rtm_iotrace_finish(tr, (uint64_t)json_integer_value(json_object_get(io,
				 "misses_dropped")), errf);
	if (sec)
		json_object_set_new(io, "causes", sec);
}

/* The io command's option names in a message from below, as run spells them (--io-X). */
static void run_words(const char *msg, char *buf, size_t len)
{
	static const char *const names[] = { "target", "file-size", "size", "op",
					     "force-device", "allow-writes", "scheduler" };
	size_t i, n, o = 0, w;

	if (!strncmp(msg, "io: ", 4))
		msg += 4;
	for (; *msg && o + 1 < len; msg++) {
		buf[o++] = *msg;
		if (strncmp(msg, "--", 2) || (o > 1 && isalnum((unsigned char)msg[-1])))
			continue;
		for (w = 2; isalnum((unsigned char)msg[w]) || msg[w] == '-'; w++)
			;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			n = strlen(names[i]);
			if (w - 2 == n && !strncmp(msg + 2, names[i], n))
				break;
		}
		if (i == sizeof(names) / sizeof(names[0]) || o + 5 >= len)
			continue;
		buf[o++] = '-';
		memcpy(buf + o, "io-", 3);
		o += 3;
		msg++;
	}
	buf[o] = '\0';
}

/* "run: --io: MESSAGE" with run's option names; RTM_SESSION_EXIT_USAGE. */
static int io_fail(const struct rtm_session_opts *o, const char *msg)
{
	char buf[sizeof(((struct rtm_error *)0)->msg) + 64];

	run_words(msg, buf, sizeof(buf));
	return rtm_session_fail(o, "%s: --io: %s", o->command, buf);
}

int rtm_session_io_check_opts(struct rtm_session_opts *o, bool given)
{
	struct rtm_session_io_opts *io = &o->io;
	const char *cmd = o->command;
	int i;

	if (!io->on) {
		if (given)
			return rtm_session_fail(o, "%s: the --io-* options go with --io", cmd);
		return 0;
	}
	if (!io->probe.interval_ns)
		return rtm_session_fail(o, "%s: --io-interval must be above 0 (e.g. 10ms)", cmd);
	if (io->probe.size > io->req.file_bytes && !io->req.target)
		return rtm_session_fail(o, "%s: --io-size is larger than --io-file-size", cmd);
	if (io->req.force_device && !io->req.target)
		return rtm_session_fail(o, "%s: --io-force-device needs --io-target DEVICE", cmd);
	if (io->cpu_given && io->probe.cpu >= sysconf(_SC_NPROCESSORS_CONF))
		return rtm_session_fail(o, "%s: --io-cpu %d: this box has CPUs 0-%ld", cmd,
					io->probe.cpu, sysconf(_SC_NPROCESSORS_CONF) - 1);
	for (i = 0; i < io->probe.nseq; i++)
		io->req.writes |= rtm_io_op_writes(io->probe.seq[i]);
	return 0;
}

static bool measured(const struct rtm_cpulist *l, int cpu)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->cpus[i] == cpu)
			return true;
	return false;
}

/* The io thread's CPU: the last allowed one the timer probe does not measure, else the last. */
static void io_pick_cpu(struct rtm_session_opts *o)
{
	struct rtm_session_io_opts *io = &o->io;
	cpu_set_t set;
	int i;

	if (io->cpu_given) {
		io->cpu_measured = measured(&o->probe.cpus, io->probe.cpu);
		return;
	}
	if (sched_getaffinity(0, sizeof(set), &set))
		CPU_ZERO(&set);
	io->probe.cpu = -1;
	for (i = CPU_SETSIZE - 1; i >= 0 && io->probe.cpu < 0; i--)
		if (CPU_ISSET(i, &set) && !measured(&o->probe.cpus, i))
			io->probe.cpu = i;
	for (i = CPU_SETSIZE - 1; i >= 0 && io->probe.cpu < 0; i--)
		if (CPU_ISSET(i, &set))
			io->probe.cpu = i;
	if (io->probe.cpu < 0)
		io->probe.cpu = 0;
	io->cpu_measured = measured(&o->probe.cpus, io->probe.cpu);
}

struct rtm_session_io *rtm_session_io_open(struct rtm_session_opts *o, const char *dir,
					   int *status)
{
	struct rtm_session_io_opts *io = &o->io;
	struct rtm_error err = { "" };
	struct rtm_session_io *s;

	*status = 0;
	if (!io->on)
		return NULL;
	io_pick_cpu(o);
	io->probe.duration_ns = o->probe.duration_ns;
	io->probe.lock_memory = o->probe.lock_memory;
	if (o->box.no_rt) {
		io->probe.sched.policy = RTM_POLICY_OTHER;
		io->probe.sched.priority = 0;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		*status = rtm_session_fail(o, "out of memory");
		return NULL;
	}
	io->req.dir = dir;
	io->req.size = io->probe.size;
	if (rtm_io_target_open(&s->t, &io->req, &err)) {
		free(s);
		*status = io_fail(o, err.msg);
		return NULL;
	}
	s->open = true;
	io->probe.fd = s->t.fd;
	io->probe.region_bytes = s->t.bytes;
	io->probe.align = s->t.align;
	return s;
}

json_t *rtm_session_io_options_json(const struct rtm_session_opts *o)
{
	const struct rtm_session_io_opts *io = &o->io;
	const struct rtm_probe_io_opts *p = &io->probe;
	json_t *ops = json_array();
	char prio[16];
	int i;

	for (i = 0; ops && i < p->nseq; i++)
		json_array_append_new(ops, json_string(rtm_io_op_name(p->seq[i])));
	return json_pack("{s:s?, s:o*, s:I, s:I, s:I, s:I, s:i, s:b, s:o, s:s, s:b, s:b}",
		"target", io->req.target,
		"ops", ops,
		"size", (json_int_t)p->size,
		"file_bytes", (json_int_t)io->req.file_bytes,
		"interval_ns", (json_int_t)p->interval_ns,
		"deadline_ns", (json_int_t)p->deadline_ns,
		"cpu", p->cpu,
		"cpu_measured", io->cpu_measured,
		"sched", rtm_sched_to_json(&p->sched),
		"ioprio", rtm_ioprio_format(&p->ioprio, prio, sizeof(prio)),
		"force_device", io->req.force_device,
		"allow_writes", io->req.allow_writes);
}

const char *rtm_session_io_load_dir(const struct rtm_session_io *s, char *buf, size_t len)
{
	char *slash;

	if (!s || strcmp(s->t.kind, "device") == 0)
		return NULL;
	snprintf(buf, len, "%s", s->t.path);
	slash = strrchr(buf, '/');
	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == buf)
		buf[1] = '\0';
	else
		*slash = '\0';
	return buf;
}

int rtm_session_io_start(struct rtm_session_io *s, const struct rtm_session_opts *o,
			 struct rtm_error *err)
{
	const struct rtm_session_io_opts *io = &o->io;
	struct rtm_error terr = { "" };

	if (!s)
		return 0;
	if (o->trace.on && io->probe.deadline_ns) {
		s->tr = rtm_session_io_causes_start(&s->t, io->probe.cpu, io->probe.deadline_ns,
						    &terr);
		if (s->tr)
			rtm_iotrace_stale_note(s->tr, o->errf);
		else
			fprintf(o->errf, "rtmeasure: %s: warning: no causes for the storage "
				"probe's misses: %s\n", o->command, terr.msg);
	}
	s->p = rtm_probe_io_start(&io->probe, err);
	if (!s->p) {
		snprintf(terr.msg, sizeof(terr.msg), "%s", err->msg);
		snprintf(err->msg, sizeof(err->msg), "%s: --io: %s", o->command, terr.msg);
		return -1;
	}
	if (s->tr)
		rtm_iotrace_follow(s->tr, rtm_probe_io_tid(s->p));
	return 0;
}

void rtm_session_io_banner(const struct rtm_session_io *s, const struct rtm_session_opts *o)
{
	const struct rtm_probe_io_opts *p = &o->io.probe;
	char iv[16], dl[24] = "";

	if (!s || o->out.quiet || o->out.json)
		return;
	rtm_fmt_ns(iv, sizeof(iv), p->interval_ns);
	if (p->deadline_ns) {
		memcpy(dl, ", deadline ", 11);
		rtm_fmt_ns(dl + 11, sizeof(dl) - 11, p->deadline_ns);
	}
	fprintf(o->errf, "rtmeasure %s: io: %s (%s), %u bytes every %s%s on CPU %d%s\n",
		o->command, s->t.path, s->t.kind, p->size, iv, dl, p->cpu,
		!o->io.cpu_measured ? ", which the timer probe does not measure" :
		o->io.cpu_given ? ", which the timer probe measures too (--io-cpu)" :
		", which the timer probe measures too: it measures every CPU (give it fewer "
		"with -a to keep one for the storage probe)");
}

void rtm_session_io_poll(struct rtm_session_io *s)
{
	if (!s || !s->p || !s->tr)
		return;
	rtm_session_io_causes_feed(s->tr, s->p, &s->taken);
	rtm_iotrace_poll(s->tr);
}

/* Wait until the probe has ended on its own, at most @max_ns. */
static void io_wait_done(const struct rtm_probe_io *p, uint64_t max_ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 10000000L };
	uint64_t waited;

	for (waited = 0; !rtm_probe_io_done(p) && waited < max_ns; waited += 10000000ULL)
		nanosleep(&ts, NULL);
}

int rtm_session_io_finish(struct rtm_session_io *s, const struct rtm_session_opts *o,
			  struct rtm_result *r, struct rtm_error *err)
{
	struct rtm_result *scratch;
	json_t *sec;
	int ret;

	if (!s || !s->p)
		return 0;
	/* started just after the timer probe: its last requests, unless the run was cut short */
	if (!r->interrupted && o->probe.duration_ns)
		io_wait_done(s->p, o->io.probe.interval_ns + 1000000000ULL);
	rtm_probe_io_stop(s->p);
	scratch = rtm_result_alloc("io");
	if (!scratch)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	ret = rtm_probe_io_finish(s->p, scratch, err);	/* joins the thread */
	if (!ret && s->tr) {
		rtm_session_io_causes_finish(s->tr, s->p, &s->taken, scratch, o->errf);
		rtm_iotrace_free(s->tr);
		s->tr = NULL;
	}
	sec = json_object_get(scratch->sections, "io");
	if (!ret && sec) {
		json_object_set_new(sec, "target", rtm_io_target_to_json(&s->t));
		json_object_set(r->sections, "io", sec);
	}
	rtm_result_free(scratch);
	return ret;
}

int rtm_session_io_close(struct rtm_session_io *s, struct rtm_error *err)
{
	int ret = 0;

	if (!s)
		return 0;
	rtm_iotrace_free(s->tr);
	if (s->p)
		rtm_probe_io_stop(s->p);
	rtm_probe_io_free(s->p);
	if (s->open)
		ret = rtm_io_target_close(&s->t, "/", err);
	free(s);
	return ret;
}
