// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_import_noise - the importers of rtla osnoise top text and hwlatdetect
 * output (lib/result/import_noise.c). Seeds: tests/data/import/rtla-osnoise-top*.txt,
 * hwlatdetect*.txt.
 */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (rtm_import_detect((const char *)data, size) == RTM_IMPORT_HWLATDETECT)
		return import_target(data, size, RTM_IMPORT_HWLATDETECT);
	return import_target(data, size, RTM_IMPORT_RTLA_OSNOISE_TOP);
}
