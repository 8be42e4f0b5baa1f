// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the kernel tracers' settings journal (lib/probe/ktjournal.c)
 * without root or tracefs: hwlat's, osnoise's and timerlat's settings files in
 * a fake tracefs tree, the journals in a private lock directory. "Killed" is a
 * child that saves, journals and changes the settings, then _exit()s without
 * putting them back: its lock goes with it, its journal stays. A live owner is
 * this process holding a journal: flock(2) locks of two open() calls conflict.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "core/fileio.h"
#include "probe/ktracer.h"
#include "../tap.h"

static char tree[] = "/tmp/rtm-ktjournal-tree.XXXXXX";
static char locks[] = "/tmp/rtm-ktjournal-locks.XXXXXX";

/* The lines rtm_ktjournal_recover() gave. */
struct notes {
	int n, warnings;
	char last[2048];
};

static void on_note(bool warning, const char *msg, void *arg)
{
	struct notes *s = arg;

	s->n++;
	s->warnings += warning;
	snprintf(s->last, sizeof(s->last), "%s", msg);
}

static int put(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static bool same(const char *rel, const char *text)
{
	char buf[256];

	return rtm_read_small(tree, rel, buf, sizeof(buf)) >= 0 && !strcmp(buf, text);
}

/* The journals in the lock directory: how many, the last one's name into @name. */
static int journals(char *name, size_t len)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(locks);

	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);

		if (l > 8 && !strcmp(de->d_name + l - 8, ".journal")) {
			n++;
			if (name)
				snprintf(name, len, "%s", de->d_name);
		}
	}
	closedir(d);
	return n;
}

static void hwlat_as_found(void)
{
	put(tree, "available_tracers", "timerlat osnoise hwlat nop\n");
	put(tree, "current_tracer", "nop\n");
	put(tree, "tracing_thresh", "0\n");
	put(tree, "hwlat_detector/width", "500000\n");
	put(tree, "hwlat_detector/window", "1000000\n");
	put(tree, "hwlat_detector/mode", "none [round-robin] per-cpu\n");
}

/* As hwlat_as_found() wrote them: nothing written since. */
static bool hwlat_untouched(void)
{
	return same("tracing_thresh", "0") && same("hwlat_detector/width", "500000") &&
	       same("hwlat_detector/window", "1000000") &&
	       same("hwlat_detector/mode", "none [round-robin] per-cpu");
}

/* As a restore writes them back (the mode: its selected word). */
static bool hwlat_back(void)
{
	return same("tracing_thresh", "0") && same("hwlat_detector/width", "500000") &&
	       same("hwlat_detector/window", "1000000") &&
	       same("hwlat_detector/mode", "round-robin");
}

/* Save, journal: the file, its mode, its content; a clean end removes it. */
static void check_write(void)
{
	struct rtm_ktjournal j = { 0 };
	struct rtm_error err = { "" };
	struct rtm_hwlat_saved s;
	struct notes nt = { 0 };
	char name[256], want[64], path[PATH_MAX];
	json_t *root, *files;
	struct stat st;

	hwlat_as_found();
	is_int(rtm_hwlat_save(tree, &s, &err), 0, "hwlat settings saved");
	is_int(rtm_ktjournal_write(&j, tree, "hwlat", &s, &err), 0, "journal written");
	is_int(journals(name, sizeof(name)), 1, "one journal in the lock directory");
	snprintf(want, sizeof(want), "ktracer-%ld-", (long)getpid());
	ok(!strncmp(name, want, strlen(want)) && strlen(name) == strlen(want) + 16 + 8,
	   "named ktracer-PID-<64 random bits>.journal: %s", name);
	snprintf(path, sizeof(path), "%s/%s", locks, name);
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600 && S_ISREG(st.st_mode),
	   "a regular file only its owner reads");
	root = json_load_file(path, 0, NULL);
	files = json_object_get(root, "files");
	ok(root && !strcmp(json_string_value(json_object_get(root, "tracer")), "hwlat") &&
	   !strcmp(json_string_value(json_object_get(root, "tracefs")), tree) &&
	   json_integer_value(json_object_get(root, "pid")) == getpid(),
	   "it names the tracer, tracefs and the run");
	ok(json_object_size(files) == 4 &&
	   !strcmp(json_string_value(json_object_get(files, "tracing_thresh")), "0") &&
	   !strcmp(json_string_value(json_object_get(files, "hwlat_detector/width")), "500000") &&
	   !strcmp(json_string_value(json_object_get(files, "hwlat_detector/window")),
		   "1000000") &&
	   !strcmp(json_string_value(json_object_get(files, "hwlat_detector/mode")),
		   "round-robin"), "each saved file's path and text");
	json_decref(root);

	/* the run lives: its journal is nobody else's business */
	is_int(rtm_hwlat_apply(tree, 10, 100000, 200000, "per-cpu", &err), 0, "applied");
	ok(!rtm_ktjournal_pending(), "a live run's journal is not pending");
	is_int(rtm_ktjournal_recover(tree, on_note, &nt), 0, "nothing applied while it lives");
	ok(nt.n == 0 && journals(NULL, 0) == 1 && same("hwlat_detector/width", "100000"),
	   "a live owner's journal and settings left alone, silently");

	is_int(rtm_hwlat_restore(tree, &s), 0, "the run puts the settings back");
	rtm_ktjournal_close(&j, true);
	is_int(journals(NULL, 0), 0, "a clean restore removes the journal");
	rtm_ktjournal_close(&j, true);
	ok(hwlat_back(), "closing twice is harmless");
}

