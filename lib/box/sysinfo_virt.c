// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysinfo_virt.c - whether the box is a virtual machine, and which: the kernel's
 * own word at boot (its log), CPUID's hypervisor leaf, DMI's strings.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "core/fileio.h"
#include "core/units.h"
#include "box/sysinfo.h"
#include "box/sysinfo_priv.h"

#define strscpy_buf(dst, src) snprintf((dst), sizeof(dst), "%s", (src))

/* The last "Hypervisor detected: X" of @line (NUL-terminated) into si->hypervisor_kernel. */
static void log_line_hypervisor(struct rtm_sysinfo *si, char *line)
{
	static const char key[] = "Hypervisor detected: ";
	char *p, *found = NULL;

	for (p = strstr(line, key); p; p = strstr(p + 1, key))
		found = p + strlen(key);
	if (found) {
		found[strcspn(found, "\r\n")] = '\0';
		snprintf(si->hypervisor_kernel, sizeof(si->hypervisor_kernel), "%s",
			 rtm_strstrip(found));
	}
}

/*
 * Kernel log records from @fd, line by line: /dev/kmsg gives one record a
 * read ("6,1,0,-;Hypervisor detected: KVM\n") and EAGAIN at the end, EPIPE when
 * a record was overwritten while read; a file gives any number of lines a read.
 * Returns false when nothing could be read.
 */
static bool scan_log_fd(struct rtm_sysinfo *si, int fd)
{
	char buf[8192 + 1];
	size_t have = 0;
	bool any = false;

	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *line, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten under us: the next record follows */
		if (n <= 0)
			break;
		any = true;
		have += (size_t)n;
		buf[have] = '\0';
		for (line = buf; (nl = memchr(line, '\n', have - (size_t)(line - buf)));
		     line = nl + 1) {
			*nl = '\0';
			log_line_hypervisor(si, line);
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1) {	/* a line longer than a record: look at it */
			buf[have] = '\0';
			log_line_hypervisor(si, buf);
			have = 0;
		}
	}
	buf[have] = '\0';
	log_line_hypervisor(si, buf);
	return any;
}

/* The kernel log through klogctl: its formatted text, the last 128 KiB or so of it. */
static void klogctl_hypervisor(struct rtm_sysinfo *si)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n;
	char *log;

	if (size <= 0 || !(log = malloc((size_t)size + 1)))
		return;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, size);
	if (n >= 0) {
		log[n] = '\0';
		log_line_hypervisor(si, log);
	}
	free(log);	/* n < 0: dmesg_restrict without CAP_SYSLOG */
}

/*
 * The hypervisor the kernel named at boot ("Hypervisor detected: PVM"): live,
 * from the kernel's log records through /dev/kmsg, which holds every record
 * still in the ring buffer (klogctl's READ_ALL returns only the last buffer's
 * worth of formatted text, which a long-lived box has filled past the boot
 * lines), with klogctl where /dev/kmsg cannot be opened. In a recorded tree,
 * from its dev/kmsg (records) or kernel-log (the lines scripts/record-sysroot
 * kept). It can differ from CPUID's vendor string: a PVM guest's CPUID says
 * "bhyve bhyve ".
 */
static void kernel_log_hypervisor(struct rtm_sysinfo *si)
{
	char path[PATH_MAX], *log;
	size_t len = 0;
	int fd;

	if (si->live) {
		fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 && scan_log_fd(si, fd)) {
			close(fd);
			return;
		}
		if (fd >= 0)
			close(fd);
		klogctl_hypervisor(si);
		return;
	}
	fd = rtm_path(path, sizeof(path), si->root, "/dev/kmsg") ? -1 :
	     open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) {
		scan_log_fd(si, fd);
		close(fd);
		return;
	}
	log = rtm_read_all(si->root, "/kernel-log", &len);
	if (!log)
		return;
	log_line_hypervisor(si, log);
	free(log);
}

