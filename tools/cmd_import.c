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

#include "cli/opts.h"
#include "core/fileio.h"
#include "result/import.h"
#include "probe/probe_noise.h"
#include "present/noise_print.h"
#include "cli/cli.h"
#include "rtmeasure.h"
#include "result/summary.h"
#include "present/summary_print.h"
#include "core/units.h"

/* Groups of import --help: the common options, what the file does not tell. */
enum { IG_MAIN, IG_SOURCE };

static const struct rtm_opt import_opts[] = {
	{ "output", 'o', required_argument, "DIR", IG_MAIN,
	  "the results folder (must not exist, or be empty)" },
	{ "cpus", 'a', required_argument, "CPUS", IG_SOURCE,
	  "cyclictest text: the CPUs the run measured (its -a list; --affinity too): thread "
	  "i ran on the i-th CPU, and the folder numbers them so" },
	{ "affinity", 'a', required_argument, "CPUS", IG_SOURCE, NULL },
	{ "nsecs", 'N', no_argument, NULL, IG_SOURCE,
	  "cyclictest text recorded with -N (rows in ns)" },
	{ "bucket-size", 'b', required_argument, "N", IG_SOURCE,
	  "rtla: the run's -b (default: from the row indices)" },
	{ "command-line", 'C', required_argument, "CMD", IG_SOURCE,
	  "cyclictest text: the run's command line (as rt-tests JSON names it): interval, "
	  "priority, CPUs, duration and -h are taken from it" },
	{ "format", 'F', required_argument, "NAME", IG_MAIN,
	  "the files' format, checked against the content: cyclictest-hist, rt-tests-json, "
	  "rtla-hist (timerlat and osnoise hist), rtla-osnoise-top, hwlatdetect" },
	{ "json", 'j', no_argument, NULL, IG_MAIN, "print what was imported as JSON" },
	{ "quiet", 'q', no_argument, NULL, IG_MAIN, "print nothing but errors" },
	RTM_OPT_HELP_ROWS(IG_MAIN),
	RTM_OPT_END,
};

static const struct rtm_opt_group import_groups[] = {
	[IG_MAIN] = { NULL, true },
	[IG_SOURCE] = { "Source details (what the file does not tell)", false },
};

static const struct rtm_cmd_opts import_cmd = {
	.command = "import",
	.usage = "usage: rtmeasure import [options] -o DIR FILE...\n\n"
		"Turns other tools' latency output into results folders that report,\n"
		"compare and export read. The format is recognised by the content:\n"
		"cyclictest -h/-H/--histfile text, cyclictest and oslat --json (rt-tests),\n"
		"rtla timerlat hist and rtla osnoise hist text; rtla osnoise top text and\n"
		"hwlatdetect output (stdout or --report file) as noise results (osnoise\n"
		"hist too). One FILE gives the folder\n"
		"DIR; several give DIR/<file name without extension>/ each. What the source\n"
		"cannot tell (samples beyond the histogram's last row, which CPU a thread ran\n"
		"on) is stated in the output and in result.json (sections.provenance).\n",
	.groups = import_groups,
	.ngroups = sizeof(import_groups) / sizeof(import_groups[0]),
	.tables = { import_opts },
};

struct import_cmd_opts {
	struct rtm_import_opts import;	/* what the files do not tell */
	char outdir[PATH_MAX];		/* -o, without trailing slashes */
	bool json, quiet;
	int help;		/* RTM_OPT_HELP or RTM_OPT_HELP_ALL: print it and stop */
	char **files;		/* the operands */
	int nfiles;
};

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
		rtm_noise_fprint(json_object_get(in->r->sections, "noise"), stdout, true);
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

/* The values of -a, -b, -F and -C into @o; 0 or RTM_EXIT_USAGE after the message. */
static int import_value(struct rtm_import_opts *o, int c, const char *arg)
{
	struct rtm_cpulist cl = { 0, NULL };
	struct rtm_error err = { "" };
	char *end;

	switch (c) {
	case 'a':
		if (rtm_cpulist_parse(arg, &cl, &err) || !cl.n) {
			rtm_cpulist_release(&cl);
			return rtm_cli_fail("import: -a/--cpus: %s", err.msg[0] ? err.msg :
					    "empty CPU list");
		}
		rtm_cpulist_release(&cl);
		o->affinity = arg;
		return 0;
	case 'b':
		errno = 0;
		o->rtla_bucket = strtoull(arg, &end, 10);
		if (errno || *end || !o->rtla_bucket || arg[0] == '-')
			return rtm_cli_fail("import: --bucket-size '%s': give a positive integer "
					    "(rtla's -b)", arg);
		return 0;
	case 'F':
		o->format = rtm_import_format_parse(arg);
		if (!o->format)
			return rtm_cli_fail("import: --format '%s': give cyclictest-hist, "
					    "rt-tests-json, rtla-hist, rtla-osnoise-top or "
					    "hwlatdetect (or leave it out: the content tells)",
					    arg);
		return 0;
	case 'C':
		if (strncmp(arg, "cyclictest", 10) && !strstr(arg, "/cyclictest") &&
		    strncmp(arg, "oslat", 5) && !strstr(arg, "/oslat"))
			return rtm_cli_fail("import: --command-line '%s': give the run's "
					    "cyclictest or oslat command line ('cyclictest -i 200 "
					    "-p 95 ...')", arg);
		o->command_line = arg;
		return 0;
	}
	return 0;
}

