// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_compare.c - rtmeasure compare: two or more runs side by side, with
 * fingerprints, ratios, confidence intervals, verdicts, overlay plots and
 * compare.html.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/opts.h"
#include "present/compare.h"
#include "present/compare_io.h"
#include "cli/cli.h"
#include "rtmeasure.h"

enum {
	COMPARE_OPT_SIZE = RTM_OPT_KEY0,
	COMPARE_OPT_LOG_X,
	COMPARE_OPT_FOLLOW,
};

/* Groups of compare --help. */
enum { CG_RUNS, CG_PAGES };

static const struct rtm_opt compare_opts[] = {
	{ "labels", 'l', required_argument, "LIST", CG_RUNS,
	  "names of the runs, comma separated (default: the folder names)" },
	{ "output", 'o', required_argument, "OUT", CG_PAGES,
	  "write plots, compare.html and compare.md into OUT" },
	{ "format", 'f', required_argument, "LIST", CG_PAGES,
	  "plot formats, comma separated: png, svg, pdf (default png)" },
	{ "size", COMPARE_OPT_SIZE, required_argument, "WxH", CG_PAGES,
	  "image size in pixels (default 1000x560)" },
	{ "log-x", COMPARE_OPT_LOG_X, no_argument, NULL, CG_PAGES,
	  "logarithmic latency axis in the histogram (default linear, with the tail in its "
	  "own panel when far)" },
	{ "json", 'j', no_argument, NULL, CG_RUNS, "print the comparison as JSON" },
	{ "follow", COMPARE_OPT_FOLLOW, no_argument, NULL, CG_PAGES,
	  "let OUT be a symbolic link" },
	RTM_OPT_HELP_ROWS(CG_RUNS),
	RTM_OPT_END,
};

static const struct rtm_opt_group compare_groups[] = {
	[CG_RUNS] = { NULL, true },
	[CG_PAGES] = { "Plots and pages (-o)", true },
};

static const struct rtm_cmd_opts compare_cmd = {
	.command = "compare",
	.usage = "usage: rtmeasure compare A B [C ...] [--labels L1,L2,...] [-o OUT] [--json]\n"
		"       rtmeasure compare A1,A2,A3 B1,B2,B3 ...\n\n"
		"Compares runs (results folders or result.json files) with the first, A, as the\n"
		"baseline: their fingerprints side by side (kernel, preemption model, command\n"
		"line, CPU, load, interval, priority, duration, VM) with a warning for each\n"
		"difference that makes the comparison unfair; the same metrics per CPU and for\n"
		"all CPUs with ratio (run / A) and delta (run - A); and for p99, p99.9, p99.99\n"
		"and p99.999 a 95% confidence interval and a verdict (\"B's p99.9 is 4.1x\n"
		"lower than A's\", \"not distinguishable\", \"too few samples\"). With -o,\n"
		"overlay plots (histograms, percentile curves), OUT/compare.html and\n"
		"OUT/compare.md.\n\n"
		"Whole runs of one box vary: give several runs of each set-up, comma separated\n"
		"(A1,A2,A3), and the interval is taken over those runs (t interval on their\n"
		"percentiles' logarithms). With one run per side it comes from batches of the\n"
		"runs' time series, for p99 only, and names a difference only beyond 1.5x.\n\n"
		"Runs with a noise section (run --noise) also get their noise side by side\n"
		"(noise %, largest gap, gap percentiles, causes; a verdict over runs only);\n"
		"results of rtmeasure noise alone are compared by their noise only. Storage\n"
		"runs (rtmeasure io) are compared per operation: the latency from the planned\n"
		"issue time, misses, and verdicts over several runs per side.\n",
	.groups = compare_groups,
	.ngroups = sizeof(compare_groups) / sizeof(compare_groups[0]),
	.tables = { compare_opts },
};

struct compare_cmd_opts {
	struct rtm_compare_opts cmp;	/* -o and the plots */
	const char *labels;		/* --labels; NULL: from the folder names */
	bool json, follow;
	int help;		/* RTM_OPT_HELP or RTM_OPT_HELP_ALL: print it and stop */
	char **runs;		/* the operands: A B ... (each maybe A1,A2,A3) */
	int nruns;
};

/*
 * The runs of one side: "A1,A2,A3" is three rounds, unless the whole argument
 * names an existing file or folder. Returns the count (malloc()ed copies in
 * @paths) or -1 with the message printed.
 */
