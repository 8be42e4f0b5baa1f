// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cost.c - the throughput workload of `rtmeasure run --throughput`: stress-ng
 * stressors run one after another on the measured CPUs, their bogo-ops per
 * second of real time read from stress-ng's YAML metrics, and the
 * "throughput" section of result.json.
 *
 * The workload runs after the latency phase, with no probe and no --load
 * running, so neither disturbs the other: the latency is measured as asked,
 * and the score is that of the kernel (its preemption model, threaded
 * interrupts, sleeping locks), not of a contest with the probes.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "box/cost.h"
#include "core/fileio.h"
#include "core/jsonutil.h"
#include "box/load.h"
#include "core/tmpdir.h"
#include "core/units.h"

extern char **environ;

#define COST_POLL_MS		50
#define COST_GRACE_S		30	/* beyond --timeout before stress-ng is killed */
#define COST_TERM_MS		3000
#define COST_MAX_ARGS		24
#define COST_TAIL_MAX		200

const char *const rtm_cost_stressor_names[RTM_COST_NSTRESSORS] = {
	[RTM_COST_CPU] = "cpu",
	[RTM_COST_SWITCH] = "switch",
	[RTM_COST_SOCK] = "sock",
};

#define COST_WORDS "cpu, switch, sock (comma-separated) or all"

int rtm_cost_parse_stressors(const char *list, unsigned int *bits, struct rtm_error *err)
{
	const char *p, *end;
	unsigned int b = 0;
	size_t len;
	int i;

	if (!list || !*list)
		return rtm_error_set(err, "empty stressor list (use " COST_WORDS ")");
	for (p = list;; p = end + 1) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		len = (size_t)(end - p);
		if (!len)
			return rtm_error_set(err, "empty word in stressor list '%s' (use "
					     COST_WORDS ")", list);
		if (len == 3 && !strncasecmp(p, "all", 3)) {
			b |= (1u << RTM_COST_NSTRESSORS) - 1;
		} else {
			for (i = 0; i < RTM_COST_NSTRESSORS; i++)
				if (strlen(rtm_cost_stressor_names[i]) == len &&
				    !strncasecmp(p, rtm_cost_stressor_names[i], len))
					break;
			if (i == RTM_COST_NSTRESSORS)
				return rtm_error_set(err, "unknown stressor '%.*s' in '%s' (use "
						     COST_WORDS ")", (int)len, p, list);
			b |= 1u << i;
		}
		if (!*end)
			break;
	}
	*bits = b;
	return 0;
}

int rtm_cost_check(const struct rtm_cost_opts *o, struct rtm_error *err)
{
	char exe[PATH_MAX];

	if (!o->stressors || o->stressors >> RTM_COST_NSTRESSORS)
		return rtm_error_set(err, "no stressor to run (use " COST_WORDS ")");
	if (o->workers < 1)
		return rtm_error_set(err, "%d workers: give 1 or more", o->workers);
	if (o->time_ns < 1000000000ULL || o->time_ns % 1000000000ULL)
		return rtm_error_set(err, "the time of each stressor must be whole seconds, "
				     "1s or more");
	if (o->reps < 1 || o->reps > RTM_COST_MAX_REPS)
		return rtm_error_set(err, "%d repetitions: give 1 to %d", o->reps,
				     RTM_COST_MAX_REPS);
	if (!rtm_find_exe("stress-ng", exe, sizeof(exe)))
		return rtm_error_setn(err, -ENOENT, "stress-ng not found: install it "
				      "(apt-get install stress-ng)");
	return 0;
}

/* ---------------------------------------------------------------- YAML */

/* A line's indentation, key and value ("" when none); false when it holds no "key:". */
static bool yaml_kv(char *line, int *indent, bool *item, char **key, char **val)
{
	char *p = line, *colon, *e;

	while (*p == ' ')
		p++;
	*indent = (int)(p - line);
	*item = false;
	if (p[0] == '-' && p[1] == ' ') {
		*item = true;
		p += 2;
		while (*p == ' ')
			p++;
	}
	colon = strstr(p, ": ");
	if (!colon) {
		size_t n = strlen(p);

		if (!n || p[n - 1] != ':')
			return false;
		colon = p + n - 1;
	}
	*colon = '\0';
	*key = p;
	p = colon + 1;
	while (*p == ' ')
		p++;
	e = p + strlen(p);
	while (e > p && isspace((unsigned char)e[-1]))
		*--e = '\0';
	*val = p;
	return **key != '\0';
}

