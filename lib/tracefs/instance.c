// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * instance.c - the private tracefs instance: life cycle, events, raw reading.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/runlock.h"
#include "box/sysinfo.h"
#include "tracefs/events.h"
#include "tracefs/instance.h"

#define DEFAULT_TRACEFS "/sys/kernel/tracing"

struct rtm_trace {
	struct tracefs_instance *inst;
	char name[64];
	const char *top;		/* the tracefs mount */
	char *events;			/* as asked for (rtm_trace_opts), for the decoder */
	struct rtm_tracedec *dec;	/* made at the first read (decoder()) */
	int ncpus;
	/*
	 * Each CPU's trace_pipe_raw, opened at the first read and kept open until
	 * the instance goes (or a tracer is set): a drain is a few reads, not an
	 * open and close of every CPU's buffer. NULL where the CPU was offline.
	 */
	struct tracefs_cpu **tcpu;
	void *page;			/* one sub-buffer, the reads' destination */
	int on_fd;			/* tracing_on, for rtm_trace_off_fd() */
	char *cpus;			/* the traced CPUs, NULL: all */
	int lock_fd;			/* instance-<name>.lock, held while it exists */
	char stale[256];		/* stale instances removed on the way */
	bool tracer;			/* a kernel tracer runs in current_tracer */
	bool running;			/* rtm_trace_start()ed, not stopped since */
	/*
	 * rtm_trace_keep(): the newest pages read of each CPU, copied as they are
	 * read (kept[cpu][k % keep_pages], kept_n[cpu] read in all), so a
	 * window can be decoded again after a drain consumed it.
	 */
	size_t keep_kb;
	size_t keep_pages;		/* per CPU, set at the first read */
	void ***kept;
	uint64_t *kept_n;
	uint64_t kept_until;		/* CLOCK_MONOTONIC when the last whole read began */
};

const char *rtm_trace_find_tracefs(struct rtm_error *err)
{
	char why[200];
	struct stat st;
	int e;

	if (stat(DEFAULT_TRACEFS "/trace", &st) == 0)
		return DEFAULT_TRACEFS;
	e = errno;
	/* mounted but closed to this user: mounting it again is no fix */
	if (e == EACCES || e == EPERM)
		goto fail;
	if (stat("/sys/kernel/debug/tracing/trace", &st) == 0)
		return "/sys/kernel/debug/tracing";
	if (geteuid() == 0 && mount("nodev", DEFAULT_TRACEFS, "tracefs", 0, NULL) == 0)
		return DEFAULT_TRACEFS;
fail:
	rtm_error_set(err, "%s", rtm_sysinfo_tracefs_problem(e, DEFAULT_TRACEFS, why, sizeof(why)));
	errno = e;
	return NULL;
}

/* Disable everything in instance @name and remove it; 0 when it is gone. */
static int remove_instance(const char *name)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	int ret;

	if (!inst)
		return -errno;
	tracefs_trace_off(inst);
	tracefs_event_disable(inst, NULL, NULL);
	ret = tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	return ret;
}

/* Append @name to the comma-separated list @buf (truncated with "..."). */
static void list_add(char *buf, size_t len, const char *name)
{
	size_t used = strlen(buf);

	if (!len || used + 4 >= len)
		return;
	if (snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name) >=
	    (int)(len - used))
		snprintf(buf + len - 4, 4, "...");
}

/*
 * The instances directory is read directly: libtracefs 1.6's tracefs_instances()
 * leaks the regex it compiles (LSan reports it on every call).
 */
int rtm_trace_remove_stale(char *removed, size_t len)
{
	char dir[PATH_MAX];
	const char *top = rtm_trace_find_tracefs(NULL);
	struct dirent *de;
	int n = 0, fd;
	DIR *d;

	if (removed && len)
		removed[0] = '\0';
	if (!top)
		return 0;
	snprintf(dir, sizeof(dir), "%s/instances", top);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "rtmeasure-", strlen("rtmeasure-")) != 0)
			continue;
		/* no lock file: an older rtmeasure or another lock directory, left alone */
		fd = rtm_runlock_instance_stale(de->d_name);
		if (fd < 0)
			continue;
		if (remove_instance(de->d_name) == 0) {
			n++;
			if (removed)
				list_add(removed, len, de->d_name);
			rtm_runlock_instance_release(de->d_name, fd);
		} else {
			close(fd);	/* still there: stale again for the next run */
		}
	}
	closedir(d);
	return n;
}

