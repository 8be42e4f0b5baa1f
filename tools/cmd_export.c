// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_export.c - rtmeasure export: a result as cyclictest-compatible JSON, CSV or
 * Prometheus metrics (a node_exporter textfile, or a push to a Pushgateway).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/export.h"
#include "core/fileio.h"
#include "core/jsonutil.h"
#include "present/prom.h"
#include "cli/cli.h"
#include "rtmeasure.h"

static void export_usage(FILE *f)
{
	fprintf(f, "usage: rtmeasure export (--cyclictest-json | --csv | --csv-gaps | "
		"--prometheus | --openmetrics) [-o FILE] DIR|result.json\n"
		"       rtmeasure export --prometheus-textfile FILE.prom DIR|result.json\n"
		"       rtmeasure export --push URL [--job NAME] [--instance NAME] "
		"DIR|result.json\n\n"
		"Writes a results folder in another tool's format, to stdout or FILE:\n\n"
		"  --cyclictest-json   the JSON cyclictest --json writes (rt-tests keys, with\n"
		"                      their stray colon: \"cmdline:\", \"rt_test_version:\"),\n"
		"                      one thread per CPU, microsecond histogram rows\n"
		"  --csv               cpu,lo_ns,hi_ns,count: one line per CPU per non-empty\n"
		"                      histogram bucket (a noise result: its gap-length\n"
		"                      histogram, cpu,gap_lo_ns,gap_hi_ns,count)\n"
		"  --csv-gaps          a noise result's gaps, cpu,start_ns,length_ns: one\n"
		"                      line per gap in result.json's gap list\n"
		"  --prometheus        Prometheus text format 0.0.4 (the metrics of\n"
		"                      docs/prometheus.md: wake-up latency histogram per\n"
		"                      CPU, max and percentiles, overruns, IRQs; a noise\n"
		"                      result's noise series)\n"
		"  --openmetrics       the same in OpenMetrics 1.0\n"
		"  --prometheus-textfile FILE.prom\n"
		"                      --prometheus written atomically to FILE.prom, for\n"
		"                      node_exporter's textfile collector\n"
		"  --push URL          --prometheus sent to the Pushgateway at URL\n"
		"                      (http://host:9091), grouped by job and instance\n"
		"  --job NAME          the push's job label (default rtmeasure)\n"
		"  --instance NAME     the push's instance label (default: the result's host)\n"
		"  -o, --output FILE   write FILE instead of stdout (- is stdout): a regular\n"
		"                      file is replaced atomically, a FIFO or character\n"
		"                      device is written in place; a symbolic link is\n"
		"                      refused\n"
		"      --follow        let -o FILE be a symbolic link (its target is written)\n"
		"      --help          this help\n");
}

/* Prometheus options that cannot work, found before the result is read. */
static int export_prom_check(int fmt, const char *out, const char *push, const char *job,
			     const char *instance)
{
	size_t n = out ? strlen(out) : 0;

	if (fmt == 'T' && (n < 6 || strcmp(out + n - 5, ".prom")))
		return rtm_cli_fail("export: --prometheus-textfile %s: node_exporter reads only "
				    "files named *.prom (give FILE.prom)", out);
	if (fmt == 'U' && out)
		return rtm_cli_fail("export: --push sends the metrics, -o writes them: give one");
	if (fmt == 'U' && strncmp(push, "http://", 7) && strncmp(push, "https://", 8))
		return rtm_cli_fail("export: --push %s: give the Pushgateway's URL "
				    "(http://host:9091)", push);
	if (!*job || (instance && !*instance))
		return rtm_cli_fail("export: --job and --instance need a name");
	if (fmt != 'U' && (strcmp(job, "rtmeasure") || instance))
		return rtm_cli_fail("export: --job and --instance go with --push");
	return 0;
}

