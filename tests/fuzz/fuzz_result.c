// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_result - the result.json loader (rtm_result_from_json, as
 * rtm_result_load reads a file). A result it accepts must save and load back.
 * Seeds: tests/data/results, tests/data/compare.
 */
#include <jansson.h>

#include "result/result.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtm_error err = { "" };
	struct rtm_result *r, *back;
	json_t *root, *saved;

	root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
	if (!root)
		return 0;
	r = rtm_result_from_json(root, "fuzz.json", &err);
	json_decref(root);
	if (!r) {
		fuzz_check_msg(&err);
		return 0;
	}
	saved = rtm_result_to_json(r);
	fuzz_check(saved != NULL, "a loaded result has no JSON form");
	back = rtm_result_from_json(saved, "saved", &err);
	fuzz_check(back != NULL, "a loaded result does not load back once saved: %s", err.msg);
	fuzz_check(back->ncpus == r->ncpus, "CPUs %d -> %d", r->ncpus, back->ncpus);
	json_decref(saved);
	rtm_result_free(back);
	rtm_result_free(r);
	return 0;
}