void rtm_trace_default_events(char *buf, size_t len)
{
	struct rtm_error err = { "" };
	const char *top = rtm_trace_find_tracefs(&err);
	char *copy = strdup(RTM_TRACE_PRESETS), *tok, *save = NULL, path[512];

	snprintf(buf, len, "%s", RTM_TRACE_PRESETS);
	if (!top || !copy) {	/* the instance's creation names the problem */
		free(copy);
		return;
	}
	buf[0] = '\0';
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		snprintf(path, sizeof(path), "%s/events/%s", top, tok);
		if (!rtm_events_optional(tok) || !access(path, F_OK))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", *buf ? "," : "",
				 tok);
	}
	free(copy);
}


/*
 * rtmeasure-PID[-SUFFIX], locked for this process. A directory of that name
 * whose lock file was left unlocked is a killed owner's (PID reuse): removed
 * and noted. A name held by a live process (the same PID in another PID
 * namespace) or a directory without a lock file (an older rtmeasure) is not
 * ours: then rtmeasure-PID.K[-SUFFIX], K = 1, 2, ...
 */
static int take_name(struct rtm_trace *t, const char *suffix, const char *top,
		     struct rtm_error *err)
{
	char dir[PATH_MAX], seq[16] = "";
	bool existed = false;
	struct stat st;
	int k, fd;

	for (k = 0; k < 100; k++) {
		if (k)
			snprintf(seq, sizeof(seq), ".%d", k);
		snprintf(t->name, sizeof(t->name), "rtmeasure-%d%s%s%s", (int)getpid(), seq,
			 suffix ? "-" : "", suffix ? suffix : "");
		fd = rtm_runlock_instance_take(t->name, &existed, err);
		if (fd == -EBUSY)
			continue;
		if (fd < 0)
			return fd;
		snprintf(dir, sizeof(dir), "%s/instances/%s", top, t->name);
		if (stat(dir, &st) == 0) {
			if (!existed) {		/* not ours to judge */
				rtm_runlock_instance_release(t->name, fd);
				continue;
			}
			if (remove_instance(t->name)) {
				close(fd);
				return rtm_error_setn(err, -EBUSY, "cannot remove the stale tracing "
						      "instance %s (rmdir %s)", t->name, dir);
			}
			list_add(t->stale, sizeof(t->stale), t->name);
		}
		t->lock_fd = fd;
		return 0;
	}
	return rtm_error_setn(err, -EBUSY, "no free tracing instance name rtmeasure-%d.K (see "
			      "%s/instances)", (int)getpid(), top);
}

const char *rtm_trace_stale_removed(const struct rtm_trace *t)
{
	return t->stale;
}

void rtm_trace_stale_note(const struct rtm_trace *t, FILE *f)
{
	if (t && *t->stale)
		fprintf(f, "rtmeasure: removed stale trace instances of a killed rtmeasure: %s\n",
			t->stale);
}

/* The new instance's clock, buffer, CPUs, events and filters; 0 or -errno with the message. */
static int configure_instance(struct rtm_trace *t, const struct rtm_trace_opts *o,
			      struct rtm_error *err)
{
	int i;

	tracefs_trace_off(t->inst);
	if (tracefs_instance_file_write(t->inst, "trace_clock", "mono") < 0)
		return rtm_error_set(err, "this kernel has no 'mono' trace clock: event times "
				     "would not match CLOCK_MONOTONIC");
	tracefs_instance_file_write(t->inst, "options/overwrite", o->overwrite ? "1" : "0");
	if (o->buffer_kb && tracefs_instance_set_buffer_size(t->inst, o->buffer_kb, -1) < 0)
		return rtm_error_set(err, "cannot set a %zu KB trace buffer per CPU",
				     o->buffer_kb);
	if (o->cpus && (!(t->cpus = strdup(o->cpus)) ||
			tracefs_instance_set_affinity(t->inst, o->cpus) < 0))
		return rtm_error_set(err, "cannot limit tracing to CPUs %s", o->cpus);
	if (rtm_events_enable(t->inst, o->events, err))
		return -EINVAL;
	for (i = 0; i < o->nfilters && i < RTM_TRACE_MAX_FILTERS; i++)
		if (rtm_events_filter(t->inst, o->filters[i], err))
			return -EINVAL;
	return 0;
}

