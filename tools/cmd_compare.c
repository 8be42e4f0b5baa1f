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

#include "compare.h"
#include "rtmeasure.h"

static void compare_usage(FILE *f)
{
	fprintf(f, "usage: rtmeasure compare A B [C ...] [--labels L1,L2,...] [-o OUT] [--json]\n\n"
		"Compares runs (results folders or result.json files) with the first, A, as the\n"
		"baseline: their fingerprints side by side (kernel, preemption model, command\n"
		"line, CPU, load, interval, priority, duration, VM) with a warning for each\n"
		"difference that makes the comparison unfair; the same metrics per CPU and for\n"
		"all CPUs with ratio (run / A) and delta (run - A); and for p99, p99.9, p99.99\n"
		"and p99.999 a 95%% confidence interval and a verdict (\"B's p99.9 is 4.1x\n"
		"lower than A's\", \"not distinguishable\", \"too few samples\"). With -o,\n"
		"overlay plots (histograms, percentile curves), OUT/compare.html and\n"
		"OUT/compare.md.\n\n"
		"  -l, --labels LIST    names of the runs, comma separated (default: the\n"
		"                       folder names)\n"
		"  -o, --output OUT     write plots, compare.html and compare.md into OUT\n"
		"  -f, --format LIST    plot formats, comma separated: png, svg, pdf\n"
		"                       (default png)\n"
		"      --size WxH       image size in pixels (default 1000x560)\n"
		"      --log-x          logarithmic latency axis in the histogram (default\n"
		"                       linear, with the tail in its own panel when far)\n"
		"  -j, --json           print the comparison as JSON\n"
		"      --help           this help\n");
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

static int make_labels(char **args, int n, const char *list, char labels[][64])
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
		for (parts = 1; parts <= 3; parts++) {
			int j;
			bool clash = false;

			folder_label(args[i], parts, s, sizeof(s));
			for (j = 0; j < n; j++) {
				char o[64];

				folder_label(args[j], parts, o, sizeof(o));
				clash |= j != i && !strcmp(o, s);
			}
			if (!clash)
				break;
		}
		if (label_taken(labels, i, s)) {
			size_t l = strlen(s);

			snprintf(s + (l > 56 ? 56 : l), 8, "#%d", i + 1);
		}
		snprintf(labels[i], 64, "%s", s);
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "labels", required_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 1001 },
		{ "log-x", no_argument, NULL, 1002 },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 2000 },
		{ NULL, 0, NULL, 0 },
	};
	struct rtm_compare_opts o = { .formats = 1u << RTM_PLOT_PNG, .width = 1000, .height = 560 };
	struct rtm_error err = { "" };
	const char *labels_arg = NULL;
	char labels[RTM_COMPARE_MAX_RUNS][64];
	struct rtm_compare *cmp;
	bool json = false;
	int c, i, n, ret;

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
		case 2000:
			compare_usage(stdout);
			return RTM_EXIT_OK;
		default:
			return rtm_cli_bad_option("compare", "l:o:f:j", longopts, argv);
		}
	}
	n = argc - optind;
	if (n < 2)
		return rtm_cli_fail("compare: give at least two results folders or result.json "
				    "files (rtmeasure compare --help)");
	if (n > RTM_COMPARE_MAX_RUNS)
		return rtm_cli_fail("compare: at most %d runs at once (%d given)",
				    RTM_COMPARE_MAX_RUNS, n);
	memset(labels, 0, sizeof(labels));
	ret = make_labels(argv + optind, n, labels_arg, labels);
	if (ret)
		return ret;
	cmp = rtm_compare_alloc();
	if (!cmp)
		return rtm_cli_fail("compare: out of memory");
	/* one full result in memory at a time: each is digested, then freed */
	for (i = 0; i < n; i++) {
		struct rtm_result *r = rtm_result_load(argv[optind + i], &err);

		ret = r ? rtm_compare_add(cmp, r, labels[i], argv[optind + i], &err) : -1;
		rtm_result_free(r);
		if (ret) {
			rtm_compare_free(cmp);
			return rtm_cli_fail("compare: %s", err.msg);
		}
	}
	rtm_compare_finish(cmp);
	if (o.out_dir && rtm_compare_write(cmp, &o, &err)) {
		rtm_compare_free(cmp);
		return rtm_cli_fail("compare: %s", err.msg);
	}
	if (json) {
		json_t *j = rtm_compare_to_json(cmp);

		json_dumpf(j, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(j);
	} else {
		rtm_compare_fprint(cmp, stdout);
		if (o.out_dir)
			printf("\ncompare: %s/compare.html, %s/compare.md, plots in %s/plots/\n",
			       o.out_dir, o.out_dir, o.out_dir);
	}
	rtm_compare_free(cmp);
	return RTM_EXIT_OK;
}