static int split_rounds(const char *arg, char ***paths)
{
	char *copy, *tok, *comma, **v;
	struct stat st;
	int n = 0;

	v = calloc(RTM_COMPARE_MAX_ROUNDS + 1, sizeof(*v));
	copy = strdup(arg);
	if (!v || !copy) {
		free(v);
		free(copy);
		rtm_cli_fail("compare: out of memory");
		return -1;
	}
	if (stat(arg, &st) == 0 || !strchr(arg, ',')) {
		v[n++] = copy;
		*paths = v;
		return n;
	}
	for (tok = copy; tok; tok = comma ? comma + 1 : NULL) {
		comma = strchr(tok, ',');
		if (comma)
			*comma = '\0';
		if (!*tok || n >= RTM_COMPARE_MAX_ROUNDS) {
			if (*tok)
				rtm_cli_fail("compare: more than %d runs on one side (%.40s...)",
					     RTM_COMPARE_MAX_ROUNDS, arg);
			else
				rtm_cli_fail("compare: '%s': an empty name between commas (write "
					     "A1,A2,A3)", arg);
			while (n)
				free(v[--n]);
			free(v);
			free(copy);
			return -1;
		}
		v[n++] = strdup(tok);
	}
	free(copy);
	*paths = v;
	return n;
}

static void free_rounds(char **v)
{
	int i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* The name of the folder a run came from: DIR for DIR/ and DIR/result.json. */
static void folder_label(const char *arg, int parts, char *buf, size_t len)
{
	char path[PATH_MAX], *p, *end;
	struct stat st;
	int i;

	if (!realpath(arg, path))
		snprintf(path, sizeof(path), "%s", arg);
	if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode) && (p = strrchr(path, '/')))
		*p = '\0';		/* DIR/result.json: DIR */
	end = path + strlen(path);
	while (end > path + 1 && end[-1] == '/')
		*--end = '\0';
	p = end;
	for (i = 0; i < parts; i++) {
		while (p > path && p[-1] != '/')
			p--;
		if (i + 1 < parts && p > path + 1)
			p--;
	}
	snprintf(buf, len, "%s", *p ? p : path);
}

static bool label_taken(char labels[][64], int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(labels[i], s))
			return true;
	return false;
}

/* A side of several runs: their folder names' common stem ("idle" for idle-1,idle-2). */
static void rounds_label(char **paths, int nr, char *buf, size_t len)
{
	char first[64], o[64];
	size_t k, common;
	int j;

	folder_label(paths[0], 1, first, sizeof(first));
	common = strlen(first);
	for (j = 1; j < nr; j++) {
		folder_label(paths[j], 1, o, sizeof(o));
		for (k = 0; k < common && first[k] == o[k]; k++)
			;
		common = k;
	}
	while (common && strchr("-_. ", first[common - 1]))
		common--;
	if (common)
		snprintf(buf, len, "%.*s", (int)common, first);
	else
		snprintf(buf, len, "%.50s+%d", first, nr - 1);
}

static int make_labels(char ***rounds, const int *nr, int n, const char *list,
		       char labels[][64])
{
	int i, k = 0;

	if (list) {
		char *copy = strdup(list), *tok = copy, *comma;

		for (k = 0; tok && copy; k++) {
			comma = strchr(tok, ',');
			if (comma)
				*comma = '\0';
			if (k < n) {
				if (!*tok || strlen(tok) >= 64 || label_taken(labels, k, tok)) {
					free(copy);
					return rtm_cli_fail("compare: --labels '%s': each label "
							    "must be non-empty, unique and under "
							    "64 characters", list);
				}
				snprintf(labels[k], 64, "%s", tok);
			}
			tok = comma ? comma + 1 : NULL;
		}
		free(copy);
		if (k != n)
			return rtm_cli_fail("compare: --labels gives %d label%s for %d runs", k,
					    k == 1 ? "" : "s", n);
		return 0;
	}
	for (i = 0; i < n; i++) {
		char s[64];
		int parts;

		/* same folder names (lab-a/out, lab-b/out): take the parent too */
		for (parts = 1; parts <= 3 && nr[i] == 1; parts++) {
			int j;
			bool clash = false;

			folder_label(rounds[i][0], parts, s, sizeof(s));
			for (j = 0; j < n; j++) {
				char o[64];

				folder_label(rounds[j][0], parts, o, sizeof(o));
				clash |= j != i && !strcmp(o, s);
			}
			if (!clash)
				break;
		}
		if (nr[i] > 1)
			rounds_label(rounds[i], nr[i], s, sizeof(s));
		if (label_taken(labels, i, s)) {
			size_t l = strlen(s);

			snprintf(s + (l > 56 ? 56 : l), 8, "#%d", i + 1);
		}
		snprintf(labels[i], 64, "%s", s);
	}
	return 0;
}

