// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_import.c - rtmeasure import: other tools' output as results folders.
 *
 * Every input is parsed before anything is written; the folders are written
 * under a temporary name next to DIR and renamed to DIR at the end, so an
 * error leaves no folder behind.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "result/import.h"
#include "probe/probe_noise.h"
#include "present/noise_print.h"
#include "cli/cli.h"
#include "rtmeasure.h"
#include "result/summary.h"
#include "present/summary_print.h"
#include "core/units.h"

static void import_usage(FILE *f)
{
	fprintf(f, "usage: rtmeasure import [options] -o DIR FILE...\n\n"
		"Turns other tools' latency output into results folders that report,\n"
		"compare and export read. The format is recognised by the content:\n"
		"cyclictest -h/-H/--histfile text, cyclictest and oslat --json (rt-tests),\n"
		"rtla timerlat hist and rtla osnoise hist text; rtla osnoise top text and\n"
		"hwlatdetect output (stdout or --report file) as noise results (osnoise\n"
		"hist too). One FILE gives the folder\n"
		"DIR; several give DIR/<file name without extension>/ each. What the source\n"
		"cannot tell (samples beyond the histogram's last row, which CPU a thread ran\n"
		"on) is stated in the output and in result.json (sections.provenance).\n\n"
		"  -o, --output DIR       the results folder (must not exist, or be empty)\n"
		"  -a, --cpus CPUS        cyclictest text: the CPUs the run measured (its -a\n"
		"                         list; --affinity too): thread i ran on the i-th\n"
		"                         CPU, and the folder numbers them so\n"
		"  -N, --nsecs            cyclictest text recorded with -N (rows in ns)\n"
		"  -b, --bucket-size N    rtla: the run's -b (default: from the row indices)\n"
		"  -C, --command-line CMD cyclictest text: the run's command line (as rt-tests\n"
		"                         JSON names it): interval, priority, CPUs, duration\n"
		"                         and -h are taken from it\n"
		"  -F, --format NAME      the files' format, checked against the content:\n"
		"                         cyclictest-hist, rt-tests-json, rtla-hist (timerlat\n"
		"                         and osnoise hist), rtla-osnoise-top, hwlatdetect\n"
		"  -j, --json             print what was imported as JSON\n"
		"  -q, --quiet            print nothing but errors\n"
		"      --help             this help\n");
}

struct input {
	const char *file;
	char name[NAME_MAX + 1];	/* sub-folder name with several inputs */
	struct rtm_result *r;
};

/* The file name, without its extension when @strip */
static void folder_name(const char *file, bool strip, char *buf, size_t len)
{
	const char *base = strrchr(file, '/');
	char *dot;

	snprintf(buf, len, "%s", base ? base + 1 : file);
	dot = strrchr(buf, '.');
	if (strip && dot && dot != buf)
		*dot = '\0';
	if (!buf[0] || !strcmp(buf, ".") || !strcmp(buf, ".."))
		snprintf(buf, len, "import");
}

/*
 * Sub-folder names: the file names without extension; where two share one,
 * those keep their extension (run.txt, run.json); still equal: an error.
 */
