// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the SMI counter (lib/box/smi.c) on fake roots: an Intel CPU whose
 * /dev/cpu/N/msr is a file holding MSR_SMI_COUNT at offset 0x34, one whose device
 * is missing (no msr module), one whose read comes up short (a VM refusing it),
 * an AMD CPU; and the decision from two readings (growth, the 32-bit wrap, either
 * reading unknown).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "box/smi.h"
#include "../tap.h"

static void put_file(const char *root, const char *path, const void *data, size_t len)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, path);
	f = fopen(p, "w");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

static void cpuinfo(const char *root, const char *vendor)
{
	char text[256], p[512];
	int n;

	snprintf(p, sizeof(p), "%s/proc", root);
	mkdir(p, 0755);
	n = snprintf(text, sizeof(text), "processor\t: 0\nvendor_id\t: %s\ncpu family\t: 6\n",
		     vendor);
	put_file(root, "/proc/cpuinfo", text, (size_t)n);
}

/* @root/dev/cpu/@cpu/msr holding @count at 0x34; @short_file: ends before it. */
static void msr(const char *root, int cpu, uint64_t count, bool short_file)
{
	unsigned char buf[0x40];
	char p[512];

	memset(buf, 0xee, sizeof(buf));
	memcpy(buf + 0x34, &count, 4);	/* the counter is bits 31:0 of the MSR */
	memset(buf + 0x38, 0xff, 4);	/* bits 63:32: reserved, masked */
	snprintf(p, sizeof(p), "%s/dev", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/dev/cpu", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/dev/cpu/%d", root, cpu);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "/dev/cpu/%d/msr", cpu);
	put_file(root, p, buf, short_file ? 0x30 : sizeof(buf));
}

int main(void)
{
	char root[] = "/tmp/rtm-test-smi-XXXXXX", cmd[600];
	struct rtm_smi_count b, a;
	const char *why = NULL;
	uint64_t n = 0;

	if (!mkdtemp(root)) {
		ok(0, "mkdtemp");
		return tap_done();
	}
	cpuinfo(root, "GenuineIntel");
	msr(root, 0, 41, false);
	msr(root, 1, 0xfffffffe, false);
	msr(root, 3, 7, true);
	ok(rtm_smi_intel(root), "GenuineIntel: Intel");
	ok(!rtm_smi_needs_module(root), "msr device there: no modprobe");

	rtm_smi_read(root, 0, &b);
	ok(b.ok && b.count == 41, "CPU 0: 41 read at 0x34, the high half masked (%llu)",
	   (unsigned long long)b.count);
	msr(root, 0, 44, false);
	rtm_smi_read(root, 0, &a);
	is_int(rtm_smi_delta(&b, &a, &n, &why), 0, "both read: known");
	is_int((long long)n, 3, "3 SMIs during the run");

	rtm_smi_read(root, 1, &b);
	msr(root, 1, 2, false);
	rtm_smi_read(root, 1, &a);
	rtm_smi_delta(&b, &a, &n, &why);
	is_int((long long)n, 4, "the 32-bit counter wrapped: 4");

	rtm_smi_read(root, 2, &b);
	ok(!b.ok, "CPU 2: no device");
	is_str(b.why, "no /dev/cpu/2/msr (the msr module: modprobe msr)", "... says modprobe msr");
	is_int(rtm_smi_delta(&b, &a, &n, &why), -1, "one reading unknown: unknown");
	is_str(why, b.why, "... with that reading's reason");
	is_int(rtm_smi_delta(&a, &b, &n, &why), -1, "the end's reading unknown: unknown");
	is_str(why, b.why, "... with its reason");

	rtm_smi_read(root, 3, &b);
	ok(!b.ok && strstr(b.why, "the CPU refused to read MSR 0x34 through /dev/cpu/3/msr "
			   "(short read; a VM that does not pass it through)"),
	   "a short read: refused, a VM named (%s)", b.why);

	snprintf(cmd, sizeof(cmd), "rm -rf %s/dev", root);
	if (system(cmd))
		diag("rm failed");
	ok(rtm_smi_needs_module(root), "Intel without /dev/cpu/0/msr: modprobe msr helps");

	cpuinfo(root, "AuthenticAMD");
	msr(root, 0, 41, false);
	ok(!rtm_smi_intel(root), "AuthenticAMD: not Intel");
	ok(!rtm_smi_needs_module(root), "AMD: modprobe msr does not help");
	rtm_smi_read(root, 0, &b);
	ok(!b.ok, "AMD: not read, though a device is there");
	is_str(b.why, "AuthenticAMD CPU: MSR_SMI_COUNT (0x34) is Intel's, this CPU counts no SMIs",
	       "AMD: unknown, and why");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		diag("rm failed");
	return tap_done();
}