/* A child that saves, journals and changes @tracer's settings, then dies. */
static pid_t killed_run(const char *tracer)
{
	struct rtm_ktjournal j = { 0 };
	struct rtm_error err = { "" };
	struct rtm_osnoise_saved os;
	struct rtm_hwlat_saved hs;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (!strcmp(tracer, "hwlat"))
			_exit(rtm_hwlat_save(tree, &hs, &err) ||
			      rtm_ktjournal_write(&j, tree, "hwlat", &hs, &err) ||
			      rtm_hwlat_apply(tree, 10, 100000, 200000, "per-cpu", &err));
		_exit(rtm_osnoise_save(tree, &os, &err) ||
		      rtm_ktjournal_write(&j, tree, "osnoise", &os, &err) ||
		      rtm_osnoise_apply(tree, 5, 50000, 100000, "1", &err));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return pid;
}

/* A killed run's settings put back by the next run, which says so. */
static void check_recover(void)
{
	struct notes nt = { 0 };
	char want[128];
	pid_t pid;

	hwlat_as_found();
	pid = killed_run("hwlat");
	ok(pid > 0, "a run saved, journalled, changed hwlat's settings and was killed");
	ok(same("hwlat_detector/width", "100000") && journals(NULL, 0) == 1,
	   "its settings and its journal stay");
	ok(rtm_ktjournal_pending(), "the killed run's journal is pending");
	is_int(rtm_ktjournal_recover(tree, on_note, &nt), 1, "the next run applies it");
	ok(hwlat_back(), "every hwlat setting back as the killed run found it");
	is_int(journals(NULL, 0), 0, "the journal is gone");
	snprintf(want, sizeof(want), "restored the hwlat settings a killed rtmeasure changed "
		 "(pid %ld: tracing_thresh 0, hwlat_detector/width 500000, ", (long)pid);
	ok(nt.n == 1 && !nt.warnings && !strncmp(nt.last, want, strlen(want)) &&
	   strstr(nt.last, "hwlat_detector/mode round-robin)"), "one line says so: %s", nt.last);
	ok(!rtm_ktjournal_pending(), "nothing pending after");

	/* osnoise: its own files, and width/period written in the order the kernel needs */
	put(tree, "osnoise/runtime_us", "1000000\n");
	put(tree, "osnoise/period_us", "1000000\n");
	put(tree, "osnoise/stop_tracing_us", "0\n");
	put(tree, "osnoise/stop_tracing_total_us", "500\n");
	put(tree, "osnoise/cpus", "0-3\n");
	pid = killed_run("osnoise");
	ok(pid > 0 && same("osnoise/cpus", "1") && same("osnoise/runtime_us", "50000"),
	   "a killed osnoise run changed its settings");
	nt.n = nt.warnings = 0;
	is_int(rtm_ktjournal_recover(tree, on_note, &nt), 1, "its journal applied");
	ok(same("osnoise/runtime_us", "1000000") && same("osnoise/period_us", "1000000") &&
	   same("osnoise/cpus", "0-3") && same("osnoise/stop_tracing_total_us", "500") &&
	   same("tracing_thresh", "0"), "every osnoise setting back");
	ok(nt.n == 1 && strstr(nt.last, "restored the osnoise settings") &&
	   strstr(nt.last, "osnoise/cpus 0-3"), "said: %s", nt.last);
}

