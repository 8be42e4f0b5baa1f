// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bpfload.c - the choice between a BPF program's two builds (bpf_read.h).
 */
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "probe/bpfload.h"

enum rtm_bpf_reads rtm_bpf_reads_first(void)
{
	const char *env = getenv("RTMEASURE_BPF_READS");

	return env && !strcmp(env, "helper") ? RTM_BPF_READS_HELPER : RTM_BPF_READS_DIRECT;
}

const char *rtm_bpf_reads_name(enum rtm_bpf_reads r)
{
	return r == RTM_BPF_READS_DIRECT ? "direct" : "helper";
}

int rtm_bpf_open_skeleton(struct bpf_object_skeleton *s, enum rtm_bpf_reads r,
			  const void *(*helper_bytes)(size_t *sz))
{
	if (r == RTM_BPF_READS_HELPER)
		s->data = (void *)helper_bytes(&s->data_sz);
	return bpf_object__open_skeleton(s, NULL);
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

void rtm_bpf_quiet(void)
{
	libbpf_set_print(quiet);
}