int cmd_export(int argc, char **argv, const struct rtm_cli *cli)
{
	static const struct option longopts[] = {
		{ "cyclictest-json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'C' },
		{ "csv-gaps", no_argument, NULL, 'G' },
		{ "output", required_argument, NULL, 'o' },
		{ "follow", no_argument, NULL, 2010 },
		{ "prometheus", no_argument, NULL, 'P' },
		{ "openmetrics", no_argument, NULL, 'M' },
		{ "prometheus-textfile", required_argument, NULL, 'T' },
		{ "push", required_argument, NULL, 'U' },
		{ "job", required_argument, NULL, 2001 },
		{ "instance", required_argument, NULL, 2002 },
		{ "help", no_argument, NULL, 2000 },
		{ NULL, 0, NULL, 0 },
	};
	struct rtm_error err = { "" };
	struct rtm_result *r;
	const char *out = NULL, *push = NULL, *job = "rtmeasure", *instance = NULL;
	char *text = NULL, cmdline[4096];
	size_t len = 0;
	unsigned int oflags = 0;
	uint64_t dropped = 0;
	bool noise;
	int c, fmt = 0, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'J':
		case 'C':
		case 'G':
		case 'P':
		case 'M':
		case 'T':
		case 'U':
			if (fmt && fmt != c)
				return rtm_cli_fail("export: give one of --cyclictest-json, --csv, "
						    "--csv-gaps, --prometheus, --openmetrics, "
						    "--prometheus-textfile and --push");
			fmt = c;
			if (c == 'T')
				out = optarg;
			if (c == 'U')
				push = optarg;
			break;
		case 2001:
			job = optarg;
			break;
		case 2002:
			instance = optarg;
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
		return rtm_cli_fail("export: give --cyclictest-json, --csv, --csv-gaps, --prometheus, "
				    "--openmetrics, --prometheus-textfile or --push (rtmeasure "
				    "export --help)");
	if ((ret = export_prom_check(fmt, out, push, job, instance)))
		return ret;
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
	noise = !r->ncpus && json_object_get(r->sections, "noise");
	/* a noise run has no wake-up latency: refused, not an empty file */
	if (fmt == 'J' && noise) {
		rtm_result_free(r);
		return rtm_cli_fail("export: %s holds a noise result (rtmeasure noise): "
				    "--cyclictest-json exports wake-up latency; use --csv or "
				    "--csv-gaps for its gaps, or --prometheus for its noise series",
				    argv[optind]);
	}
	if (fmt == 'G' && !noise) {
		rtm_result_free(r);
		return rtm_cli_fail("export: %s holds no noise result: --csv-gaps lists the gaps "
				    "of rtmeasure noise; --csv exports wake-up latency",
				    argv[optind]);
	}
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
			if (fmt == 'G' || (fmt == 'C' && noise))
				ret = rtm_export_noise_csv(r, f, fmt == 'G', &dropped, &err);
			else if (fmt == 'C')
				ret = rtm_export_csv(r, f);
			else
				ret = rtm_prom_write_result(f, fmt == 'M' ? RTM_PROM_OPENMETRICS :
							    RTM_PROM_TEXT, r, &err);
			if (fclose(f) || ret) {
				free(text);
				text = NULL;
			}
		}
	}
	if (text && push) {
		if (!instance && !(instance = rtm_json_path_str(r->sysinfo, "hostname"))) {
			free(text);
			rtm_result_free(r);
			return rtm_cli_fail("export: %s does not name its host: give --instance "
					    "NAME", argv[optind]);
		}
		ret = rtm_prom_push(push, job, instance, text, len, &err);
		free(text);
		rtm_result_free(r);
		return ret ? rtm_cli_fail("export: %s", err.msg) : RTM_EXIT_OK;
	}
	rtm_result_free(r);
	if (!text && err.msg[0])	/* a malformed section, named */
		return rtm_cli_fail("export: %s: %s", argv[optind], err.msg);
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
	if (dropped)
		fprintf(stderr, "export: warning: %llu gaps were counted beyond result.json's gap "
			"list (rtmeasure noise --max-gaps) and are not listed\n",
			(unsigned long long)dropped);
	return RTM_EXIT_OK;
}
