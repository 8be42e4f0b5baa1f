// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_proc_interrupts - the /proc/interrupts parser. Seeds: tests/data/irq, tests/data/sysroot-*. */
#include "fuzz_proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return proc_target(data, size, rtm_irq_parse_interrupts, "/proc/interrupts");
}
