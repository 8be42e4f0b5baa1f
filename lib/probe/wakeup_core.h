/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wakeup_core.h - the few kernel fields the wake-up programs read, as CO-RE
 * definitions: libbpf relocates each access against the running kernel's BTF
 * (/sys/kernel/btf/vmlinux) when it loads them. Checked in rather than a
 * vmlinux.h dumped from the build machine, so the build needs no BTF and
 * the object does not carry the build machine's layout.
 */
#ifndef RTM_WAKEUP_CORE_H
#define RTM_WAKEUP_CORE_H

struct thread_info {
	unsigned int cpu;
} __attribute__((preserve_access_index));

struct task_struct {
	struct thread_info thread_info;
	int pid;
	int tgid;
	int prio;
	unsigned int policy;
	char comm[16];
} __attribute__((preserve_access_index));

#endif
