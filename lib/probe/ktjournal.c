// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ktjournal.c - the kernel tracers' global settings as a killed run leaves
 * them for the next one: the settings a run saved, written as JSON to a
 * journal in the lock directory (core/runlock.h) before the first one is
 * changed and held locked for the run's life; the next run puts back those
 * of every journal whose lock it can take, through the tracers' own restore
 * functions (their order rules: width before window or after).
 *
 * A journal reads {"tracer": "hwlat", "tracefs": DIR, "pid": N,
 * "files": {"tracing_thresh": "0", "hwlat_detector/width": "500000", ...}}:
 * each saved file's path below DIR and its text. Only the files the tracer's
 * table names are read back, into its saved struct, so a journal can write
 * nothing else, anywhere else.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/runlock.h"
#include "probe/ktracer.h"

#define KIND		"ktracer"
#define JOURNAL_MAX	65536		/* a journal is a few hundred bytes */

/* A saved setting: its file below tracefs and its place in the saved struct. */
struct jfile {
	const char *rel;
	size_t off, len;
	bool optional;			/* "" when the kernel has no such file */
};

#define JF(type, field, rel, optional) \
	{ rel, offsetof(type, field), sizeof(((type *)0)->field), optional }

static const struct jfile hwlat_files[] = {
	JF(struct rtm_hwlat_saved, thresh, "tracing_thresh", false),
	JF(struct rtm_hwlat_saved, width, "hwlat_detector/width", false),
	JF(struct rtm_hwlat_saved, window, "hwlat_detector/window", false),
	JF(struct rtm_hwlat_saved, mode, "hwlat_detector/mode", true),
};

static const struct jfile osnoise_files[] = {
	JF(struct rtm_osnoise_saved, thresh, "tracing_thresh", false),
	JF(struct rtm_osnoise_saved, runtime, "osnoise/runtime_us", false),
	JF(struct rtm_osnoise_saved, period, "osnoise/period_us", false),
	JF(struct rtm_osnoise_saved, stop, "osnoise/stop_tracing_us", false),
	JF(struct rtm_osnoise_saved, stop_total, "osnoise/stop_tracing_total_us", false),
	JF(struct rtm_osnoise_saved, cpus, "osnoise/cpus", true),
};

static const struct jfile timerlat_files[] = {
	JF(struct rtm_timerlat_saved, period, "osnoise/timerlat_period_us", false),
	JF(struct rtm_timerlat_saved, stop, "osnoise/stop_tracing_us", false),
	JF(struct rtm_timerlat_saved, stop_total, "osnoise/stop_tracing_total_us", false),
	JF(struct rtm_timerlat_saved, print_stack, "osnoise/print_stack", true),
	JF(struct rtm_timerlat_saved, cpus, "osnoise/cpus", true),
};

static int hwlat_put_back(const char *dir, const void *s)
{
	return rtm_hwlat_restore(dir, s);
}

static int osnoise_put_back(const char *dir, const void *s)
{
	return rtm_osnoise_restore(dir, s);
}

static int timerlat_put_back(const char *dir, const void *s)
{
	return rtm_timerlat_restore(dir, s);
}

union saved {
	struct rtm_hwlat_saved hwlat;
	struct rtm_osnoise_saved osnoise;
	struct rtm_timerlat_saved timerlat;
};

static const struct jtracer {
	const char *name;
	const char *sibling;		/* shares the settings: in use, they are too */
	const struct jfile *files;
	size_t n;
	int (*put_back)(const char *dir, const void *saved);
} tracers[] = {
	{ "hwlat", NULL, hwlat_files, sizeof(hwlat_files) / sizeof(hwlat_files[0]),
	  hwlat_put_back },
	{ "osnoise", "timerlat", osnoise_files, sizeof(osnoise_files) / sizeof(osnoise_files[0]),
	  osnoise_put_back },
	{ "timerlat", "osnoise", timerlat_files,
	  sizeof(timerlat_files) / sizeof(timerlat_files[0]), timerlat_put_back },
};

static const struct jtracer *find_tracer(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(tracers) / sizeof(tracers[0]); i++)
		if (!strcmp(tracers[i].name, name))
			return &tracers[i];
	return NULL;
}

static char *field(const void *saved, const struct jfile *f)
{
	return (char *)saved + f->off;
}

