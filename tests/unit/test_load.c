// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: load kind parsing, the empty load, and the process handling with
 * fake generators (shell scripts named stress-ng and hackbench first in $PATH),
 * so nothing here needs stress-ng or privileges.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "box/load.h"
#include "../tap.h"

struct parse_case {
	const char *in;
	int ok;
	unsigned int kinds;
	const char *msg_has;	/* for failures: a word the message must contain */
};

static const struct parse_case parses[] = {
	{ "cpu", 1, RTM_LOAD_CPU, NULL },
	{ "io", 1, RTM_LOAD_IO, NULL },
	{ "vm", 1, RTM_LOAD_VM, NULL },
	{ "net", 1, RTM_LOAD_NET, NULL },
	{ "io,vm", 1, RTM_LOAD_IO | RTM_LOAD_VM, NULL },
	{ "vm,io", 1, RTM_LOAD_IO | RTM_LOAD_VM, NULL },
	{ "cpu,io,vm,net", 1, RTM_LOAD_ALL, NULL },
	{ "cpu,cpu", 1, RTM_LOAD_CPU, NULL },
	{ "CPU,Vm", 1, RTM_LOAD_CPU | RTM_LOAD_VM, NULL },
	{ "all", 1, RTM_LOAD_ALL, NULL },
	{ "ALL", 1, RTM_LOAD_ALL, NULL },
	{ "all,cpu", 1, RTM_LOAD_ALL, NULL },
	{ "none", 1, 0, NULL },
	{ "none,none", 1, 0, NULL },
	{ "", 0, 0, "empty" },
	{ "cpu,", 0, 0, "empty word" },
	{ ",cpu", 0, 0, "empty word" },
	{ "cpu,,io", 0, 0, "empty word" },
	{ "disk", 0, 0, "unknown load 'disk'" },
	{ "cpu,mem", 0, 0, "unknown load 'mem'" },
	{ "cpus", 0, 0, "unknown load 'cpus'" },
	{ "cp", 0, 0, "unknown load 'cp'" },
	{ "cpu io", 0, 0, "unknown load 'cpu io'" },
	{ " cpu", 0, 0, "unknown" },
	{ "none,cpu", 0, 0, "none alone" },
	{ "all,none", 0, 0, "none alone" },
};

static void test_parse(void)
{
	struct rtm_error err;
	unsigned int i;

	for (i = 0; i < sizeof(parses) / sizeof(parses[0]); i++) {
		const struct parse_case *c = &parses[i];
		unsigned int kinds = 0xdead;
		int ret;

		strcpy(err.msg, "");
		ret = rtm_load_parse(c->in, &kinds, &err);
		if (c->ok) {
			ok(ret == 0 && kinds == c->kinds, "parse '%s' -> 0x%x (%s)", c->in, kinds,
			   err.msg);
		} else {
			ok(ret == -EINVAL && kinds == 0xdead && one_line(err.msg) &&
			   strstr(err.msg, c->msg_has) && strstr(err.msg, "cpu, io, vm, net"),
			   "parse '%s' rejected, names the words: %s", c->in, err.msg);
		}
	}
	ok(rtm_load_parse(NULL, &(unsigned int){ 0 }, NULL) == -EINVAL,
	   "parse NULL with NULL error rejected");
}

static void test_empty_load(void)
{
	struct rtm_error err = { "" };
	struct rtm_load *l;
	json_t *j;
	char *s;

	l = rtm_load_start(0, 2, &err);
	ok(l != NULL, "no load: an empty load object (%s)", err.msg);
	is_str(rtm_load_dir(l), "", "no load: no temporary directory");
	is_int(rtm_load_poll(l, &err), 0, "no load: poll ok");
	j = rtm_load_to_json(l);
	s = j ? json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
	is_str(s, "{\"commands\":[],\"kinds\":[]}", "no load: JSON");
	free(s);
	json_decref(j);
	is_int(rtm_load_stop(l), 0, "no load: stop ok");
	is_int(rtm_load_stop(l), 0, "no load: second stop ok");
	rtm_load_free(l);
	rtm_load_free(NULL);
	ok(rtm_load_to_json(NULL) == NULL, "NULL load: no JSON");

	strcpy(err.msg, "");
	l = rtm_load_start(RTM_LOAD_CPU, 0, &err);
	ok(!l && errno == EINVAL && one_line(err.msg), "0 CPUs rejected: %s", err.msg);
	strcpy(err.msg, "");
	l = rtm_load_start(1u << 8, 1, &err);
	ok(!l && errno == EINVAL && one_line(err.msg), "unknown kind bit rejected: %s", err.msg);
}

