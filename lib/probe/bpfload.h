/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfload.h - what the BPF loaders (wakeup.c, timersplit.c) share: which of a
 * program's two builds to load (probe/bpf_read.h) and libbpf kept quiet.
 */
#ifndef RTM_PROBE_BPFLOAD_H
#define RTM_PROBE_BPFLOAD_H

#include <stddef.h>

struct bpf_object_skeleton;

/* How the programs read a task's fields. */
enum rtm_bpf_reads {
	RTM_BPF_READS_DIRECT,	/* loads through bpf_rdonly_cast() (Linux 6.2 on, a JIT) */
	RTM_BPF_READS_HELPER,	/* bpf_probe_read_kernel(), any kernel */
};

/*
 * rtm_bpf_reads_first - the build to load first: the direct one, unless the
 * environment says RTMEASURE_BPF_READS=helper (to check the other build on a
 * kernel that takes both). A loader whose direct build the kernel refuses
 * loads the helper one.
 */
enum rtm_bpf_reads rtm_bpf_reads_first(void);

/* "direct" or "helper", as result.json says it. */
const char *rtm_bpf_reads_name(enum rtm_bpf_reads r);

/*
 * rtm_bpf_open_skeleton - open skeleton @s (made by its __create_skeleton())
 * with the object of build @r: its own (the direct build's) or, for the
 * helper build, the bytes @helper_bytes gives, whose maps, programs and
 * data sections are those of the same source. 0 or a negative errno.
 */
int rtm_bpf_open_skeleton(struct bpf_object_skeleton *s, enum rtm_bpf_reads r,
			  const void *(*helper_bytes)(size_t *sz));

/* libbpf's own messages off (they would go to stderr): the callers say one line. */
void rtm_bpf_quiet(void);

#endif