/* Journals that cannot be applied now: a warning, then removed or left with the reason. */
static void check_not_applied(void)
{
	struct notes nt = { 0 };
	char path[PATH_MAX];

	/* the tracer (or timerlat, which shares its settings) runs: left for a later run */
	hwlat_as_found();
	killed_run("osnoise");
	snprintf(path, sizeof(path), "%s/instances", tree);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/instances/other", tree);
	mkdir(path, 0755);
	put(tree, "instances/other/current_tracer", "timerlat\n");
	is_int(rtm_ktjournal_recover(tree, on_note, &nt), 0, "not applied under a running tracer");
	ok(nt.n == 1 && nt.warnings == 1 && strstr(nt.last, "in use") &&
	   strstr(nt.last, "instances/other/current_tracer") && journals(NULL, 0) == 1 &&
	   same("osnoise/cpus", "1"), "warned, journal left: %s", nt.last);
	put(tree, "instances/other/current_tracer", "nop\n");
	nt.n = 0;
	is_int(rtm_ktjournal_recover(tree, on_note, &nt), 1, "applied once the tracer stopped");
	ok(same("osnoise/cpus", "0-3") && journals(NULL, 0) == 0, "settings back, journal gone");

	/* another tracefs: left for the run that uses it */
	killed_run("hwlat");
	nt.n = nt.warnings = 0;
	is_int(rtm_ktjournal_recover("/elsewhere", on_note, &nt), 0, "not for this tracefs");
	ok(nt.warnings == 1 && strstr(nt.last, "/elsewhere") && journals(NULL, 0) == 1,
	   "warned, journal left: %s", nt.last);

	/* a kernel without the tracer (another kernel booted with /run kept): removed */
	put(tree, "available_tracers", "function nop\n");
	nt.n = nt.warnings = 0;
	is_int(rtm_ktjournal_recover(tree, on_note, &nt), 0, "no hwlat tracer: not applied");
	ok(nt.warnings == 1 && strstr(nt.last, "this kernel has no hwlat tracer") &&
	   journals(NULL, 0) == 0 && same("hwlat_detector/width", "100000"),
	   "warned, journal removed, nothing written: %s", nt.last);
	hwlat_as_found();
}

static const char *const corrupt[] = {
	"",
	"{",
	"[]",
	"null",
	"\"hwlat\"",
	"{\"tracer\": \"hwlat\"}",
	"{\"tracer\": 7, \"tracefs\": \"@\", \"files\": {}}",
	"{\"tracer\": \"function\", \"tracefs\": \"@\", \"files\": {}}",
	"{\"tracer\": \"hwlat\", \"tracefs\": \"@\"}",
	"{\"tracer\": \"hwlat\", \"tracefs\": \"@\", \"files\": []}",
	"{\"tracer\": \"hwlat\", \"tracefs\": \"@\", \"files\": {\"tracing_thresh\": \"9\"}}",
	/* a number where the text goes */
	"{\"tracer\": \"hwlat\", \"tracefs\": \"@\", \"files\": {\"tracing_thresh\": \"9\", "
	"\"hwlat_detector/width\": 9, \"hwlat_detector/window\": \"9\", "
	"\"hwlat_detector/mode\": \"\"}}",
	/* a second line in a value */
	"{\"tracer\": \"hwlat\", \"tracefs\": \"@\", \"files\": {\"tracing_thresh\": \"9\\n8\", "
	"\"hwlat_detector/width\": \"9\", \"hwlat_detector/window\": \"9\", "
	"\"hwlat_detector/mode\": \"\"}}",
	/* longer than the setting's buffer */
	"{\"tracer\": \"hwlat\", \"tracefs\": \"@\", \"files\": {\"tracing_thresh\": "
	"\"123456789012345678901234567890123\", \"hwlat_detector/width\": \"9\", "
	"\"hwlat_detector/window\": \"9\", \"hwlat_detector/mode\": \"\"}}",
	/* a required setting empty */
	"{\"tracer\": \"hwlat\", \"tracefs\": \"@\", \"files\": {\"tracing_thresh\": \"\", "
	"\"hwlat_detector/width\": \"9\", \"hwlat_detector/window\": \"9\", "
	"\"hwlat_detector/mode\": \"\"}}",
	/* the same key twice */
	"{\"tracer\": \"hwlat\", \"tracer\": \"osnoise\", \"tracefs\": \"@\", \"files\": {}}",
};

/* Write @text (its "@" is the fake tree) as a killed run's journal; 0 or -1. */
static int plant(const char *name, const char *text)
{
	char path[PATH_MAX], *at;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", locks, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	for (; (at = strchr(text, '@')) != NULL; text = at + 1)
		fprintf(f, "%.*s%s", (int)(at - text), text, tree);
	fputs(text, f);
	return fclose(f);
}

