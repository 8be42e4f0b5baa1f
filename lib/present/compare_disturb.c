// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare_disturb.c - what disturbed each side's runs (result/disturb.h): a
 * warning per side and kind, and the verdicts of a side whose CPUs another
 * measuring rtmeasure shared said to be open to that, latency and noise alike.
 */
#include <stdio.h>
#include <string.h>

#include "present/compare_priv.h"

/* The disturbances of the round being digested, merged into its side's by key. */
void rtm_compare_disturb_digest(struct rtm_compare_run *run, const struct rtm_result *r)
{
	struct rtm_disturbances d;
	int i, k;

	rtm_result_disturbances(r, &d);
	for (i = 0; i < d.n; i++) {
		struct rtm_compare_disturb *x = NULL;

		for (k = 0; k < run->ndisturb && !x; k++)
			if (!strcmp(run->disturb[k].key, d.d[i].key))
				x = &run->disturb[k];
		if (!x) {
			x = &run->disturb[run->ndisturb++];
			x->key = d.d[i].key;
			x->rounds = 0;
			memcpy(x->text, d.d[i].text, sizeof(x->text));
		}
		x->rounds++;
		run->vm |= !strcmp(x->key, "hypervisor") || !strcmp(x->key, "emulated");
		run->emulated |= !strcmp(x->key, "emulated");
	}
}

bool rtm_compare_disturbed(const struct rtm_compare_run *run, const char *key)
{
	int k;

	for (k = 0; k < run->ndisturb; k++)
		if (!strcmp(run->disturb[k].key, key))
			return true;
	return false;
}

/*
 * A side of several runs: its missed periods over all of them, as the table's
 * merged histogram and summed overruns show them (the rule is result/disturb.h's).
 */
static void side_missed(struct rtm_compare_run *run)
{
	uint64_t samples = 0, overruns = 0;
	struct rtm_compare_disturb *x = NULL;
	char text[sizeof(x->text)];
	int j, k;

	if (run->nrounds < 2)
		return;
	for (j = 0; j < run->nrounds; j++) {
		samples += run->rounds[j].samples;
		overruns += run->rounds[j].overruns;
	}
	for (k = 0; k < run->ndisturb; k++)
		if (!strcmp(run->disturb[k].key, "missed_periods"))
			x = &run->disturb[k];
	if (!rtm_disturb_missed_text(text, sizeof(text), samples, overruns,
				     run->corrected_kept)) {
		if (x)		/* a run over the bound, the side not: the side's figure */
			*x = run->disturb[--run->ndisturb];
		return;
	}
	if (!x) {
		x = &run->disturb[run->ndisturb++];
		x->key = rtm_disturb_keys[RTM_DISTURB_MISSED];
	}
	memcpy(x->text, text, sizeof(text));
	x->rounds = -1;
}

/* The warning of @x, a disturbance of side @run, named after the side. */
static void side_text(const struct rtm_compare_run *run, const struct rtm_compare_disturb *x,
		      char *buf, size_t len)
{
	if (x->rounds < 0)	/* about the side's runs together */
		snprintf(buf, len, "%s, its %d runs together: %s", run->label, run->nrounds,
			 x->text);
	else if (run->nrounds > 1)
		snprintf(buf, len, "%s (%d of its %d runs; the first): %s", run->label, x->rounds,
			 run->nrounds, x->text);
	else
		snprintf(buf, len, "%s: %s", run->label, x->text);
}

int rtm_compare_disturb_warnings(const struct rtm_compare *c, struct rtm_compare_warning *w,
				 int max)
{
	int i, k, n = 0;

	for (i = 0; i < c->nruns; i++)
		for (k = 0; k < c->runs[i].ndisturb && n < max; k++) {
			const struct rtm_compare_disturb *x = &c->runs[i].disturb[k];

			if (!strcmp(x->key, "hypervisor") || !strcmp(x->key, "emulated"))
				continue;
			w[n].field = RTM_FP_NFIELDS;
			w[n].id = x->key;
			side_text(&c->runs[i], x, w[n].text, sizeof(w[n].text));
			n++;
		}
	return n;
}

/* "a", "b", "a and b": the sides of comparison @i whose CPUs were shared; "" when none. */
static int shared_sides(const struct rtm_compare *c, int i, char *buf, size_t len)
{
	bool a = rtm_compare_disturbed(&c->runs[0], "shared_cpus");
	bool b = rtm_compare_disturbed(&c->runs[i], "shared_cpus");

	snprintf(buf, len, "%s%s%s", a ? c->runs[0].label : "", a && b ? " and " : "",
		 b ? c->runs[i].label : "");
	return a + b;
}

void rtm_compare_disturb_qualify(const struct rtm_compare *c, int i, char *text, size_t size)
{
	char who[160];
	size_t len = strlen(text);
	int n = shared_sides(c, i, who, sizeof(who));

	if (!n || len + 1 >= size)
		return;
	snprintf(text + len, size - len, "; but %s shared %s CPUs with another measuring "
		 "rtmeasure (warning shared_cpus): the verdict may be about that disturbance, not "
		 "the set-ups", who, n > 1 ? "their" : "its");
}

void rtm_compare_disturb_finish(struct rtm_compare *c)
{
	int i;

	for (i = 0; i < c->nruns; i++)
		side_missed(&c->runs[i]);
	c->nwarnings += rtm_compare_disturb_warnings(c, c->warnings + c->nwarnings,
						     RTM_COMPARE_MAX_WARNINGS - c->nwarnings);
	for (i = 0; i < c->nverdicts; i++)	/* "too few samples" is no verdict on the numbers */
		if (c->verdicts[i].kind != RTM_VERDICT_FEW)
			rtm_compare_disturb_qualify(c, c->verdicts[i].run, c->verdicts[i].text,
						    sizeof(c->verdicts[i].text));
}

json_t *rtm_compare_disturb_run_json(const struct rtm_compare_run *run)
{
	json_t *a = json_array();
	int k;

	for (k = 0; a && k < run->ndisturb; k++)
		json_array_append_new(a, json_pack("{s:s, s:i, s:s}", "id", run->disturb[k].key,
						   "runs", run->disturb[k].rounds < 0 ? run->nrounds :
						   run->disturb[k].rounds, "message",
						   run->disturb[k].text));
	return a;
}

json_t *rtm_compare_disturb_shared_json(const struct rtm_compare *c, int i)
{
	json_t *a = json_array();

	if (rtm_compare_disturbed(&c->runs[0], "shared_cpus"))
		json_array_append_new(a, json_string(c->runs[0].label));
	if (rtm_compare_disturbed(&c->runs[i], "shared_cpus"))
		json_array_append_new(a, json_string(c->runs[i].label));
	return a;
}