static int folder_names(struct input *in, int n, const char *outdir)
{
	char a[NAME_MAX + 1];
	int i, j;

	for (i = 0; i < n; i++)
		folder_name(in[i].file, true, in[i].name, sizeof(in[i].name));
	for (i = 0; i < n; i++) {
		bool clash = false;

		for (j = 0; j < n; j++) {
			folder_name(in[j].file, true, a, sizeof(a));
			clash |= j != i && !strcmp(a, in[i].name);
		}
		if (clash)
			folder_name(in[i].file, false, in[i].name, sizeof(in[i].name));
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(in[i].name, in[j].name))
				return rtm_cli_fail("import: %s and %s would both become %s/%s "
						    "(import them separately)", in[j].file,
						    in[i].file, outdir, in[i].name);
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void rm_tree(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* 0 when @dir does not exist or is an empty folder (rename() replaces those) */
static int check_target(const char *dir)
{
	struct dirent *de;
	struct stat st;
	bool empty = true;
	DIR *d;

	if (stat(dir, &st) < 0)
		return errno == ENOENT ? 0 : rtm_cli_fail("import: cannot use %s: %s", dir,
							 strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return rtm_cli_fail("import: %s exists and is not a folder (give another -o)",
				    dir);
	d = opendir(dir);
	if (!d)
		return rtm_cli_fail("import: cannot use %s: %s", dir, strerror(errno));
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	closedir(d);
	if (!empty)
		return rtm_cli_fail("import: %s exists and is not empty (remove it or give "
				    "another -o)", dir);
	return 0;
}

static int write_all(struct input *in, int n, const char *dir)
{
	char tmp[PATH_MAX], sub[PATH_MAX + NAME_MAX + 2], parent[PATH_MAX];
	struct rtm_error err = { "" };
	char *slash;
	int i, ret;

	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		ret = rtm_mkdir_p(parent);
		if (ret)
			return rtm_cli_fail("import: cannot create %s: %s", parent,
					    rtm_write_strerror(ret));
	}
	/* an unpredictable name made by mkdir(): nothing planted there is followed */
	if (snprintf(tmp, sizeof(tmp), "%s.import-XXXXXX", dir) >= (int)sizeof(tmp))
		return rtm_cli_fail("import: -o: folder name too long");
	if (!mkdtemp(tmp))
		return rtm_cli_fail("import: cannot create %s: %s", dir,
				    rtm_write_strerror(-errno));
	chmod(tmp, 0755);	/* mkdtemp's 0700 would hide the results from other users */
	for (i = 0; i < n; i++) {
		if (n == 1)
			snprintf(sub, sizeof(sub), "%s", tmp);
		else
			snprintf(sub, sizeof(sub), "%s/%s", tmp, in[i].name);
		if (rtm_result_save(in[i].r, sub, &err)) {
			rm_tree(tmp);
			return rtm_cli_fail("import: %s", err.msg);
		}
	}
	if (rename(tmp, dir) < 0) {
		int e = errno;

		rm_tree(tmp);
		return rtm_cli_fail("import: cannot create %s: %s", dir, rtm_write_strerror(-e));
	}
	return 0;
}

static void print_human(const struct input *in, const char *dir, int n)
{
	const json_t *prov = json_object_get(in->r->sections, "provenance"), *note;
	size_t k;

	printf("%s: %s (%s, %s) -> %s%s%s/\n", "import", in->file,
	       json_string_value(json_object_get(prov, "format")), in->r->tool, dir,
	       n > 1 ? "/" : "", n > 1 ? in->name : "");
	if (!in->r->ncpus && json_object_get(in->r->sections, "noise"))
		rtm_noise_fprint(json_object_get(in->r->sections, "noise"), stdout, 10);
	else
		rtm_summary_fprint(in->r, stdout);
	json_array_foreach(json_object_get(prov, "notes"), k, note)
		printf("note: %s\n", json_string_value(note));
}

static json_t *to_json(const struct input *in, const char *dir, int n)
{
	char path[PATH_MAX + NAME_MAX + 2];

	snprintf(path, sizeof(path), "%s%s%s", dir, n > 1 ? "/" : "", n > 1 ? in->name : "");
	return json_pack("{s:s, s:s, s:s, s:O, s:o}", "file", in->file, "dir", path,
			 "tool", in->r->tool,
			 "provenance", json_object_get(in->r->sections, "provenance"),
			 "summary", !in->r->ncpus && json_object_get(in->r->sections, "noise") ?
			 rtm_noise_summary_json(json_object_get(in->r->sections, "noise")) :
			 rtm_summary_to_json(in->r));
}

int cmd_import(int argc, char **argv, const struct rtm_cli *cli)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "cpus", required_argument, NULL, 'a' },
		{ "affinity", required_argument, NULL, 'a' },
		{ "nsecs", no_argument, NULL, 'N' },
		{ "bucket-size", required_argument, NULL, 'b' },
		{ "command-line", required_argument, NULL, 'C' },
		{ "format", required_argument, NULL, 'F' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 2000 },
		{ NULL, 0, NULL, 0 },
	};
	struct rtm_import_opts o = { NULL, false, 0, NULL, RTM_IMPORT_UNKNOWN };
	struct rtm_error err = { "" };
	const char *dir = NULL;
	bool json = false, quiet = false;
	struct input *in;
	int c, i, n, ret = RTM_EXIT_OK;
	char outdir[PATH_MAX];

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:a:Nb:C:F:jq", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 'a': {
			struct rtm_cpulist cl = { 0, NULL };

			if (rtm_cpulist_parse(optarg, &cl, &err) || !cl.n) {
				rtm_cpulist_release(&cl);
				return rtm_cli_fail("import: -a/--cpus: %s", err.msg[0] ? err.msg :
						    "empty CPU list");
			}
			rtm_cpulist_release(&cl);
			o.affinity = optarg;
			break;
		}
		case 'N':
			o.nsecs = true;
			break;
		case 'b': {
			char *end;

			errno = 0;
			o.rtla_bucket = strtoull(optarg, &end, 10);
			if (errno || *end || !o.rtla_bucket || optarg[0] == '-')
				return rtm_cli_fail("import: --bucket-size '%s': give a positive "
						    "integer (rtla's -b)", optarg);
			break;
		}
		case 'F':
			o.format = rtm_import_format_parse(optarg);
			if (!o.format)
				return rtm_cli_fail("import: --format '%s': give cyclictest-hist, "
						    "rt-tests-json, rtla-hist, rtla-osnoise-top or "
						    "hwlatdetect (or leave it out: the content tells)",
						    optarg);
			break;
		case 'C':
			if (strncmp(optarg, "cyclictest", 10) && !strstr(optarg, "/cyclictest") &&
			    strncmp(optarg, "oslat", 5) && !strstr(optarg, "/oslat"))
				return rtm_cli_fail("import: --command-line '%s': give the run's "
						    "cyclictest or oslat command line ('cyclictest "
						    "-i 200 -p 95 ...')", optarg);
			o.command_line = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 2000:
			import_usage(stdout);
			return RTM_EXIT_OK;
		default:
			return rtm_cli_bad_option("import", "o:a:Nb:C:jq", longopts, argv);
		}
	}
	if (optind >= argc)
		return rtm_cli_fail("import: give the files to import (rtmeasure import --help)");
	if (!dir)
		return rtm_cli_fail("import: give the results folder with -o DIR");
	if (snprintf(outdir, sizeof(outdir), "%s", dir) >= (int)sizeof(outdir) - 32)
		return rtm_cli_fail("import: -o: folder name too long");
	for (i = (int)strlen(outdir) - 1; i > 0 && outdir[i] == '/'; i--)
		outdir[i] = '\0';
	n = argc - optind;
	in = calloc((size_t)n, sizeof(*in));
	if (!in)
		return rtm_cli_fail("out of memory");
	for (i = 0; i < n; i++)
		in[i].file = argv[optind + i];
	if (n > 1)
		ret = folder_names(in, n, outdir);
	for (i = 0; i < n && ret == RTM_EXIT_OK; i++) {
		in[i].r = rtm_import_file(in[i].file, &o, &err);
		if (!in[i].r)
			ret = rtm_cli_fail("import: %s", err.msg);
	}
	if (ret == RTM_EXIT_OK)
		ret = check_target(outdir);
	if (ret == RTM_EXIT_OK)
		ret = write_all(in, n, outdir);
	if (ret == RTM_EXIT_OK && !quiet) {
		if (json) {
			json_t *arr = json_array();

			for (i = 0; i < n; i++)
				json_array_append_new(arr, to_json(&in[i], outdir, n));
			json_dumpf(arr, stdout, JSON_INDENT(2));
			putchar('\n');
			json_decref(arr);
		} else {
			for (i = 0; i < n; i++)
				print_human(&in[i], outdir, n);
		}
	}
	for (i = 0; i < n; i++)
		rtm_result_free(in[i].r);
	free(in);
	return ret;
}