static char work[PATH_MAX];

static void write_script(const char *name, const char *body)
{
	char path[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bin/%s", work, name);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "%s", body);
	fclose(f);
	chmod(path, 0755);
}

static void remove_script(const char *name)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/bin/%s", work, name);
	unlink(path);
}

/* Entries in the work directory besides bin/ (load directories left behind). */
static int leftovers(void)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(work);

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "bin"))
			n++;
	closedir(d);
	return n;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int all_reaped(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

#define SH "#!/bin/sh\nPATH=/usr/bin:/bin\n"

static void test_fakes(void)
{
	struct rtm_error err;
	struct rtm_load *l;
	char bin[PATH_MAX + 8], dir[PATH_MAX], log[PATH_MAX + 16];
	json_t *j;
	char *s;
	double t;

	snprintf(bin, sizeof(bin), "%s/bin", work);
	if (mkdir(work, 0700) || mkdir(bin, 0700)) {
		ok(0, "create %s", bin);
		return;
	}
	setenv("TMPDIR", work, 1);
	setenv("PATH", bin, 1);

	strcpy(err.msg, "");
	l = rtm_load_start(RTM_LOAD_CPU, 2, &err);
	ok(!l && errno == ENOENT && !strcmp(err.msg, "stress-ng not found: install it "
					    "(apt-get install stress-ng)"),
	   "no stress-ng in PATH: %s", err.msg);

	write_script("stress-ng", SH "echo 'stress-ng: error: bogus option' >&2\nexit 1\n");
	strcpy(err.msg, "");
	l = rtm_load_start(RTM_LOAD_CPU, 2, &err);
	ok(!l && errno == ECHILD && one_line(err.msg) && strstr(err.msg, "bogus option") &&
	   strstr(err.msg, "exited with status 1 at once") &&
	   strstr(err.msg, "stress-ng --cpu 2 --timeout 0"),
	   "generator failing at once reported with its output: %s", err.msg);
	ok(leftovers() == 0 && all_reaped(), "failed start leaves no directory or child");

	write_script("stress-ng", "#!/nonexistent/interpreter\n");
	strcpy(err.msg, "");
	l = rtm_load_start(RTM_LOAD_VM, 2, &err);
	ok(!l && one_line(err.msg) && strstr(err.msg, "status 127") &&
	   strstr(err.msg, "cannot execute"), "exec failure reported: %s", err.msg);
	ok(leftovers() == 0 && all_reaped(), "failed exec leaves no directory or child");

	write_script("stress-ng", SH "echo started\nsleep 30 &\nsleep 30 &\nwait\n");
	strcpy(err.msg, "");
	l = rtm_load_start(RTM_LOAD_CPU | RTM_LOAD_IO, 3, &err);
	ok(l != NULL, "fake generators start (%s)", err.msg);
	if (l) {
		snprintf(dir, sizeof(dir), "%s", rtm_load_dir(l));
		snprintf(log, sizeof(log), "%s/cpu.log", dir);
		ok(dir[0] && access(log, F_OK) == 0, "log file %s exists", log);
		is_int(rtm_load_poll(l, &err), 0, "poll: generators running");
		j = rtm_load_to_json(l);
		s = j ? json_dumps(j, JSON_COMPACT) : NULL;
		ok(s && strstr(s, "\"kinds\":[\"cpu\",\"io\"]") &&
		   strstr(s, "\"stress-ng --cpu 3 --timeout 0\"") &&
		   strstr(s, "\"stress-ng --hdd 3 --hdd-bytes 64M --temp-path ") &&
		   strstr(s, dir), "JSON records the exact commands: %s", s ? s : "(null)");
		free(s);
		json_decref(j);
		t = now_s();
		is_int(rtm_load_stop(l), 0, "stop");
		t = now_s() - t;
		ok(t < 2.0, "SIGTERM to the groups is enough (%.2f s)", t);
		ok(access(dir, F_OK) != 0 && leftovers() == 0, "load directory removed");
		ok(all_reaped(), "every child reaped");
		is_int(rtm_load_stop(l), 0, "second stop is harmless");
		rtm_load_free(l);
	}

	/* a TMPDIR that is not UTF-8 reaches the JSON as '?', not as a lost load section */
	snprintf(dir, sizeof(dir), "%s/bad\xff", work);
	if (mkdir(dir, 0700)) {
		ok(0, "create %s", dir);
	} else {
		setenv("TMPDIR", dir, 1);
		strcpy(err.msg, "");
		l = rtm_load_start(RTM_LOAD_IO, 1, &err);
		ok(l != NULL, "io load under a non-UTF-8 TMPDIR starts (%s)", err.msg);
		if (l) {
			j = rtm_load_to_json(l);
			s = j ? json_dumps(j, JSON_COMPACT) : NULL;
			ok(s && strstr(s, "/bad?/") && strstr(s, "\"kinds\":[\"io\"]"),
			   "non-UTF-8 bytes of a command become '?': %s", s ? s : "(null)");
			free(s);
			json_decref(j);
			rtm_load_free(l);
		}
		setenv("TMPDIR", work, 1);
		ok(rmdir(dir) == 0 && leftovers() == 0 && all_reaped(),
		   "non-UTF-8 TMPDIR load cleaned up");
	}

	write_script("stress-ng", SH "trap '' TERM\nwhile :; do sleep 0.1; done\n");
	strcpy(err.msg, "");
	l = rtm_load_start(RTM_LOAD_CPU, 1, &err);
	ok(l != NULL, "generator ignoring SIGTERM starts (%s)", err.msg);
	if (l) {
		t = now_s();
		is_int(rtm_load_stop(l), 0, "stop a generator ignoring SIGTERM");
		t = now_s() - t;
		ok(t >= 2.9 && t < 6.0, "SIGKILL after the 3 s grace period (%.2f s)", t);
		ok(leftovers() == 0 && all_reaped(), "nothing left after SIGKILL");
		rtm_load_free(l);
	}

	write_script("stress-ng", SH "sleep 0.6\necho 'worker crashed' >&2\nexit 3\n");
	strcpy(err.msg, "");
	l = rtm_load_start(RTM_LOAD_VM, 1, &err);
	ok(l != NULL, "generator that dies later starts (%s)", err.msg);
	if (l) {
		sleep(1);
		strcpy(err.msg, "");
		ok(rtm_load_poll(l, &err) == -ECHILD && one_line(err.msg) &&
		   strstr(err.msg, "worker crashed") && strstr(err.msg, "while measuring") &&
		   strstr(err.msg, "(stress-ng --vm 1 --vm-bytes ") &&
		   strstr(err.msg, "M --timeout 0)"),
		   "poll reports the dead generator: %s", err.msg);
		rtm_load_free(l);
		ok(leftovers() == 0 && all_reaped(), "free stops and cleans up");
	}

	/* net uses hackbench when there is one, even without stress-ng */
	remove_script("stress-ng");
	write_script("hackbench", SH "sleep 30\n");
	strcpy(err.msg, "");
	l = rtm_load_start(RTM_LOAD_NET, 2, &err);
	ok(l != NULL, "net load with hackbench only (%s)", err.msg);
	if (l) {
		j = rtm_load_to_json(l);
		s = j ? json_dumps(j, JSON_COMPACT) : NULL;
		ok(s && strstr(s, "\"hackbench -P -g 2 -f 4 -s 512 -l 100000000\""),
		   "hackbench command: %s", s ? s : "(null)");
		free(s);
		json_decref(j);
		rtm_load_free(l);
		ok(leftovers() == 0 && all_reaped(), "hackbench stopped and cleaned up");
	}
	strcpy(err.msg, "");
	l = rtm_load_start(RTM_LOAD_NET | RTM_LOAD_CPU, 2, &err);
	ok(!l && errno == ENOENT && strstr(err.msg, "stress-ng not found"),
	   "cpu load still needs stress-ng: %s", err.msg);
	remove_script("hackbench");
	rmdir(bin);
	rmdir(work);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(work, sizeof(work), "%s/rtm-test-load.%d", tmp && *tmp ? tmp : "/tmp",
		 (int)getpid());
	test_parse();
	test_empty_load();
	test_fakes();
	return tap_done();
}
