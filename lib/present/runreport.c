// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runreport.c - what a measuring session shows at its end (runreport.h): the
 * summary table of run, cyclic and noise, and the report run and noise write
 * into their results folder.
 */
#include <string.h>

#include "present/plot.h"
#include "present/report.h"
#include "present/runreport.h"
#include "present/io_print.h"
#include "present/noise_print.h"
#include "present/summary_print.h"

void rtm_runreport_summary(const struct rtm_session_opts *o, const struct rtm_result *r,
			   FILE *f)
{
	const json_t *noise = json_object_get(r->sections, "noise");
	const json_t *io = json_object_get(r->sections, "io");

	if (!strcmp(o->ops->section, "cpus")) {	/* a wake-up latency probe */
		rtm_summary_fprint_unit(r, f, o->out.nsecs);
		if (io) {	/* run --io */
			fprintf(f, "\nstorage probe (beside the timer probe):\n");
			rtm_io_fprint(io, f);
		}
		if (noise) {	/* run --noise */
			fprintf(f, "\nnoise phase (after the latency phase, same CPUs):\n");
			rtm_noise_fprint(noise, f, o->out.verbose);
		}
	} else {
		rtm_noise_fprint(noise, f, o->out.verbose);
	}
}

int rtm_runreport_write(const struct rtm_result *r, const char *dir, struct rtm_error *err)
{
	struct rtm_report_opts ro = { .results_dir = dir, .out_dir = dir,
				      .formats = 1u << RTM_PLOT_PNG, .width = 1000,
				      .height = 560 };

	if (rtm_plot_check(err))
		return 1;	/* no drawing tool: a note, not an output lost */
	return rtm_report_write(r, &ro, err);
}
