// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_analyze.c - rtmeasure analyze: re-run the spike analysis on saved captures.
 */
#include <dirent.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/opts.h"
#include "trace/analysis.h"
#include "trace/capture.h"
#include "core/jsonutil.h"
#include "cli/cli.h"
#include "rtmeasure.h"

enum {
	ANALYZE_OPT_PREEMPT_MODEL = RTM_OPT_KEY0,
};

static const struct rtm_opt analyze_opts[] = {
	{ "json", 'j', no_argument, NULL, 0, "the analyses as JSON" },
	{ "preempt-model", ANALYZE_OPT_PREEMPT_MODEL, required_argument, "MODEL", 0,
	  "the kernel's preemption model (none, voluntary, full, lazy, rt) where the spike "
	  "file does not say; default: the file's, else its results folder's" },
	RTM_OPT_HELP_ROWS(0),
	RTM_OPT_END,
};

static const struct rtm_opt_group analyze_groups[] = { { NULL, true } };

static const struct rtm_cmd_opts analyze_cmd = {
	.command = "analyze",
	.usage = "usage: rtmeasure analyze [--json] DIR|FILE...\n\n"
		"Explains saved latency spikes again from their events: a results folder\n"
		"(its spikes/spike-*.json) or spike-NNN.json files written by cyclic/run\n"
		"with -b and --trace. One verdict per spike: how late the timer fired, who\n"
		"ran while the probe waited, which interrupts took how long, and what no\n"
		"event explains.\n",
	.groups = analyze_groups,
	.ngroups = 1,
	.tables = { analyze_opts },
};

struct analyze_opts {
	const char *model;	/* NULL: the file's, else its results folder's */
	bool json;
	int help;		/* RTM_OPT_HELP or RTM_OPT_HELP_ALL: print it and stop */
	char **files;		/* the operands */
	int nfiles;
};

/*
 * The preemption model of the run a spike file belongs to, for files written
 * before spike files carried it: DIR/spikes/spike-NNN.json -> DIR/result.json.
 */
static char *model_of_results(const char *spike_path)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], *slash;
	const char *model;
	json_t *doc;
	char *ret = NULL;

	snprintf(dir, sizeof(dir), "%s", spike_path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/../result.json", dir);
	doc = json_load_file(path, 0, NULL);
	model = rtm_json_path_str(doc, "sysinfo.kernel.preempt.model");
	if (model)
		ret = strdup(model);
	json_decref(doc);
	return ret;
}

/* Analyse one spike file; 0, or RTM_EXIT_USAGE after the one-line error. */
/* A capture of the monitor names its own threads again ("own_name", "own_tids"). */
static void analyze_own(const json_t *doc, struct rtm_analysis *a)
{
	const json_t *tids = json_object_get(doc, "own_tids");
	const char *name = json_string_value(json_object_get(doc, "own_name"));
	int *id, n = 0;
	size_t i;

	if (!name || !json_is_array(tids) || !(id = calloc(json_array_size(tids) + 1, sizeof(*id))))
		return;
	for (i = 0; i < json_array_size(tids); i++)
		if (json_is_integer(json_array_get(tids, i)))
			id[n++] = (int)json_integer_value(json_array_get(tids, i));
	rtm_analysis_own(a, id, n, name);
	free(id);
}

