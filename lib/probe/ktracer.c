// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ktracer.c - hwlat's global settings (save, apply, restore) and its samples
 * gathered into sections.noise. The probe seam around it: probe_hwlat.c.
 */
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/hist.h"
#include "probe/ktracer.h"

bool rtm_ktracer_has(const char *tracing_dir, const char *tracer)
{
	char *list = rtm_read_all(tracing_dir, "available_tracers", NULL), *tok, *save = NULL;
	bool found = false;

	if (!list)
		return false;
	for (tok = strtok_r(list, " \n", &save); tok && !found; tok = strtok_r(NULL, " \n", &save))
		found = !strcmp(tok, tracer);
	free(list);
	return found;
}

/* Does @rel (a current_tracer file) name @tracer? */
static bool runs(const char *dir, const char *rel, const char *tracer)
{
	char cur[64];

	return rtm_read_small(dir, rel, cur, sizeof(cur)) >= 0 && !strcmp(cur, tracer);
}

bool rtm_ktracer_in_use(const char *dir, const char *tracer, char *where, size_t len)
{
	char path[4096], rel[512];
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (runs(dir, "current_tracer", tracer)) {
		snprintf(where, len, "%s/current_tracer", dir);
		return true;
	}
	if (rtm_path(path, sizeof(path), dir, "instances") || !(d = opendir(path)))
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "instances/%s/current_tracer", de->d_name);
		if (runs(dir, rel, tracer)) {
			snprintf(where, len, "%s/%s", dir, rel);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* hwlat_detector/mode reads "none [round-robin] per-cpu": the word in brackets. */
static void selected_word(const char *text, char *out, size_t len)
{
	const char *a = strchr(text, '['), *b = a ? strchr(a, ']') : NULL;

	out[0] = '\0';
	if (a && b && (size_t)(b - a - 1) < len) {
		memcpy(out, a + 1, (size_t)(b - a - 1));
		out[b - a - 1] = '\0';
	}
}

int rtm_ktracer_save(const char *dir, const struct rtm_ktracer_file *files, size_t n,
		     struct rtm_error *err)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = rtm_read_small(dir, files[i].rel, files[i].buf, files[i].len);
		if (ret < 0)
			return rtm_error_setn(err, ret, "cannot read %s/%s: %s", dir, files[i].rel,
					      strerror(-ret));
	}
	return 0;
}

int rtm_hwlat_save(const char *dir, struct rtm_hwlat_saved *s, struct rtm_error *err)
{
	const struct rtm_ktracer_file files[] = {
		{ "tracing_thresh", s->thresh, sizeof(s->thresh) },
		{ "hwlat_detector/width", s->width, sizeof(s->width) },
		{ "hwlat_detector/window", s->window, sizeof(s->window) },
	};
	char mode[128];
	int ret;

	memset(s, 0, sizeof(*s));
	ret = rtm_ktracer_save(dir, files, sizeof(files) / sizeof(files[0]), err);
	if (ret)
		return ret;
	if (rtm_read_small(dir, "hwlat_detector/mode", mode, sizeof(mode)) >= 0)
		selected_word(mode, s->mode, sizeof(s->mode));
	return 0;
}

int rtm_ktracer_write(const char *dir, const char *rel, const char *val)
{
	char path[4096];
	size_t n = strlen(val);
	ssize_t w;
	int fd, ret;

	ret = rtm_path(path, sizeof(path), dir, rel);
	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, val, n);
	ret = w < 0 ? -errno : ((size_t)w == n ? 0 : -EIO);
	close(fd);
	return ret;
}

int rtm_ktracer_write_duty(const char *dir, const char *width_file, const char *width,
			   const char *window_file, const char *window)
{
	char cur[32];
	int ret;

	if (rtm_read_small(dir, window_file, cur, sizeof(cur)) >= 0 &&
	    strtoull(width, NULL, 10) > strtoull(cur, NULL, 10)) {
		ret = rtm_ktracer_write(dir, window_file, window);
		return ret ? ret : rtm_ktracer_write(dir, width_file, width);
	}
	ret = rtm_ktracer_write(dir, width_file, width);
	return ret ? ret : rtm_ktracer_write(dir, window_file, window);
}