static int yaml_number(const char *s, double *v)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	return errno || *end || !isfinite(*v) || *v < 0 ? -EINVAL : 0;
}

static int yaml_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

enum { HAVE_OPS = 1, HAVE_REAL = 2, HAVE_WALL = 4, HAVE_ALL = 7 };

/* The stressor just ended: did it state what the score needs? */
static int yaml_item_done(const struct rtm_cost_metrics *m, unsigned int have,
			  struct rtm_error *err)
{
	if ((have & HAVE_ALL) == HAVE_ALL)
		return 0;
	return rtm_error_set(err, "stress-ng's YAML: stressor %s has no %s (the file is "
			     "truncated or not stress-ng's --yaml output)", m->stressor,
			     !(have & HAVE_OPS) ? "bogo-ops" : !(have & HAVE_REAL) ?
			     "bogo-ops-per-second-real-time" : "wall-clock-time");
}

/* Where the reader of stress-ng's YAML is, and what it has read. */
struct yaml_doc {
	enum { SECT_NONE, SECT_SYSINFO, SECT_METRICS, SECT_OTHER } sect;
	struct rtm_cost_metrics *m;
	int max;
	int n;				/* the stressor being read, -1 before the first */
	unsigned int have;		/* HAVE_*: what it stated */
	char *version;
	size_t vlen;
};

/* "- stressor: NAME" begins the metrics of the next stressor. */
static int yaml_item(struct yaml_doc *d, const char *key, const char *val, int lineno,
		     struct rtm_error *err)
{
	int ret;

	if (strcmp(key, "stressor"))
		return rtm_error_set(err, "stress-ng's YAML: line %d: a metrics entry starts with "
				     "'%.40s', not 'stressor'", lineno, key);
	if (d->n >= 0 && (ret = yaml_item_done(&d->m[d->n], d->have, err)))
		return ret;
	if (d->n + 1 >= d->max)
		return rtm_error_set(err, "stress-ng's YAML lists more than %d stressors", d->max);
	d->n++;
	memset(&d->m[d->n], 0, sizeof(d->m[d->n]));
	d->m[d->n].rate_usr_sys = NAN;
	snprintf(d->m[d->n].stressor, sizeof(d->m[d->n].stressor), "%s", val);
	d->have = 0;
	return 0;
}

/* A metric of the current stressor; others are left alone. 0, or -EINVAL: not a number. */
static int yaml_metric(struct yaml_doc *d, const char *key, const char *val)
{
	struct rtm_cost_metrics *m = &d->m[d->n];

	if (!strcmp(key, "bogo-ops")) {
		if (yaml_u64(val, &m->bogo_ops))
			return -EINVAL;
		d->have |= HAVE_OPS;
	} else if (!strcmp(key, "bogo-ops-per-second-real-time")) {
		if (yaml_number(val, &m->rate_real))
			return -EINVAL;
		d->have |= HAVE_REAL;
	} else if (!strcmp(key, "wall-clock-time")) {
		if (yaml_number(val, &m->wall_clock_s))
			return -EINVAL;
		d->have |= HAVE_WALL;
	} else if (!strcmp(key, "bogo-ops-per-second-usr-sys-time")) {
		if (yaml_number(val, &m->rate_usr_sys))
			return -EINVAL;
	}
	return 0;
}

/* A line of the document (after its "---"); 0 or -errno with the message. */
static int yaml_line(struct yaml_doc *d, char *line, int lineno, struct rtm_error *err)
{
	int indent;
	bool item;
	char *key, *val;

	if (!yaml_kv(line, &indent, &item, &key, &val))
		return 0;	/* blank lines, comments, list values of other keys */
	if (!indent && !item) {
		d->sect = !strcmp(key, "system-info") ? SECT_SYSINFO :
			  !strcmp(key, "metrics") ? SECT_METRICS : SECT_OTHER;
		return 0;
	}
	if (d->sect == SECT_SYSINFO && !strcmp(key, "stress-ng-version") && d->version &&
	    d->vlen) {
		snprintf(d->version, d->vlen, "%.*s", (int)strcspn(val, " \t'\""), val);
		return 0;
	}
	if (d->sect != SECT_METRICS)
		return 0;
	if (item)
		return yaml_item(d, key, val, lineno, err);
	if (d->n < 0)
		return 0;
	if (yaml_metric(d, key, val))
		return rtm_error_set(err, "stress-ng's YAML: line %d: %s '%.40s' is not a "
				     "non-negative number", lineno, key, val);
	return 0;
}