/* the systems of events named as system:event, so every one can be printed */
static struct rtm_tracedec *alloc_decoder(const char *top, const char *events,
					  struct rtm_error *err)
{
	const char *extra[16];
	char *copy = strdup(events ? events : ""), *tok, *save = NULL, *c;
	struct rtm_tracedec *dec;
	size_t k = 0;

	for (tok = copy ? strtok_r(copy, ", ", &save) : NULL; tok && k < 15;
	     tok = strtok_r(NULL, ", ", &save))
		if ((c = strchr(tok, ':'))) {
			*c = '\0';
			extra[k++] = tok;
		}
	extra[k] = NULL;
	dec = rtm_tracedec_alloc_systems(top, extra, err);
	free(copy);
	return dec;
}

struct rtm_trace *rtm_trace_create(const struct rtm_trace_opts *o, struct rtm_error *err)
{
	struct rtm_trace *t;
	const char *top;

	top = rtm_trace_find_tracefs(err);
	if (!top)
		return NULL;
	if (geteuid() != 0 && access(top, W_OK) != 0) {
		rtm_error_set(err, "tracing needs root (or write access to %s): run as root", top);
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	t->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	t->on_fd = -1;
	t->lock_fd = -1;
	rtm_trace_remove_stale(t->stale, sizeof(t->stale));
	if (o->suffix && (!*o->suffix || strspn(o->suffix, "abcdefghijklmnopqrstuvwxyz") !=
			  strlen(o->suffix) || strlen(o->suffix) > 32)) {
		rtm_error_set(err, "bad trace instance suffix '%s'", o->suffix);
		free(t);
		return NULL;
	}
	if (take_name(t, o->suffix, top, err)) {
		free(t);
		return NULL;
	}
	t->inst = tracefs_instance_create(t->name);
	if (!t->inst) {
		rtm_error_set(err, "cannot create tracing instance %s under %s/instances: %s",
			      t->name, top, strerror(errno));
		rtm_runlock_instance_release(t->name, t->lock_fd);
		free(t);
		return NULL;
	}
	t->top = top;
	if (o->events && !(t->events = strdup(o->events))) {
		rtm_error_set(err, "out of memory");
		goto fail;
	}
	if (configure_instance(t, o, err))
		goto fail;
	return t;
fail:
	rtm_trace_destroy(t);
	return NULL;
}

/*
 * The instance's decoder, its event formats parsed at the first read rather
 * than at rtm_trace_create(): 15-25 ms per instance that a run's start need
 * not wait for. NULL with @err set when the formats do not load.
 */
static struct rtm_tracedec *decoder(struct rtm_trace *t, struct rtm_error *err)
{
	if (!t->dec)
		t->dec = alloc_decoder(t->top, t->events, err);
	return t->dec;
}

int rtm_trace_print_event(struct rtm_trace *t, const struct rtm_event *ev, char *buf,
			  size_t len)
{
	struct rtm_tracedec *dec = decoder(t, NULL);

	return dec ? rtm_tracedec_print(dec, ev, buf, len) : -EINVAL;
}

int rtm_trace_off_fd(struct rtm_trace *t)
{
	if (t->on_fd < 0)
		t->on_fd = tracefs_trace_on_get_fd(t->inst);
	return t->on_fd;
}

const char *rtm_trace_name(const struct rtm_trace *t)
{
	return t->name;
}

int rtm_trace_start(struct rtm_trace *t)
{
	if (tracefs_trace_on(t->inst) < 0)
		return -errno;
	t->running = true;
	return 0;
}

int rtm_trace_stop(struct rtm_trace *t)
{
	t->running = false;
	return tracefs_trace_off(t->inst) < 0 ? -errno : 0;
}

int rtm_trace_marker(struct rtm_trace *t, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	return tracefs_printf(t->inst, "%s", buf) < 0 ? -EIO : 0;
}

/* The per-CPU readers closed: a tracer cannot be set, nor the instance removed, while open. */
static void close_cpus(struct rtm_trace *t)
{
	int cpu;

	for (cpu = 0; t->tcpu && cpu < t->ncpus; cpu++)
		if (t->tcpu[cpu])
			tracefs_cpu_close(t->tcpu[cpu]);
	free(t->tcpu);
	t->tcpu = NULL;
}

/* CPU @cpu's reader, opened once; NULL while the CPU is offline (tried again next time). */
static struct tracefs_cpu *cpu_reader(struct rtm_trace *t, int cpu)
{
	if (!t->tcpu[cpu])
		t->tcpu[cpu] = tracefs_cpu_open(t->inst, cpu, true);
	return t->tcpu[cpu];
}

int rtm_trace_keep(struct rtm_trace *t, size_t kb)
{
	if (t->kept)
		return -EBUSY;
	t->kept = calloc((size_t)t->ncpus, sizeof(*t->kept));
	t->kept_n = calloc((size_t)t->ncpus, sizeof(*t->kept_n));
	if (!t->kept || !t->kept_n)
		return -ENOMEM;
	t->keep_kb = kb ? kb : 1;
	return 0;
}

bool rtm_trace_keeps(const struct rtm_trace *t)
{
	return t && t->keep_kb;
}

uint64_t rtm_trace_kept_until(const struct rtm_trace *t)
{
	return t->keep_kb ? t->kept_until : 0;
}

/* The page just read of @cpu into its ring of kept pages; each slot allocated at its first use. */
static int keep_page(struct rtm_trace *t, int cpu, int psize)
{
	void **slot;

	if (!t->keep_pages)
		t->keep_pages = (t->keep_kb * 1024 + (size_t)psize - 1) / (size_t)psize;
	if (!t->kept[cpu] && !(t->kept[cpu] = calloc(t->keep_pages, sizeof(void *))))
		return -ENOMEM;
	slot = &t->kept[cpu][t->kept_n[cpu] % t->keep_pages];
	if (!*slot && !(*slot = malloc((size_t)psize)))
		return -ENOMEM;
	memcpy(*slot, t->page, (size_t)psize);
	t->kept_n[cpu]++;
	return 0;
}

int rtm_trace_read_pages(struct rtm_trace *t, rtm_page_cb cb, void *ctx, struct rtm_error *err)
{
	struct rtm_tracedec *dec = decoder(t, err);
	int psize, cpu, ret = 0;
	uint64_t began;

	if (!dec)
		return -ENOENT;
	psize = rtm_tracedec_page_size(dec);
	if (!t->page)
		t->page = malloc((size_t)psize);
	if (!t->tcpu)
		t->tcpu = calloc((size_t)t->ncpus, sizeof(*t->tcpu));
	if (!t->page || !t->tcpu)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	began = rtm_clock_ns(CLOCK_MONOTONIC);
	for (cpu = 0; cpu < t->ncpus && !ret; cpu++) {
		struct tracefs_cpu *tcpu = cpu_reader(t, cpu);
		int n, small = 0;

		while (tcpu && !ret) {
			n = tracefs_cpu_read(tcpu, t->page, true);
			if (n <= 0)
				n = tracefs_cpu_flush(tcpu, t->page);
			if (n <= 0)
				break;
			if (t->keep_kb)
				ret = keep_page(t, cpu, psize);
			if (!ret)
				ret = cb(t->page, psize, cpu, ctx);
			/*
			 * While tracing, reading on after the writer's own page
			 * would chase the writer, a record or two a read (21k
			 * reads a second seen at 14k events a second, the reader
			 * slowed by strace): the next drain takes those. A read
			 * under half a page is the writer's page, or the rest of
			 * a page the last drain read part of, which the writer
			 * may have left since: the second such read in a row is
			 * the writer's, and every record the CPU had written
			 * when that read began is in.
			 */
			small = rtm_tracedec_page_half(dec, t->page) ? 0 : small + 1;
			if (t->running && small == 2)
				break;
		}
	}
	if (ret < 0)
		return rtm_error_setn(err, ret, "reading the trace buffers failed: %s",
				      strerror(-ret));
	/* every CPU read up to its writer: what it had written when the read began is kept */
	t->kept_until = began;
	return 0;
}

struct read_ctx {
	struct rtm_tracedec *dec;
	rtm_event_cb cb;
	void *ctx;
	int only_cpu;			/* the CPU whose events are wanted, -1: all */
	struct rtm_tracedec_from from;	/* its pages before from.from_ns: walked only */
	uint64_t lost;
	long total;
};

/* What the decoder said of one page: counted, or skipped when corrupt, or the error. */
static int page_done(struct read_ctx *rc, int n, uint64_t refused)
{
	/* a corrupt page is counted by the decoder and skipped; a callback's error stops */
	if (n < 0 && rtm_tracedec_refused(rc->dec) != refused)
		return 0;
	if (n < 0)
		return n;
	rc->total += n;
	return 0;
}

static int decode_page(void *page, int size, int cpu, void *arg)
{
	struct read_ctx *rc = arg;
	uint64_t refused = rtm_tracedec_refused(rc->dec);
	/* another CPU's page is walked (checked, its lost events counted), not decoded */
	rtm_event_cb cb = rc->only_cpu < 0 || cpu == rc->only_cpu ? rc->cb : NULL;
	int n;

	(void)size;
	if (cb && rc->from.from_ns)
		n = rtm_tracedec_from_page(rc->dec, &rc->from, page, cpu, cb, rc->ctx, &rc->lost);
	else
		n = rtm_tracedec_page(rc->dec, page, cpu, cb, rc->ctx, &rc->lost);
	return page_done(rc, n, refused);
}

long rtm_trace_read(struct rtm_trace *t, rtm_event_cb cb, void *ctx, uint64_t *lost,
		    struct rtm_error *err)
{
	return rtm_trace_read_cpu(t, -1, cb, ctx, lost, err);
}

long rtm_trace_read_cpu(struct rtm_trace *t, int cpu, rtm_event_cb cb, void *ctx, uint64_t *lost,
			struct rtm_error *err)
{
	return rtm_trace_read_cpu_from(t, cpu, 0, cb, ctx, lost, err);
}

/*
 * The end of a read: the events a window held back handed over (none after an
 * error), the lost count, and the number of events decoded or the error, said
 * as "@what failed".
 */
static long read_finish(struct read_ctx *rc, int ret, uint64_t *lost, const char *what,
			struct rtm_error *err)
{
	uint64_t refused = rtm_tracedec_refused(rc->dec);
	int n = rtm_tracedec_from_end(rc->dec, &rc->from, ret ? NULL : rc->cb, rc->ctx,
				      &rc->lost);