/* The journal's text; NULL when out of memory. */
static char *journal_text(const struct jtracer *t, const char *dir, const void *saved)
{
	json_t *files = json_object(), *root;
	char *text;
	size_t i;

	if (!files)
		return NULL;
	for (i = 0; i < t->n; i++)
		if (json_object_set_new(files, t->files[i].rel,
					json_string(field(saved, &t->files[i])))) {
			json_decref(files);
			return NULL;
		}
	root = json_pack("{s:s, s:s, s:I, s:o}", "tracer", t->name, "tracefs", dir,
			 "pid", (json_int_t)getpid(), "files", files);
	if (!root)
		return NULL;
	text = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	return text;
}

int rtm_ktjournal_write(struct rtm_ktjournal *j, const char *dir, const char *tracer,
			const void *saved, struct rtm_error *err)
{
	const struct jtracer *t = find_tracer(tracer);
	char *text;
	int fd;

	j->name[0] = '\0';
	j->fd = -1;
	if (!t)
		return rtm_error_setn(err, -EINVAL, "no journal for the %s tracer", tracer);
	text = journal_text(t, dir, saved);
	if (!text)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	fd = rtm_runlock_journal_create(KIND, text, j->name, sizeof(j->name), err);
	free(text);
	if (fd < 0) {
		j->name[0] = '\0';
		return fd;
	}
	j->fd = fd;
	return 0;
}

void rtm_ktjournal_close(struct rtm_ktjournal *j, bool restored)
{
	if (!j->name[0])
		return;
	if (restored)
		rtm_runlock_journal_remove(j->name, j->fd);
	else
		close(j->fd);	/* unlocked: the next run puts the settings back */
	j->name[0] = '\0';
	j->fd = -1;
}

/* ----------------------------------------------------- the next run's side */

struct recover {
	const char *dir;
	rtm_ktjournal_note_fn note;
	void *arg;
	int applied;
};