/* argv into @o; 0 or RTM_EXIT_USAGE after the one-line message. */
static int import_parse(int argc, char **argv, struct import_cmd_opts *o)
{
	const char *dir = NULL;
	struct rtm_getopt g;
	int c, i, ret = 0;

	if (rtm_opts_getopt(&import_cmd, &g))
		return rtm_cli_fail("import: bad option table");
	optind = 1;
	opterr = 0;
	while (!ret && !o->help && (c = getopt_long(argc, argv, g.shortopts, g.longopts,
						      NULL)) != -1) {
		if (c == 'o')
			dir = optarg;
		else if (c == 'N')
			o->import.nsecs = true;
		else if (c == 'j')
			o->json = true;
		else if (c == 'q')
			o->quiet = true;
		else if (c == RTM_OPT_HELP || c == RTM_OPT_HELP_ALL)
			o->help = c;
		else if (c == 'a' || c == 'b' || c == 'F' || c == 'C')
			ret = import_value(&o->import, c, optarg);
		else
			ret = rtm_cli_bad_option("import", g.shortopts, g.longopts, argv);
	}
	if (ret || o->help)
		return ret;
	if (optind >= argc)
		return rtm_cli_fail("import: give the files to import (rtmeasure import --help)");
	if (!dir)
		return rtm_cli_fail("import: give the results folder with -o DIR");
	if (rtm_cli_outdir_named("import", dir))
		return RTM_EXIT_USAGE;
	if (snprintf(o->outdir, sizeof(o->outdir), "%s", dir) >= (int)sizeof(o->outdir) - 32)
		return rtm_cli_fail("import: -o: folder name too long");
	for (i = (int)strlen(o->outdir) - 1; i > 0 && o->outdir[i] == '/'; i--)
		o->outdir[i] = '\0';
	o->files = argv + optind;
	o->nfiles = argc - optind;
	return 0;
}

/* What was imported, as a table per folder or one JSON array. */
static void import_print(const struct input *in, int n, const char *outdir, bool json)
{
	json_t *arr;
	int i;

	if (!json) {
		for (i = 0; i < n; i++)
			print_human(&in[i], outdir, n);
		return;
	}
	arr = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(arr, to_json(&in[i], outdir, n));
	json_dumpf(arr, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(arr);
}

int cmd_import(int argc, char **argv, const struct rtm_cli *cli)
{
	struct import_cmd_opts o = { .import = { NULL, false, 0, NULL, RTM_IMPORT_UNKNOWN } };
	struct rtm_error err = { "" };
	struct input *in;
	int i, n, ret;

	ret = import_parse(argc, argv, &o);
	if (o.help)
		rtm_opts_help(&import_cmd, stdout, o.help == RTM_OPT_HELP_ALL);
	if (ret || o.help)
		return ret;
	n = o.nfiles;
	in = calloc((size_t)n, sizeof(*in));
	if (!in)
		return rtm_cli_fail("out of memory");
	for (i = 0; i < n; i++)
		in[i].file = o.files[i];
	if (n > 1)
		ret = folder_names(in, n, o.outdir);
	for (i = 0; i < n && ret == RTM_EXIT_OK; i++) {
		in[i].r = rtm_import_file(in[i].file, &o.import, &err);
		if (!in[i].r)
			ret = rtm_cli_fail("import: %s", err.msg);
	}
	if (ret == RTM_EXIT_OK)
		ret = check_target(o.outdir);
	if (ret == RTM_EXIT_OK)
		ret = write_all(in, n, o.outdir);
	if (ret == RTM_EXIT_OK && !o.quiet)
		import_print(in, n, o.outdir, o.json);
	for (i = 0; i < n; i++)
		rtm_result_free(in[i].r);
	free(in);
	return ret;
}