	if (!ret)
		ret = page_done(rc, n, refused);
	rtm_tracedec_from_free(&rc->from);
	if (ret < 0 && err && !err->msg[0])
		rtm_error_setn(err, ret, "%s failed: %s", what, strerror(-ret));
	if (lost)
		*lost = rc->lost;
	return ret ? ret : rc->total;
}

long rtm_trace_read_cpu_from(struct rtm_trace *t, int cpu, uint64_t from_ns, rtm_event_cb cb,
			     void *ctx, uint64_t *lost, struct rtm_error *err)
{
	struct read_ctx rc = { .dec = decoder(t, err), .cb = cb, .ctx = ctx, .only_cpu = cpu };
	int ret;

	if (!rc.dec)
		return -ENOENT;
	rc.from.from_ns = cpu >= 0 ? from_ns : 0;
	ret = rtm_trace_read_pages(t, decode_page, &rc, err);
	return read_finish(&rc, ret, lost, "reading the trace buffers", err);
}

/*
 * The kept page of @cpu (of first..n-1) a window from @from_ns starts in: the
 * last that begins before @from_ns (its later records may be in the window),
 * found by halving, since a CPU's pages begin later and later; @first when none
 * does. The pages before it are not walked: a capture costs its window's pages,
 * not the megabytes kept.
 */
static uint64_t kept_before(const struct rtm_trace *t, const struct rtm_tracedec *dec, int cpu,
			    uint64_t first, uint64_t n, uint64_t from_ns)
{
	uint64_t lo = first, hi = n, mid;

	while (lo < hi) {	/* the first page that begins at or after @from_ns */
		mid = lo + (hi - lo) / 2;
		if (rtm_tracedec_page_ts(dec, t->kept[cpu][mid % t->keep_pages]) < from_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > first ? lo - 1 : first;
}

long rtm_trace_read_kept(struct rtm_trace *t, int cpu, uint64_t from_ns, rtm_event_cb cb,
			 void *ctx, uint64_t *lost, bool *wrapped, struct rtm_error *err)
{
	struct read_ctx rc = { .dec = decoder(t, err), .cb = cb, .ctx = ctx, .only_cpu = cpu };
	uint64_t k, n, first, refused;
	int ret = 0, r;

	if (!rc.dec)
		return -ENOENT;
	if (!t->keep_kb || cpu < 0 || cpu >= t->ncpus)
		return rtm_error_setn(err, -EINVAL, "no pages kept of CPU %d", cpu);
	rc.from.from_ns = from_ns;
	n = t->kept[cpu] ? t->kept_n[cpu] : 0;
	first = n > t->keep_pages ? n - t->keep_pages : 0;
	for (k = kept_before(t, rc.dec, cpu, first, n, from_ns); k < n && !ret; k++) {
		refused = rtm_tracedec_refused(rc.dec);
		r = rtm_tracedec_from_page(rc.dec, &rc.from, t->kept[cpu][k % t->keep_pages], cpu,
					   cb, ctx, &rc.lost);
		ret = page_done(&rc, r, refused);
	}
	if (wrapped)
		*wrapped = first > 0;
	return read_finish(&rc, ret, lost, "decoding the kept trace pages", err);
}

/* Copy one tracefs file (read in full, as tracefs wants) to @dest. */
static int copy_file(const char *top, const char *rel, const char *dest)
{
	char path[PATH_MAX];
	size_t len;
	char *text;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	text = rtm_read_all("/", path, &len);
	if (!text)
		return -errno;
	snprintf(path, sizeof(path), "%s/%s", dest, rel);
	ret = rtm_write_atomic(path, text, len);
	free(text);
	return ret;
}

int rtm_trace_save_formats(const char *dest, struct rtm_error *err)
{
	static const char *const groups[] = { "sched", "irq", "irq_vectors", "timer", "ipi",
					      "nmi", "ftrace" };
	const char *top = rtm_trace_find_tracefs(err);
	char path[PATH_MAX], rel[PATH_MAX];
	size_t g;
	int ret;

	if (!top)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events", dest);
	ret = rtm_mkdir_p(path);
	if (!ret)
		ret = copy_file(top, "events/header_page", dest);
	if (!ret)
		ret = copy_file(top, "events/header_event", dest);
	for (g = 0; !ret && g < sizeof(groups) / sizeof(groups[0]); g++) {
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "%s/events/%s", top, groups[g]);
		d = opendir(path);
		if (!d)
			continue;	/* not on this kernel */
		snprintf(path, sizeof(path), "%s/events/%s", dest, groups[g]);
		ret = rtm_mkdir_p(path);
		/* libtracefs recognises a group by its "enable" file */
		snprintf(rel, sizeof(rel), "%s/enable", path);
		if (!ret)
			ret = rtm_write_atomic(rel, "", 0);
		while (!ret && (de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.' || !strcmp(de->d_name, "enable") ||
			    !strcmp(de->d_name, "filter"))
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s", dest, groups[g], de->d_name);
			ret = rtm_mkdir_p(path);
			snprintf(rel, sizeof(rel), "events/%s/%s/format", groups[g], de->d_name);
			if (!ret)
				ret = copy_file(top, rel, dest);
		}
		closedir(d);
	}
	if (ret)
		return rtm_error_setn(err, ret, "cannot copy the event formats to %s: %s", dest,
				      strerror(-ret));
	return 0;
}

struct clock_ctx {
	int64_t min_delta;
	int found;
};

static int clock_marker(const struct rtm_event *ev, void *arg)
{
	struct clock_ctx *c = arg;
	unsigned long long v;

	if (ev->type == RTM_EV_PRINT && sscanf(ev->print.buf, "rtm-clock %llu", &v) == 1) {
		int64_t d = (int64_t)(ev->ts_ns - v);

		if (!c->found || d < c->min_delta)
			c->min_delta = d;
		c->found++;
	}
	return 0;
}

int rtm_trace_check_clock(struct rtm_trace *t, int64_t *delta_ns, struct rtm_error *err)
{
	struct clock_ctx c = { 0, 0 };
	int i;

	/* the markers come from this thread's CPU, which may not be a traced one */
	if (t->cpus)
		tracefs_instance_set_affinity(t->inst, NULL);
	if (rtm_trace_start(t))
		return rtm_error_setn(err, -EIO, "cannot switch tracing on in %s", t->name);
	for (i = 0; i < 5; i++) {
		rtm_trace_marker(t, "rtm-clock %llu",
				 (unsigned long long)rtm_clock_ns(CLOCK_MONOTONIC));
	}
	rtm_trace_stop(t);
	if (t->cpus && tracefs_instance_set_affinity(t->inst, t->cpus) < 0)
		return rtm_error_setn(err, -EIO, "cannot limit tracing to CPUs %s", t->cpus);
	if (rtm_trace_read(t, clock_marker, &c, NULL, err) < 0)
		return -EIO;
	if (!c.found)
		return rtm_error_setn(err, -EIO, "no trace_marker event came back from %s: the "
				      "trace cannot be matched to the measurement", t->name);
	/* the event is written after the clock read: a little later, never before */
	if (c.min_delta < 0 || c.min_delta > 1000000)
		return rtm_error_setn(err, -EINVAL, "trace clock and CLOCK_MONOTONIC differ by "
				      "%lld ns: event times cannot be matched to wake-up times",
				      (long long)c.min_delta);
	*delta_ns = c.min_delta;
	return 0;
}

uint64_t rtm_trace_refused(const struct rtm_trace *t)
{
	return t->dec ? rtm_tracedec_refused(t->dec) : 0;
}

uint64_t rtm_trace_dropped(struct rtm_trace *t)
{
	static const char *const keys[] = { "\noverrun:", "\ncommit overrun:",
					     "\ndropped events:" };
	uint64_t total = 0;
	int cpu;

	for (cpu = 0; cpu < t->ncpus; cpu++) {
		char file[64], *text;
		size_t k;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(t->inst, file, NULL);
		for (k = 0; text && k < sizeof(keys) / sizeof(keys[0]); k++) {
			char *p = strstr(text, keys[k]);

			if (p)
				total += strtoull(p + strlen(keys[k]), NULL, 10);
		}
		free(text);
	}
	return total;
}

int rtm_trace_set_tracer(struct rtm_trace *t, const char *name)
{
	int e;

	close_cpus(t);	/* the kernel refuses a tracer while trace_pipe_raw is open (EBUSY) */
	errno = 0;
	if (tracefs_instance_file_write(t->inst, "current_tracer", name) >= 0) {
		t->tracer = true;
		return 0;
	}
	e = errno ? errno : EIO;
	return e == EINVAL ? -ENODEV : -e;
}

void rtm_trace_destroy(struct rtm_trace *t)
{
	if (!t)
		return;
	if (t->on_fd >= 0)
		close(t->on_fd);
	close_cpus(t);	/* an open trace_pipe_raw keeps rmdir busy */
	free(t->page);
	for (int cpu = 0; t->kept && cpu < t->ncpus; cpu++) {
		for (size_t k = 0; t->kept[cpu] && k < t->keep_pages; k++)
			free(t->kept[cpu][k]);
		free(t->kept[cpu]);
	}
	free(t->kept);
	free(t->kept_n);
	if (t->inst) {
		tracefs_print_close(t->inst);	/* an open trace_marker keeps rmdir busy */
		tracefs_trace_off(t->inst);
		/* the tracer's reset puts its own global settings back before ours are */
		if (t->tracer)
			tracefs_instance_file_write(t->inst, "current_tracer", "nop");
		/* one write: the kernel switches every event of the instance off */
		tracefs_instance_file_write(t->inst, "events/enable", "0");
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
	}
	/* the lock outlives the instance by an instant, never the other way round */
	rtm_runlock_instance_release(t->name, t->lock_fd);
	rtm_tracedec_free(t->dec);
	free(t->events);
	free(t->cpus);
	free(t);
}