static int analyze_file(const char *path, json_t *out, bool json, const char *model)
{
	char *found = NULL;
	struct rtm_error err = { "" };
	struct rtm_event *ev = NULL;
	struct rtm_analysis a;
	json_error_t jerr;
	const char *probe;
	json_t *doc;
	size_t n;

	doc = json_load_file(path, 0, &jerr);
	if (!doc)
		return rtm_cli_fail("analyze: %s is not valid JSON (line %d: %s)", path, jerr.line,
				    jerr.text);
	if (!json_is_integer(json_object_get(doc, "planned_ns")) ||
	    !json_is_integer(json_object_get(doc, "woke_ns")) ||
	    !json_is_integer(json_object_get(doc, "cpu")) ||
	    rtm_events_from_json(json_object_get(doc, "events"), &ev, &n, &err)) {
		json_decref(doc);
		return rtm_cli_fail("analyze: %s is not a spike capture (%s)", path,
				    err.msg[0] ? err.msg : "no planned_ns, woke_ns or cpu");
	}
	probe = json_string_value(json_object_get(doc, "probe_comm"));
	if (!model)
		model = json_string_value(json_object_get(doc, "preempt_model"));
	if (!model)
		model = found = model_of_results(path);
	rtm_analyze(ev, n, (int)json_integer_value(json_object_get(doc, "cpu")),
		    (uint64_t)json_integer_value(json_object_get(doc, "planned_ns")),
		    (uint64_t)json_integer_value(json_object_get(doc, "woke_ns")),
		    probe ? probe : "", model, &a);
	analyze_own(doc, &a);
	free(found);
	if (json) {
		json_t *j = rtm_analysis_to_json(&a);

		json_object_set_new(j, "file", json_string(path));
		json_array_append_new(out, j);
	} else {
		printf("%s: %s\n", path, a.verdict);
	}
	free(ev);
	json_decref(doc);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every spikes/spike-*.json of a results folder, in order. */
static int analyze_dir(const char *dir, json_t *out, bool json, const char *model)
{
	char sdir[PATH_MAX], path[PATH_MAX + 300];
	char *names[4096];
	struct dirent *de;
	int n = 0, i, ret = 0;
	DIR *d;

	snprintf(sdir, sizeof(sdir), "%s/spikes", dir);
	d = opendir(sdir);
	if (!d)
		return rtm_cli_fail("analyze: %s has no spikes/ folder (capture with -b LAT --trace)",
				    dir);
	while ((de = readdir(d)) != NULL && n < 4096) {
		size_t len = strlen(de->d_name);

		if (!strncmp(de->d_name, "spike-", 6) && len > 5 &&
		    !strcmp(de->d_name + len - 5, ".json"))
			names[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (!n)
		return rtm_cli_fail("analyze: no spike-*.json in %s", sdir);
	qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", sdir, names[i]);
		if (!ret)
			ret = analyze_file(path, out, json, model);
		free(names[i]);
	}
	return ret;
}

/* argv into @o; 0 or RTM_EXIT_USAGE after the one-line message. */
static int analyze_parse(int argc, char **argv, struct analyze_opts *o)
{
	static const char *const models[] = { "none", "voluntary", "full", "lazy", "rt" };
	struct rtm_getopt g;
	size_t k;
	int c;

	if (rtm_opts_getopt(&analyze_cmd, &g))
		return rtm_cli_fail("analyze: bad option table");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case ANALYZE_OPT_PREEMPT_MODEL:
			for (k = 0; k < sizeof(models) / sizeof(models[0]); k++)
				if (!strcmp(optarg, models[k]))
					o->model = models[k];
			if (!o->model)
				return rtm_cli_fail("analyze: --preempt-model '%s': give none, "
						    "voluntary, full, lazy or rt", optarg);
			break;
		case RTM_OPT_HELP:
		case RTM_OPT_HELP_ALL:
			o->help = c;
			return 0;
		default:
			return rtm_cli_bad_option("analyze", g.shortopts, g.longopts, argv);
		}
	}
	if (optind >= argc)
		return rtm_cli_fail("analyze: give a results folder or spike-NNN.json "
				    "(rtmeasure analyze --help)");
	o->files = argv + optind;
	o->nfiles = argc - optind;
	return 0;
}

int cmd_analyze(int argc, char **argv, const struct rtm_cli *cli)
{
	struct analyze_opts o = { 0 };
	json_t *out;
	int i, ret;

	ret = analyze_parse(argc, argv, &o);
	if (o.help)
		rtm_opts_help(&analyze_cmd, stdout, o.help == RTM_OPT_HELP_ALL);
	if (ret || o.help)
		return ret;
	out = json_array();
	for (i = 0; i < o.nfiles && !ret; i++) {
		struct stat st;

		if (stat(o.files[i], &st) < 0)
			ret = rtm_cli_fail("analyze: cannot read %s", o.files[i]);
		else if (S_ISDIR(st.st_mode))
			ret = analyze_dir(o.files[i], out, o.json, o.model);
		else
			ret = analyze_file(o.files[i], out, o.json, o.model);
	}
	if (!ret && o.json) {
		json_dumpf(out, stdout, JSON_INDENT(2));
		putchar('\n');
	}
	json_decref(out);
	return ret;
}