/* Live on x86: CPUID's hypervisor bit and the vendor of leaf 0x40000000. */
static void cpuid_hypervisor(struct rtm_sysinfo *si)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char vendor[13];

	if (!si->live || !__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return;
	si->vm = true;
	strscpy_buf(si->vm_source, "CPUID hypervisor bit");
	__cpuid(0x40000000, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &c, 4);
	memcpy(vendor + 8, &d, 4);
	vendor[12] = '\0';
	if (!strcmp(vendor, "KVMKVMKVM"))
		strscpy_buf(si->hypervisor, "KVM");
	else if (!strcmp(vendor, "Microsoft Hv"))
		strscpy_buf(si->hypervisor, "Hyper-V");
	else if (!strcmp(vendor, "VMwareVMware"))
		strscpy_buf(si->hypervisor, "VMware");
	else if (!strcmp(vendor, "XenVMMXenVMM"))
		strscpy_buf(si->hypervisor, "Xen");
	else if (!strcmp(vendor, "TCGTCGTCGTCG"))
		strscpy_buf(si->hypervisor, "QEMU TCG (emulation)");
	else if (!strcmp(vendor, "bhyve bhyve "))
		strscpy_buf(si->hypervisor, "bhyve");
	else if (!strcmp(vendor, "ACRNACRNACRN"))
		strscpy_buf(si->hypervisor, "ACRN");
	else if (vendor[0])
		snprintf(si->hypervisor, sizeof(si->hypervisor), "CPUID \"%s\"", vendor);
	strscpy_buf(si->hypervisor_cpuid, si->hypervisor);
#else
	(void)si;
#endif
}

/* The firmware's vendor and product names (DMI) of known hypervisors. */
static void dmi_hypervisor(struct rtm_sysinfo *si)
{
	static const struct { const char *needle, *name; } dmi[] = {
		{ "QEMU", "QEMU" }, { "KVM", "KVM" }, { "VMware", "VMware" },
		{ "VirtualBox", "VirtualBox" }, { "innotek", "VirtualBox" }, { "Xen", "Xen" },
		{ "Virtual Machine", "Hyper-V" }, { "Amazon EC2", "AWS EC2 (Nitro/KVM)" },
		{ "Google Compute Engine", "GCE (KVM)" }, { "BHYVE", "bhyve" },
		{ "Parallels", "Parallels" }, { "OpenStack", "OpenStack (KVM)" },
		{ "Firecracker", "Firecracker (KVM)" },
	};
	static const char *const dmi_files[] = {
		"/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name",
		"/sys/class/dmi/id/bios_vendor", "/sys/class/dmi/id/board_vendor",
	};
	char buf[128];
	unsigned int i, j;

	for (i = 0; i < sizeof(dmi_files) / sizeof(dmi_files[0]); i++) {
		if (rtm_read_small(si->root, dmi_files[i], buf, sizeof(buf)) <= 0)
			continue;
		for (j = 0; j < sizeof(dmi) / sizeof(dmi[0]); j++) {
			if (!strstr(buf, dmi[j].needle))
				continue;
			si->vm = true;
			if (!si->vm_source[0])
				snprintf(si->vm_source, sizeof(si->vm_source), "DMI %s",
					 strrchr(dmi_files[i], '/') + 1);
			if (!si->hypervisor[0])
				strscpy_buf(si->hypervisor, dmi[j].name);
			break;
		}
	}
}

void rtm_sysinfo_collect_virt(struct rtm_sysinfo *si)
{
	char buf[128];

	cpuid_hypervisor(si);
	kernel_log_hypervisor(si);
	if (si->hypervisor_kernel[0]) {
		/* the kernel's word for what it found is the one its code acts on */
		si->vm = true;
		if (!si->vm_source[0])
			strscpy_buf(si->vm_source, "kernel log");
		strscpy_buf(si->hypervisor, si->hypervisor_kernel);
	}
	if (rtm_read_small(si->root, "/sys/hypervisor/type", buf, sizeof(buf)) > 0) {
		si->vm = true;
		if (!si->vm_source[0])
			strscpy_buf(si->vm_source, "/sys/hypervisor/type");
		if (!si->hypervisor[0])
			snprintf(si->hypervisor, sizeof(si->hypervisor), "%.60s", buf);
	}
	dmi_hypervisor(si);
}