static void note(struct recover *c, bool warning, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note(struct recover *c, bool warning, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	if (!c->note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->note(warning, msg, c->arg);
}

/* Journal @fd's JSON; NULL with @why set when it is unreadable or no JSON object. */
static json_t *journal_load(int fd, char *why, size_t len)
{
	char *buf = malloc(JOURNAL_MAX + 1);
	size_t used = 0;
	json_error_t jerr;
	json_t *root;
	ssize_t n;

	if (!buf) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	while (used <= JOURNAL_MAX && (n = read(fd, buf + used, JOURNAL_MAX + 1 - used)) > 0)
		used += (size_t)n;
	if (used > JOURNAL_MAX) {
		snprintf(why, len, "larger than %d bytes", JOURNAL_MAX);
		root = NULL;
	} else {
		root = json_loadb(buf, used, JSON_REJECT_DUPLICATES, &jerr);
		if (!root)
			snprintf(why, len, "not JSON (%s)", jerr.text);
		else if (!json_is_object(root))
			snprintf(why, len, "not a JSON object");
	}
	free(buf);
	if (root && !json_is_object(root)) {
		json_decref(root);
		root = NULL;
	}
	return root;
}

/* A saved text as the kernel gave it: printable, one line, and it fits. */
static bool plain(const char *s, size_t max)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return i < max;
}

/* @files into @saved by @t's table; 0, or -EINVAL with @why naming the entry. */
static int journal_fields(const struct jtracer *t, const json_t *files, void *saved,
			  char *why, size_t len)
{
	const char *s;
	size_t i;

	if (!json_is_object(files)) {
		snprintf(why, len, "no \"files\" object");
		return -EINVAL;
	}
	memset(saved, 0, sizeof(union saved));
	for (i = 0; i < t->n; i++) {
		s = json_string_value(json_object_get(files, t->files[i].rel));
		if (!s || !plain(s, t->files[i].len) || (!*s && !t->files[i].optional)) {
			snprintf(why, len, "%s is missing or not a setting's text",
				 t->files[i].rel);
			return -EINVAL;
		}
		strcpy(field(saved, &t->files[i]), s);
	}
	return 0;
}

/* "tracing_thresh 0, hwlat_detector/width 500000, ..." into @buf. */
static void list_settings(const struct jtracer *t, const void *saved, char *buf, size_t len)
{
	size_t i, used = 0;
	const char *v;

	buf[0] = '\0';
	for (i = 0; i < t->n && used < len; i++) {
		v = field(saved, &t->files[i]);
		if (*v)
			used += (size_t)snprintf(buf + used, len - used, "%s%s %s",
						 used ? ", " : "", t->files[i].rel, v);
	}
}

/* The tracer (or one sharing its settings) runs: @where, its current_tracer. */
static bool tracer_busy(const char *dir, const struct jtracer *t, char *where, size_t len)
{
	return rtm_ktracer_in_use(dir, t->name, where, len) ||
	       (t->sibling && rtm_ktracer_in_use(dir, t->sibling, where, len));
}

/* Put back the settings of one parsed journal; its verdict. */
static enum rtm_journal_verdict apply(struct recover *c, const char *name, const json_t *root)
{
	const struct jtracer *t = find_tracer(json_string_value(json_object_get(root, "tracer")));
	const char *tracefs = json_string_value(json_object_get(root, "tracefs"));
	json_int_t pid = json_integer_value(json_object_get(root, "pid"));
	char why[256], list[1024], where[4200];
	union saved saved;
	int ret;

	if (!t || !tracefs) {
		note(c, true, "ignored the journal %s/%s a killed rtmeasure left: it names no "
		     "known tracer and tracefs (removed)", rtm_runlock_dir(), name);
		return RTM_JOURNAL_REMOVE;
	}
	if (journal_fields(t, json_object_get(root, "files"), &saved, why, sizeof(why))) {
		note(c, true, "ignored the journal %s/%s a killed rtmeasure left: %s (removed)",
		     rtm_runlock_dir(), name, why);
		return RTM_JOURNAL_REMOVE;
	}
	if (strcmp(tracefs, c->dir)) {
		note(c, true, "left the %s settings a killed rtmeasure changed in %s for a run "
		     "that uses it (this one uses %s): %s/%s", t->name, tracefs, c->dir,
		     rtm_runlock_dir(), name);
		return RTM_JOURNAL_KEEP;
	}
	if (!rtm_ktracer_has(c->dir, t->name)) {
		note(c, true, "cannot restore the %s settings a killed rtmeasure changed: this "
		     "kernel has no %s tracer (journal %s/%s removed)", t->name, t->name,
		     rtm_runlock_dir(), name);
		return RTM_JOURNAL_REMOVE;
	}
	/* a user's own settings are theirs while they run; ours go back after them */
	if (tracer_busy(c->dir, t, where, sizeof(where))) {
		note(c, true, "left the %s settings a killed rtmeasure changed for a later run: "
		     "the tracer is in use (%s)", t->name, where);
		return RTM_JOURNAL_KEEP;
	}
	list_settings(t, &saved, list, sizeof(list));
	ret = t->put_back(c->dir, &saved);
	if (ret) {
		note(c, true, "could not restore all the %s settings a killed rtmeasure changed "
		     "(pid %lld: %s) under %s: %s (journal removed)", t->name, (long long)pid,
		     list, c->dir, strerror(-ret));
		return RTM_JOURNAL_REMOVE;
	}
	c->applied++;
	note(c, false, "restored the %s settings a killed rtmeasure changed (pid %lld: %s)",
	     t->name, (long long)pid, list);
	return RTM_JOURNAL_REMOVE;
}

static enum rtm_journal_verdict recover_one(const char *name, int fd, void *arg)
{
	struct recover *c = arg;
	enum rtm_journal_verdict v;
	char why[256];
	json_t *root;

	root = journal_load(fd, why, sizeof(why));
	if (!root) {
		note(c, true, "ignored the journal %s/%s a killed rtmeasure left: %s (removed)",
		     rtm_runlock_dir(), name, why);
		return RTM_JOURNAL_REMOVE;
	}
	v = apply(c, name, root);
	json_decref(root);
	return v;
}

int rtm_ktjournal_recover(const char *dir, rtm_ktjournal_note_fn fn, void *arg)
{
	struct recover c = { .dir = dir, .note = fn, .arg = arg };

	rtm_runlock_journal_each(KIND, recover_one, &c);
	return c.applied;
}

static enum rtm_journal_verdict count_one(const char *name, int fd, void *arg)
{
	(void)name;
	(void)fd;
	(void)arg;
	return RTM_JOURNAL_KEEP;
}

bool rtm_ktjournal_pending(void)
{
	return rtm_runlock_journal_each(KIND, count_one, NULL) > 0;
}
