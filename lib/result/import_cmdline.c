// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * import_cmdline.c - what an imported source's command line says about the run.
 *
 * rt-tests JSON names the command line ("cmdline:"): its options become the
 * result's options, so report and compare show (and compare warns about) the
 * interval, scheduling, CPUs and duration instead of leaving them unknown.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/import_priv.h"
#include "core/jsonutil.h"
#include "core/units.h"

/*
 * What a source's command line says about the run, as rtmeasure's options:
 * cyclictest's -i (default 1000 us; with -h every thread has it, no -d
 * distance), -p (default 0: SCHED_OTHER; SCHED_FIFO above) and --policy, -a,
 * -D and -h; oslat's -D and -c. Short options may be grouped and take their
 * value attached or as the next word ("-p95", "-p 95", "-mp95").
 */
struct cmd_facts {
	const char *interval, *prio, *policy, *cpus, *duration, *hist;
};

static bool takes_value(bool oslat, char c, bool *optional)
{
	*optional = !oslat && (c == 'a' || c == 't' || c == 'A');
	if (oslat)
		return strchr("cDfTwmb", c) != NULL;
	return *optional || strchr("bcdDFhHiloOpy", c) != NULL;
}

static void fact_set(struct cmd_facts *f, bool oslat, const char *name, const char *v)
{
	static const struct { const char *name; size_t off; bool oslat; } map[] = {
		{ "i", offsetof(struct cmd_facts, interval), false },
		{ "interval", offsetof(struct cmd_facts, interval), false },
		{ "p", offsetof(struct cmd_facts, prio), false },
		{ "priority", offsetof(struct cmd_facts, prio), false },
		{ "y", offsetof(struct cmd_facts, policy), false },
		{ "policy", offsetof(struct cmd_facts, policy), false },
		{ "a", offsetof(struct cmd_facts, cpus), false },
		{ "affinity", offsetof(struct cmd_facts, cpus), false },
		{ "D", offsetof(struct cmd_facts, duration), false },
		{ "duration", offsetof(struct cmd_facts, duration), false },
		{ "h", offsetof(struct cmd_facts, hist), false },
		{ "histogram", offsetof(struct cmd_facts, hist), false },
		{ "D", offsetof(struct cmd_facts, duration), true },
		{ "duration", offsetof(struct cmd_facts, duration), true },
		{ "c", offsetof(struct cmd_facts, cpus), true },
		{ "cpu-list", offsetof(struct cmd_facts, cpus), true },
		{ "f", offsetof(struct cmd_facts, prio), true },
		{ "rtprio", offsetof(struct cmd_facts, prio), true },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].oslat == oslat && !strcmp(map[i].name, name))
			*(const char **)((char *)f + map[i].off) = v;
}

/* Split @cmd (argv joined by blanks, as rt-tests writes it) and read it into @f. */
static void cmd_read(char *cmd, bool oslat, struct cmd_facts *f)
{
	char *w[256], *p, *save = NULL;
	int n = 0, i;

	while (n < 256 && (p = strtok_r(n ? NULL : cmd, " \t", &save)) != NULL)
		w[n++] = p;
	for (i = 1; i < n; i++) {
		char *a = w[i], *eq;
		bool opt;

		if (!strcmp(a, "--"))
			break;
		if (!strncmp(a, "--", 2)) {
			eq = strchr(a, '=');
			if (eq) {
				*eq = '\0';
				fact_set(f, oslat, a + 2, eq + 1);
			} else if (i + 1 < n && w[i + 1][0] != '-') {
				/* "--interval 200": a value only where the option takes one */
				const char *val = w[i + 1];
				struct cmd_facts g = *f;

				fact_set(&g, oslat, a + 2, val);
				if (memcmp(&g, f, sizeof(g))) {
					*f = g;
					i++;
				}
			}
			continue;
		}
		if (a[0] != '-' || !a[1])
			continue;
		for (a++; *a; a++) {
			char name[2] = { *a, '\0' };

			if (!takes_value(oslat, *a, &opt))
				continue;
			if (a[1])
				fact_set(f, oslat, name, a + 1);
			else if (i + 1 < n && w[i + 1][0] != '-' &&
				 (!opt || (w[i + 1][0] >= '0' && w[i + 1][0] <= '9')))
				fact_set(f, oslat, name, w[++i]);
			else if (opt)
				fact_set(f, oslat, name, "");	/* bare -a: every CPU */
			break;
		}
	}
}

