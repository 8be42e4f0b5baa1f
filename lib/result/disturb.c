// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * disturb.c - what disturbed a run: the one list of warnings every output
 * carries (disturb.h).
 */
#include <stdio.h>
#include <string.h>

#include "result/disturb.h"
#include "core/jsonutil.h"

const char *const rtm_disturb_keys[RTM_DISTURB_NKEYS] = {
	[RTM_DISTURB_SHARED_CPUS] = "shared_cpus",
	[RTM_DISTURB_INTERRUPTED] = "interrupted",
	[RTM_DISTURB_MISSED] = "missed_periods",
	[RTM_DISTURB_HYPERVISOR] = "hypervisor",
	[RTM_DISTURB_EMULATED] = "emulated",
};

#define TEXT_LEN sizeof(((struct rtm_disturbance *)0)->text)

static struct rtm_disturbance *add(struct rtm_disturbances *out, enum rtm_disturb_kind kind)
{
	struct rtm_disturbance *d = &out->d[out->n++];

	d->kind = kind;
	d->key = rtm_disturb_keys[kind];
	d->text[0] = '\0';
	return d;
}

void rtm_disturb_shared_text(char *buf, size_t len, const char *cpus, long pid, bool live)
{
	char who[32] = "";
	bool many = strpbrk(cpus, ",-") != NULL;

	if (pid > 0)
		snprintf(who, sizeof(who), " (pid %ld)", pid);
	if (live)
		snprintf(buf, len, "another rtmeasure measures CPU%s %s too%s: its probes disturb "
			 "these numbers", many ? "s" : "", cpus, who);
	else
		snprintf(buf, len, "another rtmeasure measured CPU%s %s during this run%s: its "
			 "probes disturb these numbers", many ? "s" : "", cpus, who);
}

void rtm_disturb_duration_text(char *buf, size_t len, uint64_t measured_ns, uint64_t asked_ns,
			       const char *signame)
{
	int n = snprintf(buf, len, "%.1f s", (double)measured_ns / 1e9);

	if (n < 0 || (size_t)n >= len)
		return;
	if (asked_ns)
		n += snprintf(buf + n, len - (size_t)n, " of %.10g s asked",
			      (double)asked_ns / 1e9);
	if (signame && *signame && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", stopped by %s", signame);
}

void rtm_disturb_interrupted_text(char *buf, size_t len, uint64_t measured_ns,
				  uint64_t asked_ns, const char *signame)
{
	char dur[96];

	rtm_disturb_duration_text(dur, sizeof(dur), measured_ns, asked_ns, signame);
	snprintf(buf, len, "interrupted after %s: the figures cover only the time measured", dur);
}

static uint64_t asked_ns(const struct rtm_result *r)
{
	json_int_t v = json_integer_value(json_object_get(r->options, "duration_ns"));

	return v > 0 ? (uint64_t)v : 0;
}

void rtm_result_duration_text(const struct rtm_result *r, char *buf, size_t len)
{
	if (!r->interrupted)
		rtm_disturb_duration_text(buf, len, r->duration_ns, 0, NULL);
	else
		rtm_disturb_duration_text(buf, len, r->duration_ns, asked_ns(r), r->stop_signal);
}

/* Stopped before the length (or the loops) it was asked for; a noise phase cut short. */
static void interrupted(const struct rtm_result *r, struct rtm_disturbances *out)
{
	const json_t *phase = rtm_json_path(r->sections, "noise.phase");
	json_int_t loops = json_integer_value(json_object_get(r->options, "loops"));
	char dur[96];

	if (r->interrupted && asked_ns(r)) {
		rtm_disturb_interrupted_text(add(out, RTM_DISTURB_INTERRUPTED)->text, TEXT_LEN,
					     r->duration_ns, asked_ns(r), r->stop_signal);
	} else if (r->interrupted && loops > 0) {
		rtm_result_duration_text(r, dur, sizeof(dur));
		snprintf(add(out, RTM_DISTURB_INTERRUPTED)->text, TEXT_LEN, "interrupted after "
			 "%s, before its %lld loops: the figures cover only the time measured", dur,
			 (long long)loops);
	} else if (json_is_true(json_object_get(phase, "interrupted"))) {
		rtm_disturb_duration_text(dur, sizeof(dur), (uint64_t)json_integer_value(
				rtm_json_path(r->sections, "noise.duration_ns")),
				(uint64_t)json_integer_value(json_object_get(phase, "planned_ns")),
				NULL);
		snprintf(add(out, RTM_DISTURB_INTERRUPTED)->text, TEXT_LEN, "the noise phase was "
			 "interrupted after %s: its figures cover only the time measured", dur);
	}
}

