/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_import.h - one importer's target: inputs of the other formats are left
 * alone, so the time goes to the importer the target names. Each input runs
 * with the default options and with -N / -a / rtla -b given, and a result it
 * gives must save and load back.
 */
#ifndef RTM_FUZZ_IMPORT_H
#define RTM_FUZZ_IMPORT_H

#include "result/import.h"
#include "result/result.h"
#include "fuzz.h"

static void import_once(const uint8_t *data, size_t size, const struct rtm_import_opts *o)
{
	struct rtm_error err = { "" };
	struct rtm_result *r, *back;
	json_t *saved;

	r = rtm_import_buffer((const char *)data, size, "fuzz.txt", o, &err);
	if (!r) {
		fuzz_check_msg(&err);
		return;
	}
	saved = rtm_result_to_json(r);
	fuzz_check(saved != NULL, "an imported result has no JSON form");
	back = rtm_result_from_json(saved, "imported", &err);
	fuzz_check(back != NULL, "an imported result does not load back: %s", err.msg);
	json_decref(saved);
	rtm_result_free(back);
	rtm_result_free(r);
}

static int import_target(const uint8_t *data, size_t size, enum rtm_import_format fmt)
{
	static const struct rtm_import_opts with = {
		.affinity = "0-3,6", .nsecs = true, .rtla_bucket = 3,
	};

	if (rtm_import_detect((const char *)data, size) != fmt)
		return 0;
	import_once(data, size, NULL);
	import_once(data, size, &with);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

#endif