/* Noise results alone (rtmeasure noise): their noise side by side; the exit status. */
static int compare_noise_only(struct rtm_compare *cmp, const char *out_dir, bool json)
{
	struct rtm_error err = { "" };

	if (out_dir)
		rtm_cli_clean_stages("compare", out_dir);
	if (out_dir && rtm_compare_noise_only_write(cmp, out_dir, &err))
		return rtm_cli_fail("compare: %s", err.msg);
	if (json) {
		json_t *doc = rtm_compare_noise_only_json(cmp);

		json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	} else {
		rtm_compare_noise_only_fprint(cmp, stdout);
		if (out_dir)
			printf("\ncompare: %s/compare.html, %s/compare.md\n", out_dir, out_dir);
	}
	return RTM_EXIT_OK;
}

/*
 * argv into @o, -o checked (a folder, or absent) before the runs are counted;
 * 0 or RTM_EXIT_USAGE after the one-line message.
 */
static int compare_parse(int argc, char **argv, struct compare_cmd_opts *o)
{
	struct rtm_compare_opts *p = &o->cmp;
	struct rtm_error err = { "" };
	struct rtm_getopt g;
	int c, ret;

	if (rtm_opts_getopt(&compare_cmd, &g))
		return rtm_cli_fail("compare: bad option table");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			o->labels = optarg;
			break;
		case 'o':
			p->out_dir = optarg;
			break;
		case 'f':
			if (rtm_plot_formats_parse(optarg, &p->formats, &err))
				return rtm_cli_fail("compare: --format: %s", err.msg);
			break;
		case COMPARE_OPT_SIZE:
			if (sscanf(optarg, "%dx%d", &p->width, &p->height) != 2 || p->width < 200 ||
			    p->height < 150 || p->width > 10000 || p->height > 10000)
				return rtm_cli_fail("compare: --size '%s': write WIDTHxHEIGHT in "
						    "pixels, 200x150 to 10000x10000", optarg);
			break;
		case COMPARE_OPT_LOG_X:
			p->log_x = true;
			break;
		case 'j':
			o->json = true;
			break;
		case COMPARE_OPT_FOLLOW:
			o->follow = true;
			break;
		case RTM_OPT_HELP:
		case RTM_OPT_HELP_ALL:
			o->help = c;
			return 0;
		default:
			return rtm_cli_bad_option("compare", g.shortopts, g.longopts, argv);
		}
	}
	if (p->out_dir && (ret = rtm_cli_check_outdir("compare", p->out_dir, o->follow)))
		return ret;
	o->runs = argv + optind;
	o->nruns = argc - optind;
	if (o->nruns < 2)
		return rtm_cli_fail("compare: give at least two results folders or result.json "
				    "files (rtmeasure compare --help)");
	if (o->nruns > RTM_COMPARE_MAX_RUNS)
		return rtm_cli_fail("compare: at most %d runs at once (%d given)",
				    RTM_COMPARE_MAX_RUNS, o->nruns);
	return 0;
}

/* What a comparison weighs: decided by the baseline, every other run the same. */
enum compare_kind { CK_LATENCY, CK_NOISE, CK_IO, CK_WAKEUP };

static const char *const kind_name[] = {
	[CK_LATENCY] = "latency", [CK_NOISE] = "noise", [CK_IO] = "storage",
	[CK_WAKEUP] = "wakeup",
};

static enum compare_kind kind_of(const struct rtm_result *r)
{
	if (json_object_get(r->sections, "wakeup"))	/* the box's own tasks, no probe */
		return CK_WAKEUP;
	if (!r->ncpus && json_object_get(r->sections, "io"))	/* rtmeasure io */
		return CK_IO;
	if (!r->ncpus && json_object_get(r->sections, "noise"))	/* rtmeasure noise */
		return CK_NOISE;
	return CK_LATENCY;
}

/* Round @j of side @i digested into @cmp (or @cio), then freed; 0 or the exit status. */
static int add_run(struct rtm_compare *cmp, struct rtm_compare_io *cio, char **const *rounds,
		   int i, int j, const char *label, enum compare_kind *kind)
{
	struct rtm_error err = { "" };
	struct rtm_result *r = rtm_result_load(rounds[i][j], &err);
	enum compare_kind k = r ? kind_of(r) : CK_LATENCY;
	int ret;

	if (r && !i && !j)	/* the baseline says which: latency, noise, storage or wakeup */
		*kind = k;
	if (r && k != *kind) {
		rtm_result_free(r);
		if (k == CK_WAKEUP || *kind == CK_WAKEUP)
			return rtm_cli_fail("compare: %s is a %s result and %s a %s one: different "
					    "quantities (rtmeasure wakeup measures the box's own "
					    "tasks from wake-up to switch-in, not a probe's latency): "
					    "compare wakeup results with wakeup results", rounds[i][j],
					    kind_name[k], rounds[0][0], kind_name[*kind]);
		return rtm_cli_fail("compare: %s is a %s result and %s a %s one: compare latency "
				    "results (run, cyclic), noise results (rtmeasure noise) or "
				    "storage results (rtmeasure io), one kind at a time",
				    rounds[i][j], kind_name[k], rounds[0][0], kind_name[*kind]);
	}
	if (!r)
		ret = -1;
	else if (*kind == CK_IO)	/* rtmeasure io: sections.io only */
		ret = rtm_compare_io_add(cio, r, label, rounds[i][j], j > 0, &err);
	else if (*kind == CK_NOISE)	/* rtmeasure noise: sections.noise only */
		ret = rtm_compare_noise_add(cmp, r, label, rounds[i][j], j > 0, &err);
	else
		ret = j ? rtm_compare_add_round(cmp, r, rounds[i][j], &err) :
		      rtm_compare_add(cmp, r, label, rounds[i][j], &err);
	rtm_result_free(r);
	return ret ? rtm_cli_fail("compare: %s", err.msg) : 0;
}