/* cyclictest's and oslat's -D: a number of seconds with an optional s/m/h/d. */
static bool rt_duration(const char *v, uint64_t *ns)
{
	static const struct { char c; uint64_t s; } mul[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	const char *p = v;
	uint64_t x, unit = 0;
	size_t i;

	if (imp_parse_u64(&p, &x) || x > 1000000000)
		return false;
	if (!*p)
		unit = 1;
	for (i = 0; !unit && i < sizeof(mul) / sizeof(mul[0]); i++)
		if ((p[0] == mul[i].c || p[0] == mul[i].c - 32) && !p[1])
			unit = mul[i].s;
	/* a duration beyond what a result holds is no planned duration */
	if (!unit || x > IMP_MAX_DURATION_S / unit)
		return false;
	*ns = x * unit * 1000000000ull;
	return true;
}

static bool number(const char *v, uint64_t max, uint64_t *x)
{
	const char *p = v;

	return v && !imp_parse_u64(&p, x) && !*p && *x <= max;
}

void imp_cmd_options(struct imp_set *s, json_t *opt)
{
	bool oslat = !strcmp(s->tool, "oslat"), ct = !strcmp(s->tool, "cyclictest");
	struct cmd_facts f = { NULL, NULL, NULL, NULL, NULL, NULL };
	char *cmd, taken[256] = "";
	size_t tl = 0;
	uint64_t x;

	if (!s->command_line || (!oslat && !ct) || !(cmd = strdup(s->command_line)))
		return;
	cmd_read(cmd, oslat, &f);
#define TAKEN(...) (tl += (size_t)snprintf(taken + tl, tl < sizeof(taken) ? \
		    sizeof(taken) - tl : 0, __VA_ARGS__))
	if (ct) {
		if (!f.interval || number(f.interval, 100000000, &x)) {
			x = f.interval ? x : 1000;
			json_object_set_new(opt, "interval_ns", rtm_json_u64(x * 1000));
			TAKEN("%sinterval %llu us%s", tl ? ", " : "", (unsigned long long)x,
			      f.interval ? " (-i)" : " (cyclictest's default: no -i)");
		}
		if (!f.prio || number(f.prio, 99, &x)) {
			const char *pol = f.policy ? f.policy : f.prio && x ? "fifo" : "other";

			x = f.prio ? x : 0;
			if (strlen(pol) < 16) {
				char lower[16];
				size_t k;

				for (k = 0; pol[k]; k++)
					lower[k] = (char)(pol[k] >= 'A' && pol[k] <= 'Z' ?
						  pol[k] + 32 : pol[k]);
				lower[k] = '\0';
				json_object_set_new(opt, "sched", json_pack("{s:s, s:I}", "policy",
						    lower, "priority", (json_int_t)x));
				TAKEN("%s%s %llu%s", tl ? ", " : "", lower, (unsigned long long)x,
				      f.prio ? " (-p)" : " (no -p)");
			}
		}
		if (f.hist && number(f.hist, IMP_MAX_ROWS, &x) && x &&
		    !strcmp(s->unit, "us") && !s->overflow_above_ns) {
			s->overflow_above_ns = x * 1000;
			TAKEN("%soverflows from %llu us (-h)", tl ? ", " : "",
			      (unsigned long long)x);
		}
	} else if (f.prio && number(f.prio, 99, &x)) {
		json_object_set_new(opt, "sched", json_pack("{s:s, s:I}", "policy", "fifo",
							    "priority", (json_int_t)x));
		TAKEN("%sfifo %llu (-f)", tl ? ", " : "", (unsigned long long)x);
	}
	if (f.cpus && f.cpus[0]) {
		struct rtm_cpulist cl = { 0, NULL };
		char buf[1024];

		if (!rtm_cpulist_parse(f.cpus, &cl, NULL) && cl.n &&
		    !rtm_cpulist_format(&cl, buf, sizeof(buf))) {
			json_object_set_new(opt, "cpus", json_string(buf));
			TAKEN("%sCPUs %s", tl ? ", " : "", buf);
		}
		rtm_cpulist_release(&cl);
	}
	if (f.duration && rt_duration(f.duration, &x) && x) {
		json_object_set_new(opt, "duration_ns", rtm_json_u64(x));
		TAKEN("%splanned duration %llu s (-D)", tl ? ", " : "",
		      (unsigned long long)(x / 1000000000ull));
		if (!s->has_duration) {
			s->duration_ns = x;
			s->has_duration = true;
		}
	}
#undef TAKEN
	if (tl)
		imp_note(s, "from the command line: %s", taken);
	free(cmd);
}
