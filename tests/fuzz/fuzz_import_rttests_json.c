// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_import_rttests_json - the importer of rt-tests --json (cyclictest, oslat). Seeds: tests/data/import. */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return import_target(data, size, RTM_IMPORT_RTTESTS_JSON);
}