static int write_duty(const char *dir, const char *width, const char *window)
{
	return rtm_ktracer_write_duty(dir, "hwlat_detector/width", width,
				      "hwlat_detector/window", window);
}

int rtm_hwlat_apply(const char *dir, uint64_t thresh_us, uint64_t width_us, uint64_t window_us,
		    const char *mode, struct rtm_error *err)
{
	char th[32], wd[32], wn[32];
	int ret;

	snprintf(th, sizeof(th), "%llu", (unsigned long long)thresh_us);
	snprintf(wd, sizeof(wd), "%llu", (unsigned long long)width_us);
	snprintf(wn, sizeof(wn), "%llu", (unsigned long long)window_us);
	ret = rtm_ktracer_write(dir, "tracing_thresh", th);
	if (ret)
		return rtm_error_setn(err, ret, "cannot write %s/tracing_thresh: %s", dir,
				      strerror(-ret));
	ret = write_duty(dir, wd, wn);
	if (ret)
		return rtm_error_setn(err, ret, "cannot set hwlat's width %s us of window %s us "
				      "in %s/hwlat_detector: %s", wd, wn, dir, strerror(-ret));
	if (mode && rtm_exists(dir, "hwlat_detector/mode")) {
		ret = rtm_ktracer_write(dir, "hwlat_detector/mode", mode);
		if (ret)
			return rtm_error_setn(err, ret, "cannot set %s/hwlat_detector/mode to %s: %s",
					      dir, mode, strerror(-ret));
	}
	return 0;
}

int rtm_hwlat_restore(const char *dir, const struct rtm_hwlat_saved *s)
{
	int ret = 0, r;

	if (s->mode[0] && rtm_exists(dir, "hwlat_detector/mode") &&
	    (r = rtm_ktracer_write(dir, "hwlat_detector/mode", s->mode)) && !ret)
		ret = r;
	if ((r = write_duty(dir, s->width, s->window)) && !ret)
		ret = r;
	if ((r = rtm_ktracer_write(dir, "tracing_thresh", s->thresh)) && !ret)
		ret = r;
	return ret;
}

/* ------------------------------------------------------------- the samples */

struct hwlat_cpu {
	struct rtm_noise_rec rec;	/* first (struct rtm_ktnoise): one gap per sample, */
					/* the larger of inner and outer */
	uint64_t samples;
	uint64_t inner_max_ns, outer_max_ns;
	uint64_t nmi_count, nmi_total_ns;
	uint64_t above_thresh;		/* gaps above tracing_thresh inside the samples */
};

_Static_assert(offsetof(struct hwlat_cpu, rec) == 0, "struct rtm_ktnoise: the record first");

struct rtm_hwlat_acc {
	struct rtm_ktnoise noise;	/* first (rtm_ktnoise_alloc): struct hwlat_cpu */
	/* the kernel numbers samples across CPUs: a number never seen was lost */
	uint64_t seq_min, seq_max, seen;
};

_Static_assert(offsetof(struct rtm_hwlat_acc, noise) == 0, "rtm_ktnoise_alloc: the noise first");

struct rtm_hwlat_acc *rtm_hwlat_acc_alloc(int ncpus, uint64_t report_above_ns,
					  uint32_t max_gaps)
{
	return rtm_ktnoise_alloc(sizeof(struct rtm_hwlat_acc), ncpus, sizeof(struct hwlat_cpu),
				 report_above_ns, max_gaps);
}

void rtm_hwlat_acc_free(struct rtm_hwlat_acc *a)
{
	rtm_ktnoise_free(a);
}

