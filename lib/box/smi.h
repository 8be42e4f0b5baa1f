/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * smi.h - System Management Interrupts counted by the CPU.
 *
 * Intel CPUs count the SMIs each one entered in MSR_SMI_COUNT (0x34, bits 31:0),
 * readable by root through /dev/cpu/N/msr (the msr module). An SMI stops the CPU
 * in firmware, unseen by the kernel and its tracepoints: when the count grew over
 * a run, the gaps no event explains point at firmware. AMD CPUs have no such
 * counter; a VM may fault the read (or have no msr device). Every reading says
 * why it could not be made, so the result can say "unknown" and why.
 */
#ifndef RTM_SMI_H
#define RTM_SMI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RTM_MSR_SMI_COUNT	0x34

/* One reading of a CPU's counter: @count when @ok, else @why. */
struct rtm_smi_count {
	bool ok;
	uint64_t count;
	char why[160];
};

/*
 * The CPU vendor /proc/cpuinfo names: true for GenuineIntel (the counter's
 * owner). @root is where / is ("/"; a test's folder).
 */
bool rtm_smi_intel(const char *root);

/*
 * Whether `modprobe msr` could help: an Intel CPU whose /dev/cpu/0/msr is
 * missing (the module not loaded).
 */
bool rtm_smi_needs_module(const char *root);

/* Read MSR_SMI_COUNT of @cpu through @root/dev/cpu/@cpu/msr into @c. */
void rtm_smi_read(const char *root, int cpu, struct rtm_smi_count *c);

/*
 * rtm_smi_delta - the SMIs of a run from the readings before and after
 * 0 with @smis (the 32-bit counter's wrap taken into account), or -1 with @why
 * pointing at the reason the count is unknown (one of the readings' own).
 */
int rtm_smi_delta(const struct rtm_smi_count *before, const struct rtm_smi_count *after,
		  uint64_t *smis, const char **why);

#endif
