// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_export.c - rtmeasure export: a result as cyclictest-compatible JSON or CSV.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "fileio.h"
#include "rtmeasure.h"

static void export_usage(FILE *f)
{
	fprintf(f, "usage: rtmeasure export (--cyclictest-json | --csv) [-o FILE] "
		"DIR|result.json\n\n"
		"Writes a results folder in another tool's format, to stdout or FILE:\n\n"
		"  --cyclictest-json   the JSON cyclictest --json writes (rt-tests keys, with\n"
		"                      their stray colon: \"cmdline:\", \"rt_test_version:\"),\n"
		"                      one thread per CPU, microsecond histogram rows\n"
		"  --csv               cpu,lo_ns,hi_ns,count: one line per CPU per non-empty\n"
		"                      histogram bucket\n"
		"  -o, --output FILE   write FILE instead of stdout (- is stdout): a regular\n"
		"                      file is replaced atomically, a FIFO or character\n"
		"                      device is written in place; a symbolic link is\n"
		"                      refused\n"
		"      --follow        let -o FILE be a symbolic link (its target is written)\n"
		"      --help          this help\n");
}

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cyclictest-json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ "follow", no_argument, NULL, 2010 },
		{ "help", no_argument, NULL, 2000 },
		{ NULL, 0, NULL, 0 },
	};
	struct rtm_error err = { "" };
	struct rtm_result *r;
	const char *out = NULL;
	char *text = NULL, cmdline[4096];
	size_t len = 0;
	unsigned int oflags = 0;
	int c, fmt = 0, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'J':
		case 'C':
			if (fmt && fmt != c)
				return rtm_cli_fail("export: give one of --cyclictest-json and "
						    "--csv");
			fmt = c;
			break;
		case 'o':
			out = optarg;
			break;
		case 2010:
			oflags |= RTM_OUT_FOLLOW;
			break;
		case 2000:
			export_usage(stdout);
			return RTM_EXIT_OK;
		default:
			return rtm_cli_bad_option("export", "o:", longopts, argv);
		}
	}
	if (!fmt)
		return rtm_cli_fail("export: give --cyclictest-json or --csv (rtmeasure export "
				    "--help)");
	if (optind != argc - 1)
		return rtm_cli_fail("export: give one results folder or result.json");
	if (out && !strcmp(out, "-"))
		out = NULL;	/* stdout, as the usual convention */
	/* a symlink, folder or missing folder at -o is refused before any work */
	if (out && (ret = rtm_target_check(out, oflags)) < 0)
		return rtm_cli_fail("export: cannot write %s: %s", out, rtm_write_strerror(ret));
	r = rtm_result_load(argv[optind], &err);
	if (!r)
		return rtm_cli_fail("export: %s", err.msg);
	if (fmt == 'J') {
		json_t *j;

		snprintf(cmdline, sizeof(cmdline), "rtmeasure export --cyclictest-json %s",
			 argv[optind]);
		j = rtm_export_cyclictest_json(r, cmdline);
		text = j ? json_dumps(j, JSON_INDENT(2)) : NULL;
		json_decref(j);
		if (text) {
			char *t = realloc(text, strlen(text) + 2);

			if (t) {
				text = t;
				strcat(text, "\n");
			}
		}
		len = text ? strlen(text) : 0;
	} else {
		FILE *f = open_memstream(&text, &len);

		if (f) {
			ret = rtm_export_csv(r, f);
			if (fclose(f) || ret) {
				free(text);
				text = NULL;
			}
		}
	}
	rtm_result_free(r);
	if (!text)
		return rtm_cli_fail("export: out of memory");
	if (out) {
		ret = rtm_write_target(out, text, len, oflags);
		if (ret) {
			free(text);
			return rtm_cli_fail("export: cannot write %s: %s", out,
					    rtm_write_strerror(ret));
		}
	} else if (fwrite(text, 1, len, stdout) != len || fflush(stdout)) {
		free(text);
		return rtm_cli_fail("export: cannot write to stdout");
	}
	free(text);
	return RTM_EXIT_OK;
}
