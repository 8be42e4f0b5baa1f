// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_import_rtla - the importer of rtla timerlat / osnoise hist text. Seeds: tests/data/import. */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return import_target(data, size, RTM_IMPORT_RTLA_HIST);
}