bool rtm_disturb_missed_text(char *buf, size_t len, uint64_t samples, uint64_t overruns,
			     bool kept)
{
	double frac = samples + overruns ? (double)overruns / (double)(samples + overruns) : 0;

	if (frac <= RTM_DISTURB_MISSED_FRAC)
		return false;
	snprintf(buf, len, "missed %.1f%% of its periods (%llu of %llu, more than %.0f%%): its "
		 "percentiles are of the measured wake-ups only and do not include the corrected "
		 "histogram (%s), so they understate the latency of the missed periods",
		 frac * 100.0, (unsigned long long)overruns,
		 (unsigned long long)(samples + overruns), RTM_DISTURB_MISSED_FRAC * 100.0,
		 kept ? "result.json keeps it: hist + hist_implied" : "the run kept none");
	return true;
}

/* More than RTM_DISTURB_MISSED_FRAC of the periods missed entirely. */
static void missed(const struct rtm_result *r, struct rtm_disturbances *out)
{
	uint64_t samples = 0, overruns = 0;
	bool kept = r->ncpus > 0;
	char text[TEXT_LEN];
	int i;

	for (i = 0; i < r->ncpus; i++) {
		samples += r->cpus[i].raw->count;
		overruns += r->cpus[i].overruns;
		kept &= r->cpus[i].corrected != NULL;
	}
	if (rtm_disturb_missed_text(text, sizeof(text), samples, overruns, kept))
		memcpy(add(out, RTM_DISTURB_MISSED)->text, text, sizeof(text));
}

/* A hypervisor under the run; qemu's TCG (CPUID 0x40000000 "TCGTCGTCGTCG"): emulated. */
static void virtualised(const struct rtm_result *r, struct rtm_disturbances *out)
{
	static const char *const keys[] = {
		"virtualization.hypervisor", "virtualization.cpuid", "virtualization.kernel",
	};
	const char *hv = json_string_value(rtm_json_path(r->sysinfo, "virtualization.hypervisor"));
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *s = json_string_value(rtm_json_path(r->sysinfo, keys[i]));

		if (s && strstr(s, "TCG")) {
			snprintf(add(out, RTM_DISTURB_EMULATED)->text, TEXT_LEN, "ran emulated "
				 "(QEMU TCG): an emulated CPU's timing says nothing about real "
				 "hardware, only about kernels relative to each other");
			return;
		}
	}
	if (!json_is_true(rtm_json_path(r->sysinfo, "virtualization.vm")))
		return;
	snprintf(add(out, RTM_DISTURB_HYPERVISOR)->text, TEXT_LEN, "ran under a hypervisor "
		 "(%.60s): its exits and vCPU scheduling add latency that no guest kernel can remove",
		 hv && *hv ? hv : "unknown");
}

void rtm_result_disturbances(const struct rtm_result *r, struct rtm_disturbances *out)
{
	const json_t *sh = json_object_get(r->sections, "shared_cpus");
	const char *cpus = json_string_value(json_object_get(sh, "cpus"));

	out->n = 0;
	if (cpus)
		rtm_disturb_shared_text(add(out, RTM_DISTURB_SHARED_CPUS)->text, TEXT_LEN, cpus,
					(long)json_integer_value(json_object_get(sh, "other_pid")),
					false);
	interrupted(r, out);
	missed(r, out);
	virtualised(r, out);
}

const struct rtm_disturbance *rtm_disturbances_find(const struct rtm_disturbances *d,
						    const char *key)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->d[i].key, key))
			return &d->d[i];
	return NULL;
}

json_t *rtm_disturbances_to_json(const struct rtm_disturbances *d)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a && i < d->n; i++)
		json_array_append_new(a, json_pack("{s:s, s:o}", "id", d->d[i].key, "message",
						   rtm_json_text(d->d[i].text)));
	return a;
}
