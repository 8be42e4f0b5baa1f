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

#include "present/compare.h"
#include "cli/cli.h"
#include "rtmeasure.h"

static void compare_usage(FILE *f)
{
	fprintf(f, "usage: rtmeasure compare A B [C ...] [--labels L1,L2,...] [-o OUT] [--json]\n"
		"       rtmeasure compare A1,A2,A3 B1,B2,B3 ...\n\n"
		"Compares runs (results folders or result.json files) with the first, A, as the\n"
		"baseline: their fingerprints side by side (kernel, preemption model, command\n"
		"line, CPU, load, interval, priority, duration, VM) with a warning for each\n"
		"difference that makes the comparison unfair; the same metrics per CPU and for\n"
		"all CPUs with ratio (run / A) and delta (run - A); and for p99, p99.9, p99.99\n"
		"and p99.999 a 95%% confidence interval and a verdict (\"B's p99.9 is 4.1x\n"
		"lower than A's\", \"not distinguishable\", \"too few samples\"). With -o,\n"
		"overlay plots (histograms, percentile curves), OUT/compare.html and\n"
		"OUT/compare.md.\n\n"
		"Whole runs of one box vary: give several runs of each set-up, comma separated\n"
		"(A1,A2,A3), and the interval is taken over those runs (t interval on their\n"
		"percentiles' logarithms). With one run per side it comes from batches of the\n"
		"runs' time series, for p99 only, and names a difference only beyond 1.5x.\n\n"
		"Runs with a noise section (run --noise) also get their noise side by side\n"
		"(noise %%, largest gap, gap percentiles, causes; a verdict over runs only);\n"
		"results of rtmeasure noise alone are compared by their noise only.\n\n"
		"  -l, --labels LIST    names of the runs, comma separated (default: the\n"
		"                       folder names)\n"
		"  -o, --output OUT     write plots, compare.html and compare.md into OUT\n"
		"      --follow         let OUT be a symbolic link\n"
		"  -f, --format LIST    plot formats, comma separated: png, svg, pdf\n"
		"                       (default png)\n"
		"      --size WxH       image size in pixels (default 1000x560)\n"
		"      --log-x          logarithmic latency axis in the histogram (default\n"
		"                       linear, with the tail in its own panel when far)\n"
		"  -j, --json           print the comparison as JSON\n"
		"      --help           this help\n");
}

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

int cmd_compare(int argc, char **argv, const struct rtm_cli *cli)
{
	static const struct option longopts[] = {
		{ "labels", required_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 1001 },
		{ "log-x", no_argument, NULL, 1002 },
		{ "json", no_argument, NULL, 'j' },
		{ "follow", no_argument, NULL, 2010 },
		{ "help", no_argument, NULL, 2000 },
		{ NULL, 0, NULL, 0 },
	};
	struct rtm_compare_opts o = { .formats = 1u << RTM_PLOT_PNG, .width = 1000, .height = 560 };
	struct rtm_error err = { "" };
	const char *labels_arg = NULL;
	char labels[RTM_COMPARE_MAX_RUNS][64];
	char **rounds[RTM_COMPARE_MAX_RUNS] = { NULL };
	int nr[RTM_COMPARE_MAX_RUNS] = { 0 };
	struct rtm_compare *cmp = NULL;
	bool json = false, follow = false, noise_only = false;
	int c, i, j, n, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "l:o:f:j", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			labels_arg = optarg;
			break;
		case 'o':
			o.out_dir = optarg;
			break;
		case 'f':
			if (rtm_plot_formats_parse(optarg, &o.formats, &err))
				return rtm_cli_fail("compare: --format: %s", err.msg);
			break;
		case 1001:
			if (sscanf(optarg, "%dx%d", &o.width, &o.height) != 2 || o.width < 200 ||
			    o.height < 150 || o.width > 10000 || o.height > 10000)
				return rtm_cli_fail("compare: --size '%s': write WIDTHxHEIGHT in "
						    "pixels, 200x150 to 10000x10000", optarg);
			break;
		case 1002:
			o.log_x = true;
			break;
		case 'j':
			json = true;
			break;
		case 2010:
			follow = true;
			break;
		case 2000:
			compare_usage(stdout);
			return RTM_EXIT_OK;
		default:
			return rtm_cli_bad_option("compare", "l:o:f:j", longopts, argv);
		}
	}
	if (o.out_dir && (ret = rtm_cli_check_outdir("compare", o.out_dir, follow)))
		return ret;
	n = argc - optind;
	if (n < 2)
		return rtm_cli_fail("compare: give at least two results folders or result.json "
				    "files (rtmeasure compare --help)");
	if (n > RTM_COMPARE_MAX_RUNS)
		return rtm_cli_fail("compare: at most %d runs at once (%d given)",
				    RTM_COMPARE_MAX_RUNS, n);
	memset(labels, 0, sizeof(labels));
	for (i = 0; i < n; i++) {
		nr[i] = split_rounds(argv[optind + i], &rounds[i]);
		if (nr[i] < 0) {
			ret = RTM_EXIT_USAGE;
			goto out;
		}
	}
	ret = make_labels(rounds, nr, n, labels_arg, labels);
	if (ret)
		goto out;
	cmp = rtm_compare_alloc();
	if (!cmp) {
		ret = rtm_cli_fail("compare: out of memory");
		goto out;
	}
	/* one full result in memory at a time: each is digested, then freed */
	for (i = 0; i < n; i++) {
		for (j = 0; j < nr[i]; j++) {
			struct rtm_result *r = rtm_result_load(rounds[i][j], &err);

			bool noise = r && !r->ncpus && json_object_get(r->sections, "noise");

			if (r && !i && !j)	/* the baseline says which: noise or latency */
				noise_only = noise;
			if (r && noise != noise_only) {
				rtm_result_free(r);
				ret = rtm_cli_fail("compare: %s is a %s result and %s a %s one: "
						   "compare latency results (run, cyclic) or noise "
						   "results (rtmeasure noise), not both",
						   rounds[i][j], noise ? "noise" : "latency",
						   rounds[0][0], noise_only ? "noise" : "latency");
				goto out;
			}
			if (noise_only)	/* rtmeasure noise: sections.noise only */
				ret = !r ? -1 : rtm_compare_noise_add(cmp, r, labels[i],
								      rounds[i][j], j > 0, &err);
			else
				ret = !r ? -1 : j ? rtm_compare_add_round(cmp, r, rounds[i][j],
									 &err) :
				      rtm_compare_add(cmp, r, labels[i], rounds[i][j], &err);
			rtm_result_free(r);
			if (ret) {
				ret = rtm_cli_fail("compare: %s", err.msg);
				goto out;
			}
		}
	}
	if (noise_only) {
		ret = compare_noise_only(cmp, o.out_dir, json);
		goto out;
	}
	rtm_compare_finish(cmp);
	if (o.out_dir && rtm_compare_write(cmp, &o, &err)) {
		ret = rtm_cli_fail("compare: %s", err.msg);
		goto out;
	}
	if (json) {
		json_t *doc = rtm_compare_to_json(cmp);

		json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	} else {
		rtm_compare_fprint(cmp, stdout);
		if (o.out_dir)
			printf("\ncompare: %s/compare.html, %s/compare.md, plots in %s/plots/\n",
			       o.out_dir, o.out_dir, o.out_dir);
	}
	ret = RTM_EXIT_OK;
out:
	rtm_compare_free(cmp);
	for (i = 0; i < n; i++)
		free_rounds(rounds[i]);
	return ret;
}