int rtm_cost_parse_yaml(const char *text, size_t len, struct rtm_cost_metrics *m, int max,
			char *version, size_t vlen, struct rtm_error *err)
{
	struct yaml_doc d = { .sect = SECT_NONE, .m = m, .max = max, .n = -1,
			      .version = version, .vlen = vlen };
	char *buf, *line, *next;
	bool started = false, ended = false;
	int ret = 0, lineno = 0;

	if (version && vlen)
		version[0] = '\0';
	if (memchr(text, '\0', len))
		return rtm_error_set(err, "stress-ng's YAML holds a NUL byte: not a text file");
	buf = strndup(text, len);
	if (!buf)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	for (line = buf; line && !ret && !ended; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!started) {
			if (!strcmp(line, "---"))
				started = true;
			else if (*line && *line != '#')
				ret = rtm_error_set(err, "stress-ng's YAML: line %d does not start "
						    "a YAML document ('---')", lineno);
			continue;
		}
		if (!strcmp(line, "..."))
			ended = true;
		else
			ret = yaml_line(&d, line, lineno, err);
	}
	free(buf);
	if (ret)
		return ret;
	if (!started)
		return rtm_error_set(err, "stress-ng's YAML is empty (stress-ng wrote no metrics)");
	if (d.n >= 0 && (ret = yaml_item_done(&m[d.n], d.have, err)))
		return ret;
	if (!ended)
		return rtm_error_set(err, "stress-ng's YAML stops before its end ('...'): "
				     "truncated (stress-ng was stopped or its disk is full)");
	if (d.n < 0)
		return rtm_error_set(err, "stress-ng's YAML has no metrics (was --metrics "
				     "given?)");
	return d.n + 1;
}

/* ---------------------------------------------------------------- running */

struct cost_run {
	const struct rtm_cost_opts *o;
	const volatile sig_atomic_t *stop;	/* the caller's stop flag, may be NULL */
	char exe[PATH_MAX];
	char dir[PATH_MAX];		/* private temporary folder */
	int dir_fd;			/* the folder, locked while it exists (core/tmpdir.h) */
	char version[32];
	bool stopped;
};

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);	/* EINTR: a signal, the caller polls the stop flag */
}

struct argv_buf {
	char *argv[COST_MAX_ARGS + 1];
	int argc;
	char store[COST_MAX_ARGS][PATH_MAX];
};

