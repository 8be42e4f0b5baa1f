// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * smi.c - MSR_SMI_COUNT through /dev/cpu/N/msr (smi.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "box/smi.h"

/* @root + @path into @buf. */
static void at_root(char *buf, size_t len, const char *root, const char *path)
{
	snprintf(buf, len, "%s%s", root && strcmp(root, "/") ? root : "", path);
}

/* The vendor_id of /proc/cpuinfo into @buf ("" when not found). */
static void vendor(const char *root, char *buf, size_t len)
{
	char path[512], line[256];
	FILE *f;

	buf[0] = '\0';
	at_root(path, sizeof(path), root, "/proc/cpuinfo");
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "vendor_id : %63s", buf) == 1)
			break;
	fclose(f);
}

bool rtm_smi_intel(const char *root)
{
	char v[64];

	vendor(root, v, sizeof(v));
	return !strcmp(v, "GenuineIntel");
}

bool rtm_smi_needs_module(const char *root)
{
	char path[512];

	at_root(path, sizeof(path), root, "/dev/cpu/0/msr");
	return rtm_smi_intel(root) && access(path, F_OK) != 0;
}

void rtm_smi_read(const char *root, int cpu, struct rtm_smi_count *c)
{
	char path[512], dev[64], v[64];
	uint64_t val = 0;
	ssize_t n;
	int fd;

	memset(c, 0, sizeof(*c));
	vendor(root, v, sizeof(v));
	if (strcmp(v, "GenuineIntel")) {
		snprintf(c->why, sizeof(c->why), "%s CPU: MSR_SMI_COUNT (0x34) is Intel's, this "
			 "CPU counts no SMIs", *v ? v : "an unknown");
		return;
	}
	snprintf(dev, sizeof(dev), "/dev/cpu/%d/msr", cpu);
	at_root(path, sizeof(path), root, dev);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			snprintf(c->why, sizeof(c->why), "no %s (the msr module: modprobe msr)",
				 dev);
		else if (errno == EACCES || errno == EPERM)
			snprintf(c->why, sizeof(c->why), "%s needs root (CAP_SYS_RAWIO)", dev);
		else
			snprintf(c->why, sizeof(c->why), "cannot open %s: %s", dev,
				 strerror(errno));
		return;
	}
	n = pread(fd, &val, sizeof(val), RTM_MSR_SMI_COUNT);
	if (n != (ssize_t)sizeof(val))
		snprintf(c->why, sizeof(c->why), "the CPU refused to read MSR 0x34 through %s "
			 "(%s; a VM that does not pass it through)", dev,
			 n < 0 ? strerror(errno) : "short read");
	else
		*c = (struct rtm_smi_count){ .ok = true, .count = val & 0xffffffffULL };
	close(fd);
}

int rtm_smi_delta(const struct rtm_smi_count *before, const struct rtm_smi_count *after,
		  uint64_t *smis, const char **why)
{
	if (!before->ok || !after->ok) {
		*why = !before->ok ? before->why : after->why;
		return -1;
	}
	*smis = (after->count - before->count) & 0xffffffffULL;
	return 0;
}