/*
 * Storage runs: per operation their latency side by side, the verdicts, the pages
 * with -o; the exit status.
 */
static int compare_io(struct rtm_compare_io *cio, const struct compare_cmd_opts *o)
{
	const char *out = o->cmp.out_dir;
	struct rtm_error err = { "" };

	rtm_compare_io_finish(cio);
	if (out)
		rtm_cli_clean_stages("compare", out);
	if (out && rtm_compare_io_write(cio, &o->cmp, &err))
		return rtm_cli_fail("compare: %s", err.msg);
	if (o->json) {
		json_t *doc = rtm_compare_io_json(cio);

		json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	} else {
		rtm_compare_io_fprint(cio, stdout);
		if (out)
			printf("\ncompare: %s/compare.html, %s/compare.md, plots in %s/plots/\n",
			       out, out, out);
	}
	return RTM_EXIT_OK;
}

/* Latency results: the verdicts, the pages with -o, the table or JSON; the exit status. */
static int compare_latency(struct rtm_compare *cmp, const struct compare_cmd_opts *o)
{
	const char *out = o->cmp.out_dir;
	struct rtm_error err = { "" };

	rtm_compare_finish(cmp);
	if (out)
		rtm_cli_clean_stages("compare", out);
	if (out && rtm_compare_write(cmp, &o->cmp, &err))
		return rtm_cli_fail("compare: %s", err.msg);
	if (o->json) {
		json_t *doc = rtm_compare_to_json(cmp);

		json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	} else {
		rtm_compare_fprint(cmp, stdout);
		if (out)
			printf("\ncompare: %s/compare.html, %s/compare.md, plots in %s/plots/\n",
			       out, out, out);
	}
	return RTM_EXIT_OK;
}

int cmd_compare(int argc, char **argv, const struct rtm_cli *cli)
{
	struct compare_cmd_opts o = {
		.cmp = { .formats = 1u << RTM_PLOT_PNG, .width = 1000, .height = 560 },
	};
	char labels[RTM_COMPARE_MAX_RUNS][64];
	char **rounds[RTM_COMPARE_MAX_RUNS] = { NULL };
	int nr[RTM_COMPARE_MAX_RUNS] = { 0 };
	struct rtm_compare *cmp = NULL;
	struct rtm_compare_io *cio = NULL;
	enum compare_kind kind = CK_LATENCY;
	int i, j, ret;

	ret = compare_parse(argc, argv, &o);
	if (o.help)
		rtm_opts_help(&compare_cmd, stdout, o.help == RTM_OPT_HELP_ALL);
	if (ret || o.help)
		return ret;
	memset(labels, 0, sizeof(labels));
	for (i = 0; i < o.nruns; i++) {
		nr[i] = split_rounds(o.runs[i], &rounds[i]);
		if (nr[i] < 0) {
			ret = RTM_EXIT_USAGE;
			goto out;
		}
	}
	ret = make_labels(rounds, nr, o.nruns, o.labels, labels);
	if (ret)
		goto out;
	cmp = rtm_compare_alloc();
	cio = rtm_compare_io_alloc();
	if (!cmp || !cio) {
		ret = rtm_cli_fail("compare: out of memory");
		goto out;
	}
	/* one full result in memory at a time: each is digested, then freed */
	for (i = 0; i < o.nruns && !ret; i++)
		for (j = 0; j < nr[i] && !ret; j++)
			ret = add_run(cmp, cio, rounds, i, j, labels[i], &kind);
	if (!ret)
		ret = kind == CK_IO ? compare_io(cio, &o) :
		      kind == CK_NOISE ? compare_noise_only(cmp, o.cmp.out_dir, o.json) :
		      compare_latency(cmp, &o);
out:
	rtm_compare_free(cmp);
	rtm_compare_io_free(cio);
	for (i = 0; i < o.nruns; i++)
		free_rounds(rounds[i]);
	return ret;
}