int rtm_hwlat_acc_event(const struct rtm_event *ev, void *arg)
{
	struct rtm_hwlat_acc *a = arg;
	struct hwlat_cpu *c;
	uint64_t inner, outer;

	c = rtm_ktnoise_cpu(&a->noise, ev->cpu);
	if (ev->type != RTM_EV_HWLAT || !c)
		return 0;
	inner = ev->hwlat.inner_us * 1000;
	outer = ev->hwlat.outer_us * 1000;
	/* events come CPU after CPU, not in sequence: keep the range */
	if (!a->seen || ev->hwlat.seqnum < a->seq_min)
		a->seq_min = ev->hwlat.seqnum;
	if (!a->seen || ev->hwlat.seqnum > a->seq_max)
		a->seq_max = ev->hwlat.seqnum;
	a->seen++;
	c->samples++;
	if (inner > c->inner_max_ns)
		c->inner_max_ns = inner;
	if (outer > c->outer_max_ns)
		c->outer_max_ns = outer;
	c->nmi_count += ev->hwlat.nmi_count;
	c->nmi_total_ns += ev->hwlat.nmi_total_us * 1000;
	c->above_thresh += ev->hwlat.count;
	/* the event is written when the sample's width ends: the gap lies before it */
	rtm_noise_rec_add(&c->rec, ev->ts_ns, inner > outer ? inner : outer);
	return 0;
}

static json_t *cpu_json(const void *entry, int cpu, json_t *gaps)
{
	const struct hwlat_cpu *c = entry;
	const struct rtm_noise_rec *rec = &c->rec;
	json_t *o;

	o = json_pack("{s:i, s:n, s:n, s:n, s:I, s:n, s:I, s:I, s:o, s:I, s:o, s:n}",
		"cpu", cpu,
		"sampled_ns", "loops", "windows",
		"gaps", (json_int_t)rec->gaps,
		"noise_ns",
		"max_gap_ns", (json_int_t)rec->max_gap_ns,
		"above_report", (json_int_t)rec->above_report,
		"hist", rtm_hist_to_json(rec->hist),
		"gaps_dropped", (json_int_t)rec->dropped,
		"gap_list", gaps,
		"sample_period_ns");
	if (!o)
		return NULL;
	json_object_set_new(o, "samples", json_integer((json_int_t)c->samples));
	json_object_set_new(o, "inner_max_ns", json_integer((json_int_t)c->inner_max_ns));
	json_object_set_new(o, "outer_max_ns", json_integer((json_int_t)c->outer_max_ns));
	json_object_set_new(o, "nmi_count", json_integer((json_int_t)c->nmi_count));
	json_object_set_new(o, "nmi_total_ns", json_integer((json_int_t)c->nmi_total_ns));
	json_object_set_new(o, "gaps_above_threshold", json_integer((json_int_t)c->above_thresh));
	return o;
}

json_t *rtm_hwlat_section(const struct rtm_hwlat_acc *a, const struct rtm_probe_noise_opts *o,
			  uint64_t start_ns, uint64_t duration_ns)
{
	json_t *sec, *cpus = rtm_ktnoise_cpus_json(&a->noise, &o->cpus, start_ns, cpu_json);
	uint64_t span = a->seen ? a->seq_max - a->seq_min + 1 : 0;

	if (!cpus)
		return NULL;
	/* hwlat keeps the largest gap of each window's busy part: one gap per sample */
	sec = json_pack("{s:s, s:s, s:n, s:n, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o}",
		"probe", "hwlat",
		"backend", "hwlat",
		"counter", "counter_hz",
		"window_ns", (json_int_t)o->window_ns,
		"width_ns", (json_int_t)o->width_ns,
		"threshold_ns", (json_int_t)o->threshold_ns,
		"report_above_ns", (json_int_t)o->report_above_ns,
		"start_mono_ns", (json_int_t)start_ns,
		"duration_ns", (json_int_t)duration_ns,
		"samples_lost", (json_int_t)(span > a->seen ? span - a->seen : 0),
		"cpus", cpus);
	return sec;
}

/* ------------------------------------------------ the noise tracers' CPUs */