static void check_corrupt(void)
{
	struct notes nt;
	char big[70000];
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(corrupt) / sizeof(corrupt[0]); i++) {
		memset(&nt, 0, sizeof(nt));
		plant("ktracer-1-bad.journal", corrupt[i]);
		if (rtm_ktjournal_recover(tree, on_note, &nt) != 0 || nt.warnings != 1 ||
		    !strstr(nt.last, "ktracer-1-bad.journal") || !strstr(nt.last, "removed") ||
		    journals(NULL, 0) != 0 || !hwlat_untouched()) {
			diag("journal %zu: %s", i, nt.last);
			bad++;
		}
	}
	ok(!bad, "%zu corrupt journals: one warning each naming the file, removed, nothing "
	   "written", sizeof(corrupt) / sizeof(corrupt[0]));

	memset(big, ' ', sizeof(big) - 1);
	big[0] = '{';
	big[sizeof(big) - 2] = '}';
	big[sizeof(big) - 1] = '\0';
	memset(&nt, 0, sizeof(nt));
	plant("ktracer-2-big.journal", big);
	rtm_ktjournal_recover(tree, on_note, &nt);
	ok(nt.warnings == 1 && strstr(nt.last, "larger than") && journals(NULL, 0) == 0,
	   "a huge journal is not read whole: %s", nt.last);
}

/* Mutations of a good journal: every outcome is a line, never a crash or a hang. */
static void check_mutations(void)
{
	char good[1024], text[1100], path[PATH_MAX];
	unsigned int seed = 12345, k, i, len;
	struct notes nt;
	int bad = 0, applied = 0;

	snprintf(good, sizeof(good), "{\"tracer\": \"hwlat\", \"tracefs\": \"%s\", \"pid\": 7, "
		 "\"files\": {\"tracing_thresh\": \"0\", \"hwlat_detector/width\": \"500000\", "
		 "\"hwlat_detector/window\": \"1000000\", \"hwlat_detector/mode\": "
		 "\"round-robin\"}}", tree);
	snprintf(path, sizeof(path), "%s/ktracer-3-fuzz.journal", locks);
	for (k = 0; k < 3000; k++) {
		len = (unsigned int)strlen(good);
		memcpy(text, good, len);
		for (i = 0; i < 1 + k % 4; i++) {
			seed = seed * 1103515245u + 12345u;
			if (seed % 5 == 0)
				len = (seed >> 8) % len + 1;		/* cut */
			else
				text[(seed >> 8) % len] = (char)(seed >> 20);	/* any byte */
		}
		text[len] = '\0';
		memset(&nt, 0, sizeof(nt));
		plant("ktracer-3-fuzz.journal", text);
		applied += rtm_ktjournal_recover(tree, on_note, &nt);
		/* one line each; left only when it names another tracefs */
		if (nt.n != 1 || (access(path, F_OK) == 0) != !!strstr(nt.last, "left the")) {
			diag("mutation %u: %d lines: %s", k, nt.n, nt.last);
			bad++;
		}
		unlink(path);
	}
	ok(!bad, "3000 mutated journals: one line each, removed unless for another tracefs "
	   "(%d still applied)", applied);
	hwlat_as_found();
}

/* What is at a journal's name but no journal of ours is never opened as one. */
static void check_planted(void)
{
	char path[PATH_MAX], target[PATH_MAX];
	struct notes nt = { 0 };
	pid_t pid;

	hwlat_as_found();
	pid = killed_run("hwlat");
	ok(pid > 0, "a killed run's journal to point a link at");
	journals(target, sizeof(target));
	snprintf(path, sizeof(path), "%s/%s", locks, target);
	snprintf(target, sizeof(target), "%s/moved", tree);
	ok(rename(path, target) == 0, "the journal moved out of the lock directory");
	snprintf(path, sizeof(path), "%s/ktracer-4-link.journal", locks);
	ok(symlink(target, path) == 0, "a symbolic link at a journal's name");
	snprintf(path, sizeof(path), "%s/ktracer-5-fifo.journal", locks);
	ok(mkfifo(path, 0600) == 0, "a FIFO at a journal's name");
	is_int(rtm_ktjournal_recover(tree, on_note, &nt), 0, "neither applied");
	ok(nt.n == 0 && same("hwlat_detector/width", "100000") && !rtm_ktjournal_pending(),
	   "the link is not followed, the FIFO does not block, both are left silently");
	hwlat_as_found();
}

int main(void)
{
	char cmd[PATH_MAX * 2 + 16], sub[PATH_MAX];

	if (!mkdtemp(tree) || !mkdtemp(locks)) {
		ok(0, "temporary folders");
		return tap_done();
	}
	setenv("RTMEASURE_LOCK_DIR", locks, 1);
	snprintf(sub, sizeof(sub), "%s/hwlat_detector", tree);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/osnoise", tree);
	mkdir(sub, 0755);
	check_write();
	check_recover();
	check_not_applied();
	check_corrupt();
	check_mutations();
	check_planted();
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", tree, locks);
	if (system(cmd))
		diag("could not remove %s and %s", tree, locks);
	return tap_done();
}