static void add_arg(struct argv_buf *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_arg(struct argv_buf *a, const char *fmt, ...)
{
	va_list ap;

	if (a->argc >= COST_MAX_ARGS)
		return;
	va_start(ap, fmt);
	vsnprintf(a->store[a->argc], PATH_MAX, fmt, ap);
	va_end(ap);
	a->argv[a->argc] = a->store[a->argc];
	a->argv[++a->argc] = NULL;
}

static void build_argv(const struct cost_run *cr, int s, const char *yaml, struct argv_buf *a)
{
	const struct rtm_cost_opts *o = cr->o;

	a->argc = 0;
	add_arg(a, "stress-ng");
	add_arg(a, "--%s", rtm_cost_stressor_names[s]);
	add_arg(a, "%d", o->workers);
	if (s == RTM_COST_CPU) {
		add_arg(a, "--cpu-method");
		add_arg(a, "%s", RTM_COST_CPU_METHOD);
	}
	if (o->cpus && *o->cpus) {
		add_arg(a, "--taskset");
		add_arg(a, "%s", o->cpus);
	}
	add_arg(a, "--timeout");
	add_arg(a, "%llu", (unsigned long long)(o->time_ns / 1000000000ULL));
	add_arg(a, "--metrics");
	add_arg(a, "--yaml");
	add_arg(a, "%s", yaml);
}

/* The last non-empty line of the log, for messages. */
static void log_tail(const char *log, char *buf, size_t len)
{
	char *all, *p, *line;
	size_t n = 0;

	snprintf(buf, len, "no output");
	all = rtm_read_all(NULL, log, &n);
	if (!all)
		return;
	while (n > 0 && isspace((unsigned char)all[n - 1]))
		all[--n] = '\0';
	p = strrchr(all, '\n');
	line = p ? p + 1 : all;
	for (p = line; *p; p++)
		if (!isprint((unsigned char)*p))
			*p = ' ';
	if (*line)
		snprintf(buf, len, "%.*s", COST_TAIL_MAX, line);
	free(all);
}

static bool group_alive(pid_t pgid)
{
	return kill(-pgid, 0) == 0 || errno == EPERM;
}

/*
 * SIGTERM to process group @pgid, SIGKILL to what is left after a grace
 * period; reaps the leader (the group's first process) unless @reaped.
 */
static void stop_group(pid_t pgid, bool reaped)
{
	uint64_t end = rtm_clock_ms(CLOCK_MONOTONIC) + COST_TERM_MS;
	int status;

	kill(-pgid, SIGTERM);
	while (rtm_clock_ms(CLOCK_MONOTONIC) < end) {
		if (!reaped && waitpid(pgid, &status, WNOHANG) == pgid)
			reaped = true;
		if (reaped && !group_alive(pgid))
			return;
		sleep_ms(COST_POLL_MS);
	}
	kill(-pgid, SIGKILL);
	if (!reaped)
		waitpid(pgid, &status, 0);
}

/* The child's side of spawn_stress(): only async-signal-safe calls until exec. */
static void __attribute__((noreturn)) stress_child(const struct cost_run *cr, char *const *argv,
						   pid_t parent, int null_fd, int log_fd,
						   int err_fd)
{
	struct sched_param sp = { .sched_priority = 0 };
	struct sigaction sa;
	sigset_t none;
	int e, sig;

	setpgid(0, 0);
	/*
	 * Our death (even SIGKILL) sends stress-ng SIGTERM, on which it stops
	 * its workers: none keeps loading the measured CPUs until its timeout.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
		_exit(127);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &sa, NULL);	/* SIGKILL/SIGSTOP and glibc's own refuse: fine */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(null_fd, STDIN_FILENO) < 0 || dup2(log_fd, STDOUT_FILENO) < 0 ||
	    dup2(log_fd, STDERR_FILENO) < 0 || sched_setscheduler(0, SCHED_OTHER, &sp) < 0 ||
	    chdir(cr->dir) < 0)
		goto fail;
	execve(cr->exe, argv, environ);
fail:
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * Start stress-ng with @a in its own process group, at SCHED_OTHER, its
 * output in @log, sent SIGTERM if this thread dies; 0 or an error number.
 */
static int spawn_stress(const struct cost_run *cr, struct argv_buf *a, const char *log,
			pid_t *pid)
{
	int null_fd, log_fd, pipe_fd[2] = { -1, -1 }, e = 0, status;
	pid_t parent = getpid(), p;
	ssize_t n;

	*pid = -1;
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	log_fd = open(log, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (null_fd < 0 || log_fd < 0 || pipe2(pipe_fd, O_CLOEXEC) < 0) {
		e = errno;
		goto out;
	}
	p = fork();
	if (p < 0) {
		e = errno;
		goto out;
	}
	if (p == 0)
		stress_child(cr, a->argv, parent, null_fd, log_fd, pipe_fd[1]);
	close(pipe_fd[1]);
	pipe_fd[1] = -1;
	/* the exec closes the pipe; an errno on it means the child failed before */
	do
		n = read(pipe_fd[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(e)) {
		waitpid(p, &status, 0);
		e = e ? e : EIO;
	} else {
		e = 0;
		*pid = p;
	}
out:
	if (null_fd >= 0)
		close(null_fd);
	if (log_fd >= 0)
		close(log_fd);
	if (pipe_fd[0] >= 0)
		close(pipe_fd[0]);
	if (pipe_fd[1] >= 0)
		close(pipe_fd[1]);
	return e;
}

/*
 * Wait for stress-ng @pid to end: 0 when it did (its status in @status), 1
 * when the caller stops the run, -errno with the message.
 */
static int wait_stress(const struct cost_run *cr, pid_t pid, int *status, const char *cmdline,
		       struct rtm_error *err)
{
	uint64_t deadline = rtm_clock_ms(CLOCK_MONOTONIC) + cr->o->time_ns / 1000000ULL +
			    COST_GRACE_S * 1000ULL;

	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return rtm_error_setn(err, -errno, "waiting for stress-ng: %s",
					      strerror(errno));
		if (cr->stop && *cr->stop) {
			stop_group(pid, false);
			return 1;
		}
		if (rtm_clock_ms(CLOCK_MONOTONIC) > deadline) {
			stop_group(pid, false);
			return rtm_error_setn(err, -ETIMEDOUT, "%s did not end %d s after its "
					      "--timeout; it was killed", cmdline, COST_GRACE_S);
		}
		sleep_ms(COST_POLL_MS);
	}
	/* its workers are gone with it: stress-ng waits for them before it exits */
	if (group_alive(pid))
		stop_group(pid, true);
	return 0;
}

/* The metrics of stressor @name from stress-ng's YAML file @yaml, its version in @version. */
static int read_metrics(const char *yaml, const char *name, const char *cmdline,
			struct rtm_cost_metrics *m, char *version, size_t vlen,
			struct rtm_error *err)
{
	struct rtm_cost_metrics all_m[RTM_COST_NSTRESSORS + 1];
	size_t len = 0;
	char *text;
	int nm, i;

	text = rtm_read_all(NULL, yaml, &len);
	if (!text)
		return rtm_error_setn(err, -errno, "stress-ng wrote no %s: %s", yaml,
				      strerror(errno));
	nm = rtm_cost_parse_yaml(text, len, all_m, RTM_COST_NSTRESSORS + 1, version, vlen, err);
	free(text);
	if (nm < 0)
		return nm;
	for (i = 0; i < nm; i++)
		if (!strcmp(all_m[i].stressor, name))
			break;
	if (i == nm)
		return rtm_error_set(err, "stress-ng's YAML (%s) has no metrics of the %s "
				     "stressor", cmdline, name);
	*m = all_m[i];
	return 0;
}

/*
 * Run one stressor once; 1 when stopped by the caller, 0 with the metrics,
 * or -errno with the message.
 */
static int run_one(struct cost_run *cr, int s, int rep, struct rtm_cost_metrics *m,
		   char **cmdline, struct rtm_error *err)
{
	const char *name = rtm_cost_stressor_names[s];
	char yaml[PATH_MAX], log[PATH_MAX], tail[COST_TAIL_MAX + 8], version[32];
	struct argv_buf *a;
	int ret, status = 0;
	pid_t pid;

	snprintf(yaml, sizeof(yaml), "%s/%s-%d.yaml", cr->dir, name, rep);
	snprintf(log, sizeof(log), "%s/%s-%d.log", cr->dir, name, rep);
	a = calloc(1, sizeof(*a));
	if (!a)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	build_argv(cr, s, yaml, a);
	if (!*cmdline && !(*cmdline = rtm_shell_join(a->argv))) {
		free(a);
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	ret = spawn_stress(cr, a, log, &pid);
	free(a);
	if (ret)
		return rtm_error_setn(err, -ret, "cannot start %s: %s", *cmdline, strerror(ret));

	ret = wait_stress(cr, pid, &status, *cmdline, err);
	if (ret)
		return ret;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		log_tail(log, tail, sizeof(tail));
		if (WIFSIGNALED(status))
			return rtm_error_setn(err, -ECHILD, "%s was killed by signal %d: %s", *cmdline,
					      WTERMSIG(status), tail);
		return rtm_error_setn(err, -ECHILD, "%s exited with status %d: %s (run it by "
				      "hand to see why)", *cmdline, WEXITSTATUS(status), tail);
	}
	ret = read_metrics(yaml, name, *cmdline, m, version, sizeof(version), err);
	if (ret)
		return ret;
	if (!cr->version[0])
		snprintf(cr->version, sizeof(cr->version), "%s", version);
	unlink(yaml);
	unlink(log);
	return 0;
}

static json_t *rep_json(const struct rtm_cost_metrics *m)
{
	json_t *o = json_pack("{s:o, s:f, s:f}", "bogo_ops", rtm_json_u64(m->bogo_ops),
			      "wall_clock_s", m->wall_clock_s, "bogo_ops_per_s", m->rate_real);

	if (o && isfinite(m->rate_usr_sys))
		json_object_set_new(o, "bogo_ops_per_s_usr_sys", json_real(m->rate_usr_sys));
	return o;
}

/* What the repetitions of each stressor gave. */
struct cost_tally {
	json_t *reps[RTM_COST_NSTRESSORS];
	char *cmd[RTM_COST_NSTRESSORS];
	double sum[RTM_COST_NSTRESSORS];
	int done[RTM_COST_NSTRESSORS];
};

/* cr->dir: a private temporary folder in $TMPDIR or /tmp. */
static int make_tmpdir(struct cost_run *cr, struct rtm_error *err)
{
	return rtm_tmpdir_make("cost", cr->dir, sizeof(cr->dir), &cr->dir_fd, err);
}

/* Every repetition of every stressor asked for, until one fails or the caller stops. */
static int run_all(struct cost_run *cr, struct cost_tally *t, struct rtm_error *err)
{
	const struct rtm_cost_opts *o = cr->o;
	int s, rep, ret = 0;

	/* rep 1: cpu, switch, sock; rep 2: the same again: a drift hits every stressor */
	for (rep = 0; rep < o->reps && !ret && !cr->stopped; rep++) {
		for (s = 0; s < RTM_COST_NSTRESSORS && !ret && !cr->stopped; s++) {
			struct rtm_cost_metrics m = { .bogo_ops = 0 };

			if (!(o->stressors & (1u << s)))
				continue;
			ret = run_one(cr, s, rep, &m, &t->cmd[s], err);
			if (ret == 1) {
				cr->stopped = true;
				ret = 0;
				break;
			}
			if (ret)
				break;
			json_array_append_new(t->reps[s], rep_json(&m));
			t->sum[s] += m.rate_real;
			t->done[s]++;
		}
	}
	return ret;
}

/* sections.throughput: the stressors run, their mean scores and repetitions */
static json_t *cost_section(const struct cost_run *cr, const struct cost_tally *t,
			    uint64_t t0)
{
	const struct rtm_cost_opts *o = cr->o;
	json_t *list = json_array();
	int s;

	for (s = 0; s < RTM_COST_NSTRESSORS; s++) {
		if (!t->done[s])
			continue;
		json_array_append_new(list, json_pack("{s:s, s:o, s:f, s:i, s:O}", "name",
			rtm_cost_stressor_names[s], "command", rtm_json_text(t->cmd[s]),
			"bogo_ops_per_s", t->sum[s] / t->done[s], "repetitions", t->done[s],
			"reps", t->reps[s]));
	}
	return json_pack("{s:s, s:o, s:s, s:i, s:o, s:I, s:i, s:I, s:b, s:o}",
		"tool", "stress-ng",
		"version", cr->version[0] ? rtm_json_text(cr->version) : json_null(),
		"phase", "after the latency phase, without the probes and the --load",
		"workers", o->workers,
		"cpus", o->cpus ? json_string(o->cpus) : json_null(),
		"time_per_stressor_ns", (json_int_t)o->time_ns,
		"repetitions", o->reps,
		"duration_ns", (json_int_t)((rtm_clock_ms(CLOCK_MONOTONIC) - t0) * 1000000ULL),
		"complete", !cr->stopped,
		"stressors", list);
}

json_t *rtm_cost_run(const struct rtm_cost_opts *o, const volatile sig_atomic_t *stop,
		     struct rtm_error *err)
{
	struct cost_run cr = { .o = o, .stop = stop, .dir_fd = -1 };
	struct cost_tally t = { .done = { 0 } };
	uint64_t t0 = rtm_clock_ms(CLOCK_MONOTONIC);
	json_t *sec = NULL;
	int s, ret;

	if (rtm_cost_check(o, err))
		return NULL;
	rtm_find_exe("stress-ng", cr.exe, sizeof(cr.exe));
	if (make_tmpdir(&cr, err))
		return NULL;
	for (s = 0; s < RTM_COST_NSTRESSORS; s++)
		if (o->stressors & (1u << s))
			t.reps[s] = json_array();
	ret = run_all(&cr, &t, err);
	rtm_tmpdir_remove(cr.dir, cr.dir_fd);
	if (!ret) {
		sec = cost_section(&cr, &t, t0);
		if (!sec)
			rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	for (s = 0; s < RTM_COST_NSTRESSORS; s++) {
		json_decref(t.reps[s]);
		free(t.cmd[s]);
	}
	return sec;
}

/* ---------------------------------------------------------------- reading a section */

int rtm_cost_summary_read(const json_t *sec, struct rtm_cost_summary *s, struct rtm_error *err)
{
	const json_t *list, *e, *v;
	size_t i;
	size_t off;

	memset(s, 0, sizeof(*s));
	if (!json_is_object(sec))
		return rtm_error_set(err, "sections.throughput: not an object");
	v = json_object_get(sec, "version");
	if (json_is_string(v))
		snprintf(s->version, sizeof(s->version), "%s", json_string_value(v));
	v = json_object_get(sec, "workers");
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return rtm_error_set(err, "sections.throughput.workers: not a positive integer");
	s->workers = (int)json_integer_value(v);
	v = json_object_get(sec, "time_per_stressor_ns");
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return rtm_error_set(err, "sections.throughput.time_per_stressor_ns: not a "
				     "positive integer");
	s->time_ns = (uint64_t)json_integer_value(v);
	v = json_object_get(sec, "repetitions");
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > RTM_COST_MAX_REPS)
		return rtm_error_set(err, "sections.throughput.repetitions: not 1 to %d",
				     RTM_COST_MAX_REPS);
	s->reps = (int)json_integer_value(v);
	v = json_object_get(sec, "complete");
	if (!json_is_boolean(v))
		return rtm_error_set(err, "sections.throughput.complete: not true or false");
	s->complete = json_is_true(v);
	list = json_object_get(sec, "stressors");
	if (!json_is_array(list) || json_array_size(list) > RTM_COST_MAX_STRESSORS)
		return rtm_error_set(err, "sections.throughput.stressors: not an array of at most "
				     "%d", RTM_COST_MAX_STRESSORS);
	off = (size_t)snprintf(s->workload, sizeof(s->workload), "stress-ng %s,",
			       s->version[0] ? s->version : "(version unknown)");
	json_array_foreach(list, i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		double score;
		size_t k;

		v = json_object_get(e, "bogo_ops_per_s");
		score = json_is_number(v) ? json_number_value(v) : -1;
		if (!name || !*name || strlen(name) >= sizeof(s->s[0].name) ||
		    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-_") != strlen(name))
			return rtm_error_set(err, "sections.throughput.stressors[%zu].name: not "
					     "a stressor name", i);
		for (k = 0; k < i; k++)
			if (!strcmp(s->s[k].name, name))
				return rtm_error_set(err, "sections.throughput.stressors[%zu]: %s "
						     "given twice", i, name);
		if (!isfinite(score) || score <= 0)
			return rtm_error_set(err, "sections.throughput.stressors[%zu]."
					     "bogo_ops_per_s: not a positive number", i);
		v = json_object_get(e, "repetitions");
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > s->reps)
			return rtm_error_set(err, "sections.throughput.stressors[%zu]."
					     "repetitions: not 1 to %d", i, s->reps);
		snprintf(s->s[i].name, sizeof(s->s[i].name), "%s", name);
		s->s[i].score = score;
		s->s[i].reps = (int)json_integer_value(v);
		if (off < sizeof(s->workload))
			off += (size_t)snprintf(s->workload + off, sizeof(s->workload) - off,
						" %s", name);
	}
	s->n = (int)i;
	if (off < sizeof(s->workload))
		snprintf(s->workload + off, sizeof(s->workload) - off, "; %d workers, %llu s "
			 "each, %d repetition%s", s->workers,
			 (unsigned long long)(s->time_ns / 1000000000ULL), s->reps,
			 s->reps == 1 ? "" : "s");
	return 0;
}

/* ---------------------------------------------------------------- for people */

void rtm_cost_fmt_rate(char *buf, size_t len, double rate)
{
	snprintf(buf, len, rate >= 100 ? "%.0f" : rate >= 10 ? "%.1f" : "%.2f", rate);
}