void *rtm_ktnoise_alloc(size_t acc_size, int ncpus, size_t size, uint64_t report_above_ns,
			uint32_t max_gaps)
{
	struct rtm_ktnoise *n;
	int i;

	if (ncpus <= 0 || acc_size < sizeof(*n) || size < sizeof(struct rtm_noise_rec))
		return NULL;
	n = calloc(1, acc_size);
	if (!n)
		return NULL;
	n->cpu = calloc((size_t)ncpus, size);
	n->ncpus = n->cpu ? ncpus : 0;
	n->size = size;
	for (i = 0; i < n->ncpus; i++)
		if (rtm_noise_rec_init(rtm_ktnoise_cpu(n, i), report_above_ns, max_gaps))
			break;
	if (!n->cpu || i < ncpus) {
		rtm_ktnoise_free(n);
		return NULL;
	}
	return n;
}

void rtm_ktnoise_free(void *acc)
{
	struct rtm_ktnoise *n = acc;
	int i;

	if (!n)
		return;
	for (i = 0; i < n->ncpus; i++)
		rtm_noise_rec_release(rtm_ktnoise_cpu(n, i));
	free(n->cpu);
	free(n);
}

void *rtm_ktnoise_cpu(const struct rtm_ktnoise *n, int cpu)
{
	if (cpu < 0 || cpu >= n->ncpus)
		return NULL;
	return (char *)n->cpu + (size_t)cpu * n->size;
}

/* The gaps of @rec, each at its time since @start_ns. */
static json_t *gap_list(const struct rtm_noise_rec *rec, uint64_t start_ns)
{
	json_t *gaps = json_array();
	uint32_t k;

	for (k = 0; gaps && k < rec->nlog; k++)
		json_array_append_new(gaps, json_pack("[I, I]",
			(json_int_t)(rec->log[k].start_ns > start_ns ?
				     rec->log[k].start_ns - start_ns : 0),
			(json_int_t)rec->log[k].len_ns));
	return gaps;
}

json_t *rtm_ktnoise_cpus_json(const struct rtm_ktnoise *n, const struct rtm_cpulist *cpus,
			      uint64_t start_ns,
			      json_t *(*entry_json)(const void *entry, int cpu, json_t *gaps))
{
	json_t *arr = json_array(), *c;
	const void *entry;
	int i;

	for (i = 0; arr && i < cpus->n; i++) {
		entry = rtm_ktnoise_cpu(n, cpus->cpus[i]);
		if (!entry)
			continue;
		c = entry_json(entry, cpus->cpus[i], gap_list(entry, start_ns));
		if (!c || json_array_append_new(arr, c)) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* ------------------------------------------------ the tracer probes' clock */

#define KTCLOCK_TICK_NS	1000000000ULL

void rtm_ktclock_start(struct rtm_ktclock *c, uint64_t duration_ns)
{
	c->start_ns = rtm_clock_ns(CLOCK_MONOTONIC);
	c->next_tick_ns = c->start_ns + KTCLOCK_TICK_NS;
	c->duration_ns = duration_ns;
}

bool rtm_ktclock_due(struct rtm_ktclock *c, bool boundary)
{
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC);

	if (!boundary)
		return true;
	if (now < c->next_tick_ns)
		return false;
	while (c->next_tick_ns <= now)
		c->next_tick_ns += KTCLOCK_TICK_NS;
	return true;
}

uint64_t rtm_ktclock_end_ns(const struct rtm_ktclock *c)
{
	uint64_t now = c->stopped ? c->stop_ns : rtm_clock_ns(CLOCK_MONOTONIC);

	if (c->duration_ns && now > c->start_ns + c->duration_ns)
		now = c->start_ns + c->duration_ns;
	return now;
}

double rtm_ktclock_elapsed_s(const struct rtm_ktclock *c)
{
	return (double)(rtm_ktclock_end_ns(c) - c->start_ns) / 1e9;
}

bool rtm_ktclock_done(const struct rtm_ktclock *c)
{
	return c->stopped || (c->duration_ns &&
			      rtm_clock_ns(CLOCK_MONOTONIC) >= c->start_ns + c->duration_ns);
}

void rtm_ktclock_stop(struct rtm_ktclock *c)
{
	if (!c->stopped)
		c->stop_ns = rtm_clock_ns(CLOCK_MONOTONIC);
	c->stopped = true;
}
